// After signing up, Back does not bounce between the sign-up pages and /apps.
import { HOST_URL } from '../support/env';
import { codeFromMail, expect, person, registerThroughForm, test, VERIFICATION_SUBJECT } from '../support/auth';

test('after verification, Back skips the registration steps instead of bouncing to /apps at every press', async ({
  page,
}) => {
  const who = person('historial');
  const since = Date.now() - 1000;
  await registerThroughForm(page, who);
  await page.getByLabel('Código de verificación').fill(await codeFromMail(who.email, VERIFICATION_SUBJECT, since));
  await page.getByRole('button', { name: 'Verificar código' }).click();
  await expect(page).toHaveURL(`${HOST_URL}/apps`);
  // Back as a person presses it: once /apps is on screen. The guard tells a Back from a first load by the history
  // position of the page shown last, which /apps records once rendered; pressed while the address had changed but the
  // page not yet (a busy machine), the Back counted as a first load and /apps took the registration's entries.
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();

  // One Back passes over both registration steps: the first entry of the portal in this tab becomes /apps.
  await page.goBack();
  await expect(page).toHaveURL(`${HOST_URL}/apps`);
  // The next Back leaves the portal, to what the tab showed before it (here the blank start page).
  await page.goBack();
  await expect(page).toHaveURL('about:blank');
});
