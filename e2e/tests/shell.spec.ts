import { expect, test } from '@playwright/test';
import { signInAsAdmin } from '../support/session';

test('a protected route without a session goes to /login', async ({ page }) => {
  await page.goto('/perfil');
  await expect(page).toHaveURL(/\/login$/);
});

test('a stored token that has expired is removed and the session stays anonymous', async ({ page }) => {
  const expired = `e30.${Buffer.from(JSON.stringify({ exp: 1 })).toString('base64url')}.sig`;
  await page.addInitScript((value) => window.localStorage.setItem('token', value), expired);
  await page.goto('/apps');
  await expect(page).toHaveURL(/\/login$/);
  expect(await page.evaluate(() => window.localStorage.getItem('token'))).toBeNull();
});

test('the launcher lists the seeded web apps and closes on an outside click', async ({ page, request }) => {
  await signInAsAdmin(page, request);
  await page.goto('/calculadora-txi');
  await page.getByRole('button', { name: 'Aplicaciones' }).click();
  const launcher = page.getByRole('region', { name: 'Aplicaciones' });
  await expect(launcher.getByText('Conoce todas tus herramientas')).toBeVisible();
  for (const name of ['Control Max 360', 'Beto Pro', 'TX30', 'Calculadora TXI']) {
    await expect(launcher.getByRole('button', { name })).toBeVisible();
  }
  await page.mouse.click(5, 400);
  await expect(launcher).toBeHidden();
});

test('the calculator entry of the launcher opens /calculadora-txi in a new tab', async ({ page, context, request }) => {
  await signInAsAdmin(page, request);
  await page.goto('/calculadora-txi');
  await page.getByRole('button', { name: 'Aplicaciones' }).click();
  const [tab] = await Promise.all([
    context.waitForEvent('page'),
    page.getByRole('region', { name: 'Aplicaciones' }).getByRole('button', { name: 'Calculadora TXI' }).click(),
  ]);
  await tab.waitForLoadState();
  expect(new URL(tab.url()).pathname).toBe('/calculadora-txi');
});

test('the avatar menu shows Panel to an administrator and signs out to /login', async ({ page, request }) => {
  await signInAsAdmin(page, request);
  await page.goto('/calculadora-txi');
  await page.getByRole('button', { name: 'Menú de usuario' }).click();
  const menu = page.getByRole('region', { name: 'Menú de usuario' });
  for (const entry of ['Mi perfil', 'Planes', 'Panel', 'Cerrar sesión']) {
    await expect(menu.getByText(entry, { exact: true })).toBeVisible();
  }
  // Billing is off in this deployment: 'Mi facturación' would lead nowhere.
  await expect(menu.getByText('Mi facturación', { exact: true })).toHaveCount(0);
  await menu.getByText('Cerrar sesión', { exact: true }).click();
  await expect(page).toHaveURL(/\/login$/);
  expect(await page.evaluate(() => window.localStorage.getItem('token'))).toBeNull();
});

test('an unknown address shows the not-found page', async ({ page }) => {
  await page.goto('/no-existe');
  await expect(page.getByRole('heading', { name: 'Página no encontrada' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Ir a Aplicaciones' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Regresar' })).toBeVisible();
});

test('the session and billing stores are one instance in the host and the calculator remote', async ({
  page,
  request,
}) => {
  await signInAsAdmin(page, request);
  await page.goto('/calculadora-txi');
  await expect(page.getByRole('heading', { name: 'Calculadora TXI' })).toBeVisible();
  const instances = await page.evaluate(
    () => (window as unknown as { __PORTAL_INSTANCES__?: Record<string, number> }).__PORTAL_INSTANCES__,
  );
  // A second copy of @portal/shared in the remote would count 2 for each.
  expect(instances).toEqual({ '@portal/shared': 1, 'session-store': 1, 'billing-store': 1 });
});

test('a deep address loaded directly renders the shell (absolute script paths)', async ({ page }) => {
  await page.goto('/una/ruta/profunda/que/no/existe');
  await expect(page.getByRole('heading', { name: 'Página no encontrada' })).toBeVisible();
});
