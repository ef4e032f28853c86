// Sign-in with Google and Apple in Chromium against the test identity providers (real OpenID Connect processes):
// the redirects, the return, the refusals. Up to a minute on a busy two-core machine: ten round trips through them.
import type { APIRequestContext, Page } from '@playwright/test';
import { API_URL, APPLE_ISSUER, GOOGLE_ISSUER, HOST_URL, PARTNER_URL } from '../support/env';
import { expect, expectSignedInAs, person, portalReady, registerActive, test } from '../support/auth';
import { atProvider, providerAccount } from '../support/identity';
import { startAsAPerson } from '../support/own-start';
import { SCREENS } from '../support/screens';

const AUTH_FAILED = 'Error en la autenticación con Google. Por favor, inténtalo de nuevo.';
const TOKEN_INVALID = 'Token de autenticación inválido. Por favor, inicia sesión nuevamente.';
/** Where the tab keeps the secret whose hash the sign-in's start carried (@portal/shared, sign-in-landing). */
const SIGN_IN_SECRET_KEY = 'portal-sign-in-secret';

async function currentUserId(page: Page, request: APIRequestContext): Promise<number> {
  await expect.poll(() => page.evaluate(() => window.localStorage.getItem('token'))).not.toBeNull();
  const token = await page.evaluate(() => window.localStorage.getItem('token'));
  const response = await request.get(`${API_URL}/auth/user`, { headers: { Authorization: `Bearer ${token}` } });
  expect(response.status()).toBe(200);
  return ((await response.json()) as { id: number }).id;
}

test('a new person signs in with Google, lands on /apps with the free plans, and comes back to the same account', async ({
  page,
  request,
}) => {
  const account = await providerAccount(request);
  await page.goto('/login');
  await page.getByRole('button', { name: 'Continuar con Google' }).click();
  await expect(page).toHaveURL(new RegExp(`^${GOOGLE_ISSUER}/interaction/`));
  await atProvider(page, account);
  await expect(page.getByRole('heading', { name: '¡Hola, Rosa Mamani!' })).toBeVisible();
  await expect(page.getByText('Plan gratuito')).toBeVisible();
  expect(new URL(page.url()).pathname).toBe('/apps');
  expect(new URL(page.url()).searchParams.get('token')).toBeNull();
  await expectSignedInAs(page, request, account.email);
  const first = await currentUserId(page, request);

  // (The first-visit presentation covers the page; /logout is the same sign-out the menu does.)
  await page.goto('/logout');
  // Opened from an address, /logout asks first (a link alone signs nobody out).
  await page.getByRole('button', { name: 'Cerrar sesión' }).click();
  await expect(page).toHaveURL(/\/login$/);
  // The provider still knows the browser, as Google would: straight back, no form this time.
  await page.getByRole('button', { name: 'Continuar con Google' }).click();
  await expect(page.getByRole('heading', { name: '¡Hola, Rosa Mamani!' })).toBeVisible();
  expect(await currentUserId(page, request)).toBe(first);
});

test('an existing password account is linked by its verified email', async ({ page, request }) => {
  const who = person('vinculo');
  await registerActive(request, who);
  const account = await providerAccount(request, { email: who.email });
  await page.goto('/login');
  await page.getByRole('button', { name: 'Continuar con Google' }).click();
  await atProvider(page, account);
  // The account's own name, not the provider's.
  await expect(page.getByRole('heading', { name: `¡Hola, ${who.name} ${who.lastName}!` })).toBeVisible();
  await expectSignedInAs(page, request, who.email);
});

test('an email the provider has not verified is refused with the sign-in error', async ({ page, request }) => {
  const account = await providerAccount(request, { emailVerified: false });
  await page.goto('/login');
  await page.getByRole('button', { name: 'Continuar con Google' }).click();
  await atProvider(page, account);
  await expect(page).toHaveURL(/\/login\?error=auth_failed/);
  await expect(page.getByText(AUTH_FAILED)).toBeVisible();
  expect(await page.evaluate(() => window.localStorage.getItem('token'))).toBeNull();
});

test("a cancelled consent shows 'Autenticación cancelada o fallida', then goes back to /login", async ({ page }) => {
  // The page's clock, moved on by the test: its few seconds before /login are not waited for.
  await page.clock.install();
  await page.goto('/login');
  await page.getByRole('button', { name: 'Continuar con Google' }).click();
  await atProvider(page, 'cancelar');
  await expect(page.getByRole('heading', { name: 'Error de Autenticación' })).toBeVisible();
  await expect(page.getByText('Autenticación cancelada o fallida')).toBeVisible();
  await expect(page.getByText('Redirigiendo al login en unos segundos...')).toBeVisible();
  await page.clock.fastForward(3_000);
  await expect(page).toHaveURL(/\/login$/);
});

test('a tampered state is refused', async ({ page, request }) => {
  const account = await providerAccount(request);
  // The state the provider is handed (and will hand back) is not the one the browser's sign-in cookie holds.
  // (The start's address carries the tab's binding as well: match the path, whatever the query.)
  await page.route(
    (url) => url.href.startsWith(`${API_URL}/auth/google?`),
    async (route) => {
      const response = await route.fetch({ maxRedirects: 0 });
      const location = new URL(response.headers().location ?? '');
      location.searchParams.set('state', `${location.searchParams.get('state')}manipulado`);
      await route.fulfill({ response, headers: { ...response.headers(), location: location.href } });
    },
  );
  await page.goto('/login');
  await page.getByRole('button', { name: 'Continuar con Google' }).click();
  await atProvider(page, account);
  await expect(page.getByText(AUTH_FAILED)).toBeVisible();
  expect(await page.evaluate(() => window.localStorage.getItem('token'))).toBeNull();
});

test('a new person signs in with Apple (form_post) and gets the name Apple sends the first time', async ({
  page,
  request,
}) => {
  const account = await providerAccount(request, { givenName: 'Iván', familyName: 'Condori' });
  await page.goto('/login');
  await page.getByRole('button', { name: 'Continuar con Apple' }).click();
  await expect(page).toHaveURL(new RegExp(`^${APPLE_ISSUER}/interaction/`));
  await atProvider(page, account);
  await expect(page.getByRole('heading', { name: '¡Hola, Iván Condori!' })).toBeVisible();
  await expectSignedInAs(page, request, account.email);
});

test('an allowed partner target receives a working token after signing in with Google', async ({ page, request }) => {
  const account = await providerAccount(request);
  await page.goto(`/login?redirect_url=${encodeURIComponent(`${PARTNER_URL}/entrar`)}`);
  await portalReady(page);
  await page.getByRole('button', { name: 'Continuar con Google' }).click();
  await atProvider(page, account);
  await expect.poll(() => new URL(page.url()).origin).toBe(PARTNER_URL);
  const token = new URL(page.url()).searchParams.get('token');
  await expect(page.locator('#token')).toHaveText(token ?? 'missing');
  const me = await request.get(`${API_URL}/auth/user`, { headers: { Authorization: `Bearer ${token}` } });
  expect(((await me.json()) as { email: string }).email).toBe(account.email);
});

test('a hostile target gets nothing: the person lands on /apps', async ({ page, request }) => {
  const account = await providerAccount(request);
  const requested: string[] = [];
  page.on('request', (req) => requested.push(req.url()));
  await page.goto(`/login?redirect_url=${encodeURIComponent('https://evil.example.net/robar')}`);
  await portalReady(page);
  await page.getByRole('button', { name: 'Continuar con Google' }).click();
  await atProvider(page, account);
  await expect(page.getByRole('heading', { name: '¡Hola, Rosa Mamani!' })).toBeVisible();
  expect(new URL(page.url()).pathname).toBe('/apps');
  expect(requested.filter((url) => new URL(url).hostname === 'evil.example.net')).toEqual([]);
});

test("Google's return passes through the portal's callback page, which redeems its code once; that address later signs nobody in", async ({
  page,
  request,
}) => {
  const account = await providerAccount(request);
  // The pages the browser loads at the portal's callback address (the API's redirect from Google's return).
  const callbacks: string[] = [];
  page.on('request', (sent) => {
    if (sent.resourceType() === 'document' && sent.url().startsWith(`${HOST_URL}/auth/google/callback?`))
      callbacks.push(sent.url());
  });
  const exchanges: { status: number; body: { code: string; secret: string } }[] = [];
  page.on('response', (response) => {
    const sent = response.request();
    if (sent.method() === 'POST' && sent.url() === `${API_URL}/auth/social/canjear`)
      exchanges.push({ status: response.status(), body: sent.postDataJSON() as { code: string; secret: string } });
  });

  await page.goto('/login');
  await page.getByRole('button', { name: 'Continuar con Google' }).click();
  await atProvider(page, account);
  await expect(page.getByRole('heading', { name: '¡Hola, Rosa Mamani!' })).toBeVisible();
  expect(new URL(page.url()).pathname).toBe('/apps');
  await expectSignedInAs(page, request, account.email);
  // The API sent the browser to the portal's page with a one-time code, and the page redeemed it, once.
  expect(callbacks).toHaveLength(1);
  const code = new URL(callbacks[0] as string).searchParams.get('code');
  expect(code).toBeTruthy();
  expect(exchanges).toEqual([{ status: 200, body: { code, secret: expect.any(String) } }]);
  const session = await page.evaluate(() => window.localStorage.getItem('token'));

  // Reopened while signed in: the session stays as it is, nothing is redeemed.
  await page.goto(callbacks[0] as string);
  await expect(page).toHaveURL(`${HOST_URL}/apps`);
  expect(await page.evaluate(() => window.localStorage.getItem('token'))).toBe(session);
  expect(exchanges).toHaveLength(1);

  // Signed out, even with this tab's secret put back: the used code is refused and nobody is signed in.
  await page.goto('/logout');
  await page.getByRole('button', { name: 'Cerrar sesión' }).click();
  await expect(page).toHaveURL(/\/login$/);
  const secret = exchanges[0]?.body.secret as string;
  await page.evaluate(
    ([key, value]) => window.sessionStorage.setItem(key as string, value as string),
    [SIGN_IN_SECRET_KEY, secret],
  );
  await page.goto(callbacks[0] as string);
  await expect(page).toHaveURL(/\/login\?error=token_invalid$/);
  await expect(page.getByText(TOKEN_INVALID)).toBeVisible();
  expect(await page.evaluate(() => window.localStorage.getItem('token'))).toBeNull();
  expect(exchanges.map((exchange) => exchange.status)).toEqual([200, 400]);
  // The API agrees without a browser: that code and secret are spent.
  const again = await request.post(`${API_URL}/auth/social/canjear`, { data: { code, secret } });
  expect(again.status()).toBe(400);
  expect(((await again.json()) as { code: string }).code).toBe('SIGN_IN_RETURN_INVALID');
});

test('where npm start has no Google or Apple configured, their buttons say so and the person stays on /login (phone and desktop)', async ({
  browser,
}, testInfo) => {
  test.setTimeout(150_000);
  const { printed, stop } = await startAsAPerson('sin-proveedores');
  try {
    for (const viewport of SCREENS) {
      const context = await browser.newContext({ viewport });
      const page = await context.newPage();
      await page.goto(`${printed}/login`);
      await portalReady(page);
      for (const provider of ['Google', 'Apple']) {
        const button = page.getByRole('button', { name: `Continuar con ${provider}` });
        await expect(button).toBeEnabled();
        await button.click();
        await expect(page.getByRole('status')).toHaveText(
          `El acceso con ${provider} no está disponible en este portal.`,
        );
        await expect(page).toHaveURL(`${printed}/login`);
        await expect(page.getByText(/inténtalo de nuevo/i)).toHaveCount(0);
        await expect(button).toBeFocused();
      }
      await page.screenshot({ path: testInfo.outputPath(`sin-proveedores-${viewport.width}.png`), fullPage: true });
      await context.close();
    }
  } finally {
    await stop();
  }
});
