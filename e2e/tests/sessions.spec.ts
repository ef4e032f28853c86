// Two browsers signed in to one account; ending one session from the other sends the first to /login at its next call,
// and the sign-in from a browser never seen before is announced by mail ('Nuevo inicio de sesión').
import { MAIL_DIR } from '../support/env';
import { expect, expectSignedInAs, person, registerActive, signInThroughForm, test } from '../support/auth';
import { mailsFor } from '../support/mail-sink';
import { PHONE, SCREENS } from '../support/screens';

const firefoxWindows = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';
const chromeAndroid =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';

test('ending a session from another browser sends the first one to /login at its next call', async ({
  browser,
  request,
}) => {
  test.setTimeout(90_000);
  const who = person('sesiones');
  await registerActive(request, who);

  const first = await browser.newContext();
  const second = await browser.newContext({ userAgent: firefoxWindows });
  try {
    const pageA = await first.newPage();
    await pageA.goto('/login');
    await signInThroughForm(pageA, who.email, who.password);
    await expect(pageA).toHaveURL(/\/apps$/);
    await expectSignedInAs(pageA, request, who.email);

    const pageB = await second.newPage();
    await pageB.goto('/login');
    await signInThroughForm(pageB, who.email, who.password);
    await expect(pageB).toHaveURL(/\/apps$/);

    // Both browsers are devices this account never used (it was created through the API): the Firefox on Windows
    // mail reaches the SMTP sink.
    const firefoxMails = () =>
      mailsFor(MAIL_DIR, who.email).filter(
        (mail) =>
          mail.subject === 'Nuevo inicio de sesión' && mail.raw.replace(/=\r?\n/g, '').includes('Firefox en Windows'),
      );
    await expect.poll(() => firefoxMails().length, { timeout: 20_000 }).toBe(1);

    await pageB.goto('/perfil');
    await pageB.getByRole('tab', { name: 'Seguridad' }).click();
    const list = pageB.getByRole('list', { name: 'Sesiones abiertas' });
    const mine = list.getByRole('listitem').filter({ hasText: 'Este dispositivo' });
    await expect(mine).toContainText('Firefox en Windows');
    const other = list.getByRole('listitem').filter({ hasText: 'Chrome en Linux' });
    await other.getByRole('button', { name: 'Cerrar sesión' }).click();
    await other.getByRole('button', { name: 'Sí, cerrar sesión' }).click();
    await expect(pageB.getByText('Sesión cerrada')).toBeVisible();
    // Left: this browser and the API client that created the account.
    await expect(other).toHaveCount(0);
    await expect(list.getByRole('listitem')).toHaveCount(2);

    // The first browser's next call is refused: it lands on /login.
    await pageA.goto('/perfil');
    await expect(pageA).toHaveURL(/\/login/);
    // The second one goes on.
    await pageB.reload();
    await expect(pageB).toHaveURL(/\/perfil$/);
  } finally {
    await first.close();
    await second.close();
  }
});

for (const viewport of SCREENS) {
  test(`'Este dispositivo' stays on one line at ${viewport.width} px`, async ({ browser, request }, testInfo) => {
    const who = person(`este-dispositivo-${viewport.width}`);
    await registerActive(request, who);
    // On the phone, a phone's browser: 'Móvil · Chrome en Android' leaves the badge at the end of the line.
    const context = await browser.newContext({ viewport, ...(viewport === PHONE && { userAgent: chromeAndroid }) });
    const page = await context.newPage();
    await page.goto('/login');
    await signInThroughForm(page, who.email, who.password);
    await expect(page).toHaveURL(/\/apps$/);
    await page.goto('/perfil?tab=seguridad');
    const badge = page.getByRole('list', { name: 'Sesiones abiertas' }).getByText('Este dispositivo', { exact: true });
    await expect(badge).toBeVisible();
    await badge.scrollIntoViewIfNeeded();
    await page.screenshot({ path: testInfo.outputPath(`este-dispositivo-${viewport.width}.png`) });
    // A text broken over two lines is drawn as two boxes.
    expect(await badge.evaluate((element) => element.getClientRects().length)).toBe(1);
    await context.close();
  });
}
