import { expect, test } from '@playwright/test';
import { API_URL, E2E } from '../support/env';
import { signInAsAdmin } from '../support/session';
import { startRelay, startSpareShell } from '../support/static-servers';

const NETWORK_ERROR = 'No se pudo conectar con el servidor. Revisa tu conexión e inténtalo de nuevo.';
const spareApi = `http://127.0.0.1:${E2E.spareApiPort}`;
const remotes = {
  auth: `http://127.0.0.1:${E2E.authPort}/mf-manifest.json`,
  apps: `http://127.0.0.1:${E2E.appsPort}/mf-manifest.json`,
};

test('with the API down, signing in says so in Spanish and works once the API is back', async ({ page }) => {
  // A shell of the same build whose API address has nothing listening yet.
  const shell = await startSpareShell(spareApi, remotes);
  let api: Awaited<ReturnType<typeof startRelay>> | undefined;
  try {
    await page.goto(`${shell.url}/login`);
    await page.getByLabel('Email').fill(E2E.adminEmail);
    await page.getByLabel('Contraseña', { exact: true }).fill(E2E.adminPassword);
    await page.getByRole('button', { name: 'Iniciar Sesión', exact: true }).click();
    await expect(page.getByText(NETWORK_ERROR)).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);

    api = await startRelay(API_URL, E2E.spareApiPort);
    await page.getByRole('button', { name: 'Iniciar Sesión', exact: true }).click();
    await expect(page).toHaveURL(/\/apps$/);
    await expect(page.getByRole('button', { name: 'Menú de usuario' })).toBeVisible();
  } finally {
    await api?.close();
    await shell.close();
  }
});

test('with the API down, a signed-in person on /apps sees a Spanish error, not a blank page, and Reintentar recovers', async ({
  page,
  request,
}) => {
  const shell = await startSpareShell(spareApi, remotes);
  let api: Awaited<ReturnType<typeof startRelay>> | undefined;
  try {
    await signInAsAdmin(page, request);
    await page.goto(`${shell.url}/apps`);
    await expect(page.getByText(NETWORK_ERROR)).toBeVisible();

    api = await startRelay(API_URL, E2E.spareApiPort);
    await page.getByRole('button', { name: 'Reintentar' }).click();
    await expect(page).toHaveURL(/\/apps$/);
    await expect(page.getByRole('button', { name: 'Menú de usuario' })).toBeVisible();
    await expect(page.getByText(NETWORK_ERROR)).toBeHidden();
  } finally {
    await api?.close();
    await shell.close();
  }
});
