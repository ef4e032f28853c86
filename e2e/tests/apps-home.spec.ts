import { expect, test } from '../support/catalogue';
import { API_URL, E2E } from '../support/env';
import { signInAsAdmin } from '../support/session';
import { portalReady } from '../support/auth';
import { atProvider, providerAccount } from '../support/identity';

// The seeded administrator is a signed-in, verified user with the free plan of every app.

test('a signed-in user sees the greeting, the free badge and the web and mobile tabs', async ({ page, request }) => {
  await signInAsAdmin(page, request);
  await page.goto('/apps');
  await expect(page.getByRole('heading', { level: 1, name: '¡Hola, Administrador!' })).toBeVisible();
  await expect(page.getByText('Plan gratuito', { exact: true })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Aplicaciones web' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('tab', { name: 'Archivos (Próximamente)' })).toBeDisabled();
  await expect(page.getByRole('article', { name: 'TX30' }).getByRole('button', { name: 'Abrir TX30' })).toBeEnabled();

  await page.getByRole('tab', { name: 'Aplicaciones para móvil' }).click();
  await expect(page.getByRole('article', { name: 'TX30' }).getByRole('button', { name: 'Abrir TX30' })).toBeDisabled();
  await expect(
    page.getByRole('article', { name: 'Beto Pro' }).getByRole('button', { name: 'Abrir Beto Pro' }),
  ).toBeEnabled();
});

test('out of the box, launching a seeded web app carries the signed-in person: a token minted for that app', async ({
  page,
  context,
  request,
}) => {
  const token = await signInAsAdmin(page, request);
  // The product's app is not on this machine: answer its address so the new tab has something to show.
  await context.route('https://betopro.example.com/**', (route) =>
    route.fulfill({ contentType: 'text/html', body: '<title>Beto Pro</title>' }),
  );
  await page.goto('/apps');
  const [tab] = await Promise.all([
    context.waitForEvent('page'),
    page.getByRole('button', { name: 'Abrir Beto Pro' }).click(),
  ]);
  await tab.waitForURL(/betopro\.example\.com\/\?token=/);
  const sent = new URL(tab.url()).searchParams.get('token') ?? '';
  expect(sent).not.toBe(token);
  expect(JSON.parse(Buffer.from(sent.split('.')[1]!, 'base64url').toString())).toMatchObject({
    aud: 'https://betopro.example.com',
  });
  expect((await request.get(`${API_URL}/auth/user`, { headers: { Authorization: `Bearer ${sent}` } })).status()).toBe(
    200,
  );
  expect(new URL(page.url()).pathname).toBe('/apps');
});

test('launching a web app off the redirect allow-list opens it in a new tab without any token', async ({
  page,
  context,
  request,
  changeApp,
}) => {
  const token = await signInAsAdmin(page, request);
  // TX30 pointed at a site no allow-list names for this test (answered here), then put back.
  await changeApp(token, 3, { webUrl: 'https://otra-app.example.org/tx30' });
  await context.route('https://otra-app.example.org/**', (route) =>
    route.fulfill({ contentType: 'text/html', body: '<title>TX30</title>' }),
  );
  await page.goto('/apps');
  const [tab] = await Promise.all([
    context.waitForEvent('page'),
    page.getByRole('button', { name: 'Abrir TX30' }).click(),
  ]);
  await tab.waitForURL(/otra-app\.example\.org/);
  const opened = new URL(tab.url());
  expect(opened.origin + opened.pathname).toBe('https://otra-app.example.org/tx30');
  expect(opened.searchParams.get('token')).toBeNull();
  expect(tab.url()).not.toContain(token);
  expect(new URL(page.url()).pathname).toBe('/apps');
});

test('launching an allowed partner web app sends a token minted for it, never the session token', async ({
  page,
  context,
  request,
  changeApp,
}) => {
  const token = await signInAsAdmin(page, request);
  // TX30 pointed at a partner on the allow-list for this test (answered here), then put back.
  await changeApp(token, 3, { webUrl: 'https://portal.example.com/tx30' });
  await context.route('https://portal.example.com/**', (route) =>
    route.fulfill({ contentType: 'text/html', body: '<title>TX30</title>' }),
  );
  await page.goto('/apps');
  const [tab] = await Promise.all([
    context.waitForEvent('page'),
    page.getByRole('button', { name: 'Abrir TX30' }).click(),
  ]);
  await tab.waitForURL(/portal\.example\.com\/tx30\?token=/);
  const sent = new URL(tab.url()).searchParams.get('token') ?? '';
  expect(JSON.parse(Buffer.from(sent.split('.')[1]!, 'base64url').toString())).toMatchObject({
    aud: 'https://portal.example.com',
  });
  expect((await request.get(`${API_URL}/auth/user`, { headers: { Authorization: `Bearer ${sent}` } })).status()).toBe(
    200,
  );
  expect((await request.get(`${API_URL}/user/listar`, { headers: { Authorization: `Bearer ${sent}` } })).status()).toBe(
    401,
  );
});

test("a card's 'Mejorar Plan' opens /apps/2 with the PRO plan and the complete suite", async ({ page, request }) => {
  await signInAsAdmin(page, request);
  await page.goto('/apps');
  await page.getByRole('button', { name: 'Mejorar Plan de Beto Pro' }).click();
  await expect(page).toHaveURL(/\/apps\/2$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Beto Pro' })).toBeVisible();
  const pro = page.getByRole('region', { name: 'Beto Pro PRO' });
  await expect(pro.getByText('Consultas ilimitadas')).toBeVisible();
  await expect(pro.getByRole('button', { name: /^15 USD \/ mes\s*:\s*Próximamente$/ })).toBeDisabled();
  await expect(
    page
      .getByRole('region', { name: 'C+Suite Completa' })
      .getByRole('button', { name: /^299 USD \/ año\s*:\s*Próximamente$/ }),
  ).toBeDisabled();
});

test("the upgrade banner leads to /planes: 'Planes Premium', the suite and the apps 2, 3, 1", async ({
  page,
  request,
}) => {
  await signInAsAdmin(page, request);
  await page.goto('/apps');
  await page.getByRole('region', { name: 'Mejorar Plan' }).getByRole('button', { name: 'Mejorar Plan' }).click();
  await expect(page).toHaveURL(/\/planes$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Planes Premium' })).toBeVisible();
  await expect(
    page.getByRole('region', { name: 'C+Suite Completa' }).getByText('39 USD al mes · 299 USD al año'),
  ).toBeVisible();
  await expect(page.getByTestId('plan-card').getByRole('heading', { level: 2 })).toHaveText([
    'Beto Pro',
    'TX30',
    'Control Max 360',
  ]);
});

test("without billing configured, 'Mi facturación' is not offered and /pagos says so", async ({ page, request }) => {
  await signInAsAdmin(page, request);
  await page.goto('/pagos');
  await expect(
    page.getByText('Los pagos en línea aún no están disponibles. Tus planes actuales siguen activos.'),
  ).toBeVisible();
  await expect(page.getByRole('main').getByRole('button', { name: 'Mi facturación' })).toHaveCount(0);
  await expect(page.getByRole('main').getByRole('button', { name: 'Ir al Panel Principal' })).toBeVisible();
  await page.getByRole('button', { name: 'Menú de usuario' }).click();
  const menu = page.getByRole('region', { name: 'Menú de usuario' });
  await expect(menu.getByRole('link', { name: 'Mi perfil' })).toBeVisible();
  await expect(menu.getByRole('button', { name: 'Mi facturación' })).toHaveCount(0);
});

test('a ?token= is not an OAuth return: signed out, a valid or a bad one goes to /login?error=token_invalid', async ({
  page,
  request,
}) => {
  const login = await request.post(`${API_URL}/auth/login`, {
    data: { email: E2E.adminEmail, password: E2E.adminPassword },
  });
  const token = ((await login.json()) as { access_token: string }).access_token;
  // Only the bound return of a sign-in this tab started is (docs/decisions/0001-session-from-bound-sign-in-return.md).
  for (const carried of [token, 'no-es-un-token']) {
    await page.goto(`/apps?token=${carried}`);
    await expect(page).toHaveURL(/\/login\?error=token_invalid$/);
    expect(await page.evaluate(() => window.localStorage.getItem('token'))).toBeNull();
  }
});

test('the OAuth return follows a stored, allowed redirect with a partner token', async ({ page, context, request }) => {
  const account = await providerAccount(request);
  // The partner site is on the default allow-list but not on this machine: answer it here.
  await context.route('https://portal.example.com/**', (route) =>
    route.fulfill({ contentType: 'text/html', body: '<title>Socio</title>' }),
  );
  await page.goto('/login');
  await portalReady(page);
  await page.evaluate(() => window.localStorage.setItem('redirect_url', 'https://portal.example.com/vuelta'));
  await page.getByRole('button', { name: 'Continuar con Google' }).click();
  await atProvider(page, account);
  await page.waitForURL(/portal\.example\.com/);
  const target = new URL(page.url());
  expect(target.origin + target.pathname).toBe('https://portal.example.com/vuelta');
  // A token minted for that partner, not the session that just arrived.
  const sent = target.searchParams.get('token') ?? '';
  expect(JSON.parse(Buffer.from(sent.split('.')[1]!, 'base64url').toString())).toMatchObject({
    aud: 'https://portal.example.com',
  });
});
