// Sign-in on a device (RFC 8628, docs/decisions/0086): the device is openid-client in the test process, the person is
// Chromium. Opened from the device's link signed out, the page signs the person in, comes back with the code, names
// the app and the device's address, and grants nothing until 'Permitir'; the device then gets its tokens. Typed by
// hand (lower case, no dash) and refused, the device is told access_denied. Keyboard only, phone and desktop.
import { mkdirSync } from 'node:fs';
import type { Page } from '@playwright/test';
import * as oidc from 'openid-client';
import { expect, person, registerActive, seriousViolations, signInThroughForm, test } from '../support/auth';
import { API_URL, HOST_URL } from '../support/env';
import { adminToken } from '../support/oidc';

const SHOTS = '/tmp/device-e2e-shots';
const APP = 'Panel de planta';

async function deviceClient(): Promise<string> {
  const response = await fetch(`${API_URL}/admin/clientes-oidc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${await adminToken()}` },
    body: JSON.stringify({
      nombre: APP,
      publico: true,
      dispositivos: true,
      scopes: ['openid', 'profile', 'email', 'offline_access'],
    }),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { clientId: string }).clientId;
}

/** The device: openid-client against the API (plain HTTP on this machine). */
async function device(clientId: string) {
  const config = await oidc.discovery(new URL(API_URL), clientId, undefined, oidc.None(), {
    execute: [oidc.allowInsecureRequests],
  });
  const started = await oidc.initiateDeviceAuthorization(config, { scope: 'openid profile email offline_access' });
  return { config, started };
}

/** Presses Tab until `name`'s button has the focus, then Enter: the keyboard alone answers. */
async function pressByKeyboard(page: Page, name: string): Promise<void> {
  for (let i = 0; i < 20; i += 1) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => document.activeElement?.textContent?.trim() ?? '');
    if (focused === name) {
      await page.keyboard.press('Enter');
      return;
    }
  }
  throw new Error(`no button ${name} reached by Tab`);
}

test("from the device's link, signed out: sign in, see the app and the device's address, Permitir; the device gets tokens", async ({
  page,
  request,
}) => {
  mkdirSync(SHOTS, { recursive: true });
  const who = person('dispositivo');
  await registerActive(request, who);
  const { config, started } = await device(await deviceClient());
  expect(started.verification_uri).toBe(`${HOST_URL}/dispositivo`);

  await page.goto(started.verification_uri_complete ?? '');
  await expect(page).toHaveURL(/\/login/);
  await signInThroughForm(page, who.email, who.password);

  // Back with the code: the request is shown, nothing is granted yet.
  await expect(
    page.getByRole('heading', { name: `${APP} quiere acceder a tu cuenta desde un dispositivo` }),
  ).toBeVisible();
  await expect(page).toHaveURL(`${HOST_URL}/dispositivo?codigo=${started.user_code}`);
  await expect(page.getByText(started.user_code, { exact: true })).toBeVisible();
  await expect(page.getByText('Dirección del dispositivo')).toBeVisible();
  await expect(page.getByText(/127\.0\.0\.1|::1/)).toBeVisible();
  await expect(page.getByText('Ver tu email')).toBeVisible();
  const pending = await fetch(`${API_URL}/oidc/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'urn:ietf:params:oauth:grant-type:device_code',
      device_code: started.device_code,
      client_id: config.clientMetadata().client_id,
    }),
  });
  expect(((await pending.json()) as { error: string }).error).toBe('authorization_pending');
  expect(await seriousViolations(page)).toEqual([]);

  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: `${SHOTS}/confirm-desktop.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${SHOTS}/confirm-phone.png`, fullPage: true });

  await pressByKeyboard(page, 'Permitir');
  await expect(page.getByRole('heading', { name: 'Listo: vuelve al dispositivo' })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/done-phone.png`, fullPage: true });

  const tokens = await oidc.pollDeviceAuthorizationGrant(config, started);
  expect(tokens.access_token).toBeTruthy();
  const userinfo = await oidc.fetchUserInfo(config, tokens.access_token, tokens.claims()?.sub ?? '');
  expect(userinfo.email).toBe(who.email);
});

test('typed by hand in lower case without the dash, then Rechazar: the device is told access_denied', async ({
  page,
  request,
}) => {
  mkdirSync(SHOTS, { recursive: true });
  const who = person('dispositivo-rechaza');
  await registerActive(request, who);
  const { config, started } = await device(await deviceClient());

  await page.goto('/login');
  await signInThroughForm(page, who.email, who.password);
  await expect(page).toHaveURL(/\/apps$/);
  await page.goto('/dispositivo');
  const field = page.getByLabel('Código del dispositivo');
  await expect(field).toBeFocused();
  await page.screenshot({ path: `${SHOTS}/enter-phone.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: `${SHOTS}/enter-desktop.png`, fullPage: true });

  // A wrong code first: told in Spanish, the field keeps what was typed.
  await page.keyboard.type('bbbbbbbb');
  await page.keyboard.press('Enter');
  await expect(page.getByText('Código incorrecto. Revisa el código que muestra el dispositivo.')).toBeVisible();

  await field.fill('');
  await page.keyboard.type(started.user_code.replace('-', '').toLowerCase());
  await page.keyboard.press('Enter');
  await expect(
    page.getByRole('heading', { name: `${APP} quiere acceder a tu cuenta desde un dispositivo` }),
  ).toBeVisible();
  await pressByKeyboard(page, 'Rechazar');
  await expect(page.getByRole('heading', { name: 'Acceso rechazado' })).toBeVisible();

  await expect(oidc.pollDeviceAuthorizationGrant(config, started)).rejects.toMatchObject({ error: 'access_denied' });
});
