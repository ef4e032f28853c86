// The TOTP second factor in Chromium. A person turns it on in 'Seguridad' (the code is computed here from the secret
// the page shows, as an authenticator app would), then every password sign-in asks the second step; a recovery code
// works once only. A browser the person trusts at the second step keeps the API's cookie and is not asked again there
// (docs/decisions/0143-trusted-devices.md) until the device is removed in 'Seguridad'.
import type { Page } from '@playwright/test';
import { expect, expectSignedInAs, person, registerActive, signInThroughForm, test } from '../support/auth';
import { codeAt, totpElsewhere } from '../support/totp';

async function signOut(page: Page) {
  await page.goto('/logout');
  // Opened from an address, /logout asks first (a link alone signs nobody out).
  await page.getByRole('button', { name: 'Cerrar sesión' }).click();
  await expect(page).toHaveURL(/\/login$/);
}

test('TOTP: set up in Seguridad, asked after the password, recovery codes used once', async ({ page, request }) => {
  test.setTimeout(90_000);
  const who = person('totp');
  await registerActive(request, who);
  await page.goto('/login');
  await signInThroughForm(page, who.email, who.password);
  await expect(page).toHaveURL(/\/apps$/);

  await page.goto('/perfil?tab=seguridad');
  await page.getByRole('button', { name: 'Activar aplicación de autenticación' }).click();
  await expect(page.getByRole('img', { name: 'Código QR para tu aplicación de autenticación' })).toBeVisible();
  const secret = ((await page.getByTestId('totp-secret').textContent()) ?? '').replace(/\s+/g, '');
  expect(secret).toMatch(/^[A-Z2-7]{16,}$/);

  // A wrong code first: the API's Spanish message, nothing turned on.
  await page.getByLabel('Código de 6 dígitos').fill('000000');
  await page.getByRole('button', { name: 'Confirmar' }).click();
  await expect(page.getByText('Código incorrecto')).toBeVisible();

  await page.getByLabel('Código de 6 dígitos').fill(await codeAt(secret));
  await page.getByRole('button', { name: 'Confirmar' }).click();
  const codes = page.getByRole('list', { name: 'Códigos de recuperación' }).getByRole('listitem');
  await expect(codes).toHaveCount(10);
  const recovery = (await codes.allInnerTexts()).map((text) => text.trim());
  expect(recovery[0]).toMatch(/^[A-Z0-9]{5}-[A-Z0-9]{5}$/);
  await page.getByRole('button', { name: 'Ya los guardé' }).click();
  await expect(page.getByText('Códigos de recuperación sin usar: 10')).toBeVisible();
  await signOut(page);

  // The password alone no longer signs in: the second step, then the next step's code (this step's was used).
  await signInThroughForm(page, who.email, who.password);
  await expect(page.getByRole('heading', { name: 'Verificación en dos pasos' })).toBeVisible();
  expect(await page.evaluate(() => window.localStorage.getItem('token'))).toBeNull();
  await page.getByLabel('Código de verificación').fill(await codeAt(secret, 1));
  await page.getByRole('button', { name: 'Verificar' }).click();
  await expect(page).toHaveURL(/\/apps$/);
  await expectSignedInAs(page, request, who.email);
  await signOut(page);

  // A recovery code signs in once.
  await signInThroughForm(page, who.email, who.password);
  await page.getByRole('button', { name: 'Usar un código de recuperación' }).click();
  await page.getByLabel('Código de recuperación').fill(recovery[0] as string);
  await page.getByRole('button', { name: 'Verificar' }).click();
  await expect(page).toHaveURL(/\/apps$/);
  await signOut(page);

  await signInThroughForm(page, who.email, who.password);
  await page.getByRole('button', { name: 'Usar un código de recuperación' }).click();
  await page.getByLabel('Código de recuperación').fill(recovery[0] as string);
  await page.getByRole('button', { name: 'Verificar' }).click();
  await expect(page.getByText('Código incorrecto')).toBeVisible();
  await expect(page).toHaveURL(/\/login/);
  await page.getByLabel('Código de recuperación').fill(recovery[1] as string);
  await page.getByRole('button', { name: 'Verificar' }).click();
  await expect(page).toHaveURL(/\/apps$/);
  await expectSignedInAs(page, request, who.email);
});

test('a trusted browser: the next password sign-in skips the second step there, not in another browser, until removed, and then says why', async ({
  browser,
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const who = person('confiable');
  await registerActive(request, who);
  const secret = await totpElsewhere(request, who);
  const secondStep = page.getByRole('heading', { name: 'Verificación en dos pasos' });

  await page.goto('/login');
  await signInThroughForm(page, who.email, who.password);
  await expect(secondStep).toBeVisible();
  await page.getByRole('checkbox', { name: 'No volver a pedir en este dispositivo durante 30 días' }).check();
  await page.getByLabel('Código de verificación').fill(await codeAt(secret, 1));
  await page.getByRole('button', { name: 'Verificar' }).click();
  await expect(page).toHaveURL(/\/apps$/);
  await signOut(page);

  // This browser kept the API's cookie: the password alone signs in.
  await signInThroughForm(page, who.email, who.password);
  await expect(page).toHaveURL(/\/apps$/);
  await expectSignedInAs(page, request, who.email);

  // Another browser is asked, as before.
  const other = await browser.newContext();
  const elsewhere = await other.newPage();
  await elsewhere.goto('/login');
  await signInThroughForm(elsewhere, who.email, who.password);
  await expect(elsewhere.getByRole('heading', { name: 'Verificación en dos pasos' })).toBeVisible();
  await other.close();

  // 'Seguridad' lists this browser as this device; removed, the second step is asked here again.
  await page.goto('/perfil?tab=seguridad');
  const devices = page.getByRole('list', { name: 'Dispositivos de confianza' }).getByRole('listitem');
  await expect(devices).toHaveCount(1);
  await expect(devices.getByText('Este dispositivo')).toBeVisible();
  await devices.getByRole('button', { name: /^Quitar / }).click();
  await expect(page.getByText('Dispositivo quitado: volverá a pedir el segundo factor')).toBeVisible();
  await expect(page.getByText('No tienes dispositivos de confianza.')).toBeVisible();
  await signOut(page);
  await signInThroughForm(page, who.email, who.password);
  await expect(secondStep).toBeVisible();
  // The browser still holds the cookie: the second step says why it is asked again (decision 0151).
  await expect(
    page.getByText('Este dispositivo dejó de ser de confianza porque lo quitaste en Seguridad.'),
  ).toBeVisible();
});
