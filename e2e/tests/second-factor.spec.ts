// The TOTP second factor in Chromium. A person turns it on in 'Seguridad' (the code is computed here from the secret
// the page shows, as an authenticator app would), then every password sign-in asks the second step; a recovery code
// works once only.
import { generate } from 'otplib';
import type { Page } from '@playwright/test';
import { expect, expectSignedInAs, person, registerActive, signInThroughForm, test } from '../support/auth';

/** The code an authenticator app shows `offset` steps of 30 s from now (the API accepts one step either side). */
function codeAt(secret: string, offset = 0): Promise<string> {
  return generate({ secret, epoch: Math.floor(Date.now() / 1000) + offset * 30 });
}

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
