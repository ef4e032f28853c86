// Login CSRF: a link must never put a browser into another person's account. The victim is in Chromium, the attacker
// only makes plain HTTP calls (fetch): a password sign-in of his own, and a Google sign-in of his own walked without a
// browser, stopped at the address the API sends back to the portal.
import { createHash, randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { API_URL, GOOGLE_ISSUER, HOST_URL } from '../support/env';
import { expect, person, registerActive, signInThroughForm, test, type Person } from '../support/auth';
import { providerAccount, type ProviderAccount } from '../support/identity';

const TOKEN_INVALID = 'Token de autenticación inválido. Por favor, inicia sesión nuevamente.';

/** The attacker's own session token, from a password sign-in over plain HTTP. */
async function attackersSessionToken(who: Person): Promise<string> {
  const response = await fetch(`${API_URL}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: who.email, password: who.password }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { access_token: string }).access_token;
}

/**
 * The attacker signs in with Google as himself, with fetch and a cookie jar per host, sending the binding of a secret
 * of his own as the portal's button would, and stops where the API sends the browser back to the portal: that
 * address is the link he hands to the victim.
 */
async function attackersGoogleReturn(account: ProviderAccount): Promise<URL> {
  const jar = new Map<string, Map<string, string>>();
  const cookiesOf = (url: URL) => {
    const cookies = jar.get(url.host) ?? new Map<string, string>();
    jar.set(url.host, cookies);
    return cookies;
  };
  const send = async (url: URL, form?: URLSearchParams) => {
    const cookie = [...cookiesOf(url)].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await fetch(url, {
      method: form ? 'POST' : 'GET',
      headers: {
        accept: 'text/html',
        ...(cookie && { cookie }),
        ...(form && { 'content-type': 'application/x-www-form-urlencoded' }),
      },
      body: form?.toString(),
      redirect: 'manual',
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const [name = '', ...value] = pair.trim().split('=');
      cookiesOf(url).set(name, value.join('='));
    }
    return response;
  };
  const binding = createHash('sha256').update(randomBytes(32).toString('base64url')).digest('base64url');
  let url = new URL(`${API_URL}/auth/google?binding=${binding}`);
  let form: URLSearchParams | undefined;
  for (let step = 0; step < 20; step += 1) {
    if (url.origin === HOST_URL) return url;
    const response = await send(url, form);
    form = undefined;
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location) {
      url = new URL(location, url);
      continue;
    }
    const page = await response.text();
    expect(response.status, page.slice(0, 300)).toBe(200);
    expect(url.origin, 'only the provider shows a page').toBe(GOOGLE_ISSUER);
    form = new URLSearchParams({ action: 'login', account: account.sub });
  }
  throw new Error('the sign-in did not come back to the portal');
}

const storedToken = (page: Page) => page.evaluate(() => window.localStorage.getItem('token'));

async function whoIsSignedIn(page: Page): Promise<string> {
  const token = await storedToken(page);
  const response = await fetch(`${API_URL}/auth/user`, { headers: { authorization: `Bearer ${token}` } });
  expect(response.status).toBe(200);
  return ((await response.json()) as { email: string }).email;
}

test('a signed-in person who opens links carrying another account (a ?token=, a Google return) stays in their own', async ({
  page,
  request,
}) => {
  const victim = person('victima');
  const attacker = person('atacante');
  await registerActive(request, victim);
  await registerActive(request, attacker);
  const attackerAtGoogle = await providerAccount(request, { email: attacker.email });

  await page.goto('/login');
  await signInThroughForm(page, victim.email, victim.password);
  await expect(page).toHaveURL(/\/apps$/);
  const victimsToken = await storedToken(page);
  expect(await whoIsSignedIn(page)).toBe(victim.email);

  // 1. A link to the profile carrying the attacker's session token.
  await page.goto(`/perfil?token=${await attackersSessionToken(attacker)}`);
  await expect(page.getByRole('heading', { name: 'Mi perfil' })).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Email' })).toHaveValue(victim.email);
  expect(new URL(page.url()).searchParams.get('token')).toBeNull();
  expect(await storedToken(page)).toBe(victimsToken);
  expect(await whoIsSignedIn(page)).toBe(victim.email);

  // 2. The address the API sent the attacker's own Google sign-in back to.
  const googleReturn = await attackersGoogleReturn(attackerAtGoogle);
  await page.goto(googleReturn.href);
  await expect(page).toHaveURL(/\/apps$/);
  await expect(page.getByRole('heading', { name: `¡Hola, ${victim.name} ${victim.lastName}!` })).toBeVisible();
  expect(await storedToken(page)).toBe(victimsToken);
  expect(await whoIsSignedIn(page)).toBe(victim.email);
});

test("a signed-out browser that opens someone else's Google return is not signed in: token_invalid on /login", async ({
  page,
  request,
}) => {
  const attacker = person('atacante-anonimo');
  await registerActive(request, attacker);
  const googleReturn = await attackersGoogleReturn(await providerAccount(request, { email: attacker.email }));
  await page.goto(googleReturn.href);
  await expect(page).toHaveURL(/\/login\?error=token_invalid$/);
  await expect(page.getByText(TOKEN_INVALID)).toBeVisible();
  expect(await storedToken(page)).toBeNull();
});

test('a signed-out browser that opens a ?token= link is not signed in: token_invalid on /login', async ({
  page,
  request,
}) => {
  const attacker = person('atacante-enlace');
  await registerActive(request, attacker);
  await page.goto(`/perfil?token=${await attackersSessionToken(attacker)}`);
  await expect(page).toHaveURL(/\/login\?error=token_invalid$/);
  await expect(page.getByText(TOKEN_INVALID)).toBeVisible();
  expect(await storedToken(page)).toBeNull();
});
