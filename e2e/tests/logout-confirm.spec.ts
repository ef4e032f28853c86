import type { Page } from '@playwright/test';
import { API_URL, HOST_URL } from '../support/env';
import { expect, expectSignedInAs, person, registerActive, signInThroughForm, test } from '../support/auth';

/** Another site, as a person meets it: a page with a link to the portal's /logout (served by the test, not a network). */
const ATTACKER = 'https://attacker.example';

async function followLinkFromAttacker(page: Page): Promise<void> {
  await page.route(`${ATTACKER}/**`, (route) =>
    route.fulfill({
      contentType: 'text/html; charset=utf-8',
      body: `<!doctype html><html lang="es"><body><a href="${HOST_URL}/logout">Ver la oferta</a></body></html>`,
    }),
  );
  await page.goto(`${ATTACKER}/oferta`);
  await page.getByRole('link', { name: 'Ver la oferta' }).click();
  await expect(page).toHaveURL(`${HOST_URL}/logout`);
}

const storedToken = (page: Page) => page.evaluate(() => window.localStorage.getItem('token'));

test('a link to /logout from another site signs nobody out: the victim is asked and stays signed in until they press the button', async ({
  page,
  request,
}, testInfo) => {
  const victim = person('salir');
  await registerActive(request, victim);
  await page.goto('/login');
  await signInThroughForm(page, victim.email, victim.password);
  await expect(page).toHaveURL(/\/apps$/);
  const token = await storedToken(page);

  await followLinkFromAttacker(page);
  await expect(page.getByRole('heading', { name: '¿Cerrar sesión?' })).toBeVisible();
  await expect(page.getByText(`Se cerrará la sesión de ${victim.email} en este navegador.`)).toBeVisible();
  // Nothing ended: the same token still works, in this browser and at the API.
  expect(await storedToken(page)).toBe(token);
  await expectSignedInAs(page, request, victim.email);

  for (const [name, viewport] of [
    ['telefono', { width: 390, height: 844 }],
    ['escritorio', { width: 1280, height: 900 }],
  ] as const) {
    await page.setViewportSize(viewport);
    await page.screenshot({ path: testInfo.outputPath(`logout-confirm-${name}.png`), fullPage: true });
  }

  // 'Cancelar' goes back to the apps, still signed in.
  await page.getByRole('link', { name: 'Cancelar' }).click();
  await expect(page).toHaveURL(/\/apps$/);
  await expectSignedInAs(page, request, victim.email);

  // Pressing the button (from the keyboard) is what signs out.
  await followLinkFromAttacker(page);
  const button = page.getByRole('button', { name: 'Cerrar sesión' });
  await button.focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/login$/);
  expect(await storedToken(page)).toBeNull();
  const after = await request.get(`${API_URL}/auth/user`, { headers: { Authorization: `Bearer ${token}` } });
  expect(after.status()).toBe(401);
});
