// Passkeys in Chromium with a virtual authenticator (the DevTools protocol's WebAuthn domain): add one in 'Seguridad',
// sign out, sign in with it, remove it, and a removed passkey no longer signs in. Browsers refuse an IP address as
// relying party: the suite opens the portal where `npm start` prints it (localhost), and a page opened at 127.0.0.1
// says why passkeys are unavailable there instead of offering them.
import type { Page } from '@playwright/test';
import { E2E, HOST_IP_URL, HOST_URL } from '../support/env';
import { startAsAPerson } from '../support/own-start';
import { signInAs } from '../support/session';
import { expect, expectSignedInAs, person, registerActive, signInThroughForm, test } from '../support/auth';

const UNAVAILABLE_AT_IP = `Las llaves de acceso no funcionan en una dirección IP. Abre el portal en ${HOST_URL} para usarlas.`;

/** Full-page screenshots of the page on screen at a phone's size and a desktop's, looked at by a person. */
async function shootAtBothSizes(page: Page, name: string) {
  for (const viewport of [
    { width: 390, height: 844 },
    { width: 1280, height: 800 },
  ]) {
    await page.setViewportSize(viewport);
    await page.screenshot({ path: test.info().outputPath(`${name}-${viewport.width}.png`), fullPage: true });
  }
}

/** A platform authenticator that holds discoverable credentials and verifies the user without asking. */
async function addVirtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  const credentials = async () => (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials;
  return { credentials };
}

/** Ends the session; with the browser's passkey autofill on, /login may sign straight back in (the caller says). */
async function signOut(page: Page) {
  await page.goto(`/logout`);
  // Opened from an address, /logout asks first (a link alone signs nobody out).
  await page.getByRole('button', { name: 'Cerrar sesión' }).click();
  await expect.poll(() => page.evaluate(() => window.localStorage.getItem('token'))).toBeNull();
}

/**
 * From the next page on, this browser offers no passkey autofill (as browsers without conditional mediation): the
 * virtual authenticator would otherwise answer the email field's quiet request at once, as if the person had picked
 * the passkey among the suggestions.
 */
async function withoutAutofill(page: Page) {
  await page.addInitScript(() => {
    PublicKeyCredential.isConditionalMediationAvailable = async () => false;
  });
}

test('a passkey added in Seguridad signs in (autofill, button, second step); removed, it no longer does', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const who = person('llave');
  await registerActive(request, who);
  const authenticator = await addVirtualAuthenticator(page);

  await page.goto(`/login`);
  await signInThroughForm(page, who.email, who.password);
  await expect(page).toHaveURL(/\/apps$/);

  await page.goto(`/perfil?tab=seguridad`);
  await page.getByRole('button', { name: 'Agregar llave de acceso' }).click();
  await page.getByLabel('Nombre de la llave').fill('Portátil de pruebas');
  await page.getByRole('button', { name: 'Continuar' }).click();
  await expect(page.getByText('Llave de acceso agregada')).toBeVisible();
  const list = page.getByRole('list', { name: 'Llaves de acceso' });
  await expect(list.getByRole('listitem')).toHaveCount(1);
  await expect(list).toContainText('Portátil de pruebas');
  await expect(list).toContainText('Sin usar todavía');
  expect(await authenticator.credentials()).toHaveLength(1);

  // The email field's passkey autofill: after the logout, /login signs in again with nothing typed (a new session).
  const before = await page.evaluate(() => window.localStorage.getItem('token'));
  await page.goto(`/logout`);
  // Opened from an address, /logout asks first (a link alone signs nobody out).
  await page.getByRole('button', { name: 'Cerrar sesión' }).click();
  await expect(page).toHaveURL(/\/apps$/);
  const after = await page.evaluate(() => window.localStorage.getItem('token'));
  expect(after).not.toBeNull();
  expect(after).not.toBe(before);
  await expectSignedInAs(page, request, who.email);
  await page.goto(`/perfil?tab=seguridad`);
  await expect(list).toContainText('Último uso');
  await expect(list).not.toContainText('Sin usar todavía');

  // The button, on a browser without autofill.
  await withoutAutofill(page);
  await signOut(page);
  await expect(page).toHaveURL(/\/login$/);
  await page.getByRole('button', { name: 'Iniciar sesión con llave de acceso' }).click();
  await expect(page).toHaveURL(/\/apps$/);
  await expectSignedInAs(page, request, who.email);

  // The password alone no longer signs in: the passkey is its second step.
  await signOut(page);
  await signInThroughForm(page, who.email, who.password);
  await expect(page.getByRole('heading', { name: 'Verificación en dos pasos' })).toBeVisible();
  expect(await page.evaluate(() => window.localStorage.getItem('token'))).toBeNull();
  await page.getByRole('button', { name: 'Usar mi llave de acceso' }).click();
  await expect(page).toHaveURL(/\/apps$/);
  await expectSignedInAs(page, request, who.email);

  // Removed (after a confirmation), the authenticator's credential no longer opens the account.
  await page.goto(`/perfil?tab=seguridad`);
  await list.getByRole('button', { name: 'Eliminar' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('¿Eliminar la llave de acceso «Portátil de pruebas»?');
  await dialog.getByRole('button', { name: 'Eliminar' }).click();
  await expect(page.getByText('Llave de acceso eliminada')).toBeVisible();
  await expect(list.getByRole('listitem')).toHaveCount(0);
  await signOut(page);
  expect(await authenticator.credentials()).toHaveLength(1);
  await page.getByRole('button', { name: 'Iniciar sesión con llave de acceso' }).click();
  await expect(page.getByText('No se pudo iniciar sesión con esta llave de acceso')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
  expect(await page.evaluate(() => window.localStorage.getItem('token'))).toBeNull();
  // And the password alone signs in again: no second factor is left.
  await signInThroughForm(page, who.email, who.password);
  await expect(page).toHaveURL(/\/apps$/);
});

test('a page opened at 127.0.0.1 says why passkeys are unavailable there and offers none; its link opens localhost', async ({
  page,
  request,
}) => {
  const who = person('llave-ip');
  await registerActive(request, who);
  await addVirtualAuthenticator(page);

  await page.goto(`${HOST_IP_URL}/login`);
  await expect(page.getByText(UNAVAILABLE_AT_IP)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Iniciar sesión con llave de acceso' })).toHaveCount(0);
  await shootAtBothSizes(page, 'login-en-ip');
  // Everything else works at that address: the password signs in.
  await signInThroughForm(page, who.email, who.password);
  await expect(page).toHaveURL(`${HOST_IP_URL}/apps`);

  await page.goto(`${HOST_IP_URL}/perfil?tab=seguridad`);
  const section = page.getByRole('region', { name: 'Llaves de acceso' });
  await expect(section.getByText(UNAVAILABLE_AT_IP)).toBeVisible();
  await expect(section.getByText('Aún no tienes llaves de acceso.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Agregar llave de acceso' })).toHaveCount(0);
  await shootAtBothSizes(page, 'seguridad-en-ip');

  // The link leads to the same page at localhost, where (signed in there) the passkey can be added.
  await signInAs(page, request, who.email, who.password);
  await section.getByRole('link', { name: HOST_URL }).click();
  await expect(page).toHaveURL(`${HOST_URL}/perfil?tab=seguridad`);
  await expect(page.getByRole('button', { name: 'Agregar llave de acceso' })).toBeVisible();
  await expect(page.getByText(UNAVAILABLE_AT_IP)).toHaveCount(0);
});

test('at the address npm start prints, a passkey is added in Seguridad and then signs in', async ({ page }) => {
  test.setTimeout(120_000);
  const { printed, stop } = await startAsAPerson('own-start');
  try {
    await addVirtualAuthenticator(page);
    await withoutAutofill(page);
    await page.goto(`${printed}/login`);
    await signInThroughForm(page, E2E.adminEmail, E2E.adminPassword);
    await expect(page).toHaveURL(`${printed}/apps`);

    await page.goto(`${printed}/perfil?tab=seguridad`);
    await page.getByRole('button', { name: 'Agregar llave de acceso' }).click();
    await page.getByLabel('Nombre de la llave').fill('Mi portátil');
    await page.getByRole('button', { name: 'Continuar' }).click();
    await expect(page.getByText('Llave de acceso agregada')).toBeVisible();

    await page.goto(`${printed}/logout`);
    await page.getByRole('button', { name: 'Cerrar sesión' }).click();
    await expect(page).toHaveURL(`${printed}/login`);
    await page.getByRole('button', { name: 'Iniciar sesión con llave de acceso' }).click();
    await expect(page).toHaveURL(`${printed}/apps`);
  } finally {
    await stop();
  }
});
