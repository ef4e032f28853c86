import type { APIRequestContext, Page } from '@playwright/test';
import { expect, person, registerActive, test } from '../support/auth';
import { API_URL } from '../support/env';
import { signInAs } from '../support/session';

async function finishPresentation(page: Page) {
  const dialog = page.getByRole('dialog');
  for (const next of ['2 de 3', '3 de 3']) {
    await dialog.getByRole('button', { name: 'Continuar' }).click();
    await expect(dialog.getByText(next)).toBeVisible();
  }
  await dialog.getByRole('button', { name: 'Continuar con la Cuenta Gratis' }).click();
}

/** The account's `presentacion` as the server keeps it. */
async function storedPresentation(request: APIRequestContext, token: string): Promise<boolean> {
  const stored = await request.get(`${API_URL}/auth/user`, { headers: { Authorization: `Bearer ${token}` } });
  return ((await stored.json()) as { presentacion: boolean }).presentacion;
}

test('the presentation opens once per session for a new account, and never again once finished, also after a reload', async ({
  page,
  request,
}) => {
  // A really new account: registered and verified through the API, so its `presentacion` is true.
  const newcomer = person('presentacion');
  await registerActive(request, newcomer);
  const token = await signInAs(page, request, newcomer.email, newcomer.password);
  let recorded = 0;
  page.on('request', (sent) => {
    if (sent.url() === `${API_URL}/auth/update-presentacion` && sent.method() === 'POST') recorded += 1;
  });

  await page.goto('/apps');
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByText('1 de 3')).toBeVisible();
  await expect(dialog.getByText('Automatización Avanzada')).toBeVisible();

  // Step 1 has no 'Anterior': no button closes the presentation without saying so.
  await expect(dialog.getByRole('button', { name: 'Continuar' })).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Anterior' })).toHaveCount(0);

  // Dismissed while the API cannot be reached to record it: not again in this session all the same.
  await page.route(`${API_URL}/auth/update-presentacion`, (route) =>
    route.request().method() === 'POST' ? route.abort() : route.continue(),
  );
  const lost = page.waitForEvent(
    'requestfailed',
    (sent) => sent.url() === `${API_URL}/auth/update-presentacion` && sent.method() === 'POST',
  );
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await lost;
  await page.getByRole('region', { name: 'Mejorar Plan' }).getByRole('button', { name: 'Mejorar Plan' }).click();
  await expect(page).toHaveURL(/\/planes$/);
  await page.goBack();
  await expect(page.getByRole('heading', { level: 1, name: /^¡Hola, / })).toBeVisible();
  await expect(dialog).toBeHidden();
  await page.unroute(`${API_URL}/auth/update-presentacion`);
  expect(await storedPresentation(request, token)).toBe(true);

  // A new session (reload) of an account that has not finished it: it opens again; 'Anterior' goes back one step.
  await page.reload();
  await expect(dialog.getByText('1 de 3')).toBeVisible();
  await dialog.getByRole('button', { name: 'Continuar' }).click();
  await expect(dialog.getByRole('heading', { name: 'Nuestras Aplicaciones' })).toBeVisible();
  await expect(dialog.getByRole('listitem').filter({ hasText: 'Beto Pro' })).toBeVisible();
  await dialog.getByRole('button', { name: 'Anterior' }).click();
  await expect(dialog.getByText('1 de 3')).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Anterior' })).toHaveCount(0);
  recorded = 0;

  await finishPresentation(page);
  await expect(dialog).toBeHidden();
  expect(recorded).toBe(1);
  // The server kept it: the account is no longer new.
  expect(await storedPresentation(request, token)).toBe(false);

  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: /^¡Hola, / })).toBeVisible();
  await expect(page.getByRole('article', { name: 'Beto Pro' })).toBeVisible();
  await expect(dialog).toBeHidden();
});

test('dismissed with Escape, the presentation is seen: it does not come back in the next session', async ({
  page,
  request,
}) => {
  const newcomer = person('presentacion-escape');
  await registerActive(request, newcomer);
  const token = await signInAs(page, request, newcomer.email, newcomer.password);

  await page.goto('/apps');
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByText('1 de 3')).toBeVisible();
  const recorded = page.waitForResponse(
    (answer) => answer.url() === `${API_URL}/auth/update-presentacion` && answer.request().method() === 'POST',
  );
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  expect((await recorded).status()).toBe(200);
  expect(await storedPresentation(request, token)).toBe(false);

  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: /^¡Hola, / })).toBeVisible();
  await expect(page.getByRole('article', { name: 'Beto Pro' })).toBeVisible();
  await expect(dialog).toBeHidden();
});

test('closed with a click on the backdrop, the presentation is seen as well: it does not come back in the next session', async ({
  page,
  request,
}) => {
  const newcomer = person('presentacion-fondo');
  await registerActive(request, newcomer);
  const token = await signInAs(page, request, newcomer.email, newcomer.password);

  await page.goto('/apps');
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByText('1 de 3')).toBeVisible();
  const recorded = page.waitForResponse(
    (answer) => answer.url() === `${API_URL}/auth/update-presentacion` && answer.request().method() === 'POST',
  );
  // The top left corner of the window is outside the dialog's box: the click lands on its backdrop.
  const box = await dialog.boundingBox();
  expect(box && box.x > 10 && box.y > 10).toBe(true);
  await page.mouse.click(5, 5);
  await expect(dialog).toBeHidden();
  expect((await recorded).status()).toBe(200);
  expect(await storedPresentation(request, token)).toBe(false);

  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: /^¡Hola, / })).toBeVisible();
  await expect(page.getByRole('article', { name: 'Beto Pro' })).toBeVisible();
  await expect(dialog).toBeHidden();
});

for (const viewport of [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
]) {
  test(`at ${viewport.width} px, the last step goes on with the free account, never offering to create one`, async ({
    page,
    request,
  }, testInfo) => {
    await page.setViewportSize(viewport);
    const newcomer = person(`presentacion-${viewport.width}`);
    await registerActive(request, newcomer);
    const token = await signInAs(page, request, newcomer.email, newcomer.password);

    await page.goto('/apps');
    const dialog = page.getByRole('dialog', { name: 'Te damos la bienvenida a C+Suite' });
    await expect(dialog.getByText('1 de 3')).toBeVisible();
    for (const next of ['2 de 3', '3 de 3']) {
      await page.getByRole('dialog').getByRole('button', { name: 'Continuar' }).click();
      await expect(page.getByRole('dialog').getByText(next)).toBeVisible();
    }
    const last = page.getByRole('dialog', { name: 'Elige un plan para continuar' });
    await expect(last.getByRole('heading', { name: 'Cuenta Gratis' })).toBeVisible();
    await expect(last.getByText(/crear cuenta/i)).toHaveCount(0);
    const finish = last.getByRole('button', { name: 'Continuar con la Cuenta Gratis' });
    await expect(finish).toBeInViewport({ ratio: 1 });
    // The whole step above the buttons: the Pro account's 'Próximamente' is not under them.
    await last.getByText('Próximamente').click({ trial: true });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
    await page.screenshot({ path: testInfo.outputPath(`paso-3-${viewport.width}.png`) });

    await finish.click();
    await expect(last).toBeHidden();
    expect(await storedPresentation(request, token)).toBe(false);
  });
}
