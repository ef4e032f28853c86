// Partner tokens and the redirect allow-list in Chromium (docs/decisions/0007-partner-tokens.md): the victim in the
// browser, the attacker with plain HTTP calls (fetch).
import { API_URL, HOST_URL, PARTNER_URL } from '../support/env';
import { signInAs, signInAsAdmin } from '../support/session';
import { expect, person, registerActive, test } from '../support/auth';

/** What an attacker holding a token can do with it: plain HTTP against the API, no browser. */
async function attackerCall(
  method: string,
  path: string,
  token: string,
  body?: unknown,
): Promise<{ status: number; json: unknown }> {
  const response = await fetch(`${API_URL}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, json: text ? (JSON.parse(text) as unknown) : null };
}

test('a signed-in person opening /login?redirect_url=https://x.devtunnels.ms/ stays in the portal and sends no token anywhere', async ({
  page,
  request,
}) => {
  const who = person('tunel');
  await registerActive(request, who);
  const session = await signInAs(page, request, who.email, who.password);
  const offPortal: string[] = [];
  const withToken: string[] = [];
  page.on('request', (req) => {
    const url = new URL(req.url());
    if (url.hostname !== 'localhost') offPortal.push(req.url());
    if (url.searchParams.has('token') || req.url().includes(session)) withToken.push(req.url());
  });
  // Anything that would reach a tunnel host is stopped here and recorded above, token or not.
  await page.route(
    (url) => url.hostname.endsWith('devtunnels.ms'),
    (route) => route.abort(),
  );

  await page.goto(`/login?redirect_url=${encodeURIComponent('https://x.devtunnels.ms/')}`);
  await expect(page).toHaveURL(`${HOST_URL}/apps`);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('¡Hola, ');
  expect(offPortal).toEqual([]);
  expect(withToken).toEqual([]);
  expect(await page.evaluate(() => window.localStorage.getItem('token'))).toBe(session);
});

test('the allowed partner receives a scoped token: it reads the person, but an admin call and a write answer 401/403', async ({
  page,
  request,
}) => {
  const session = await signInAsAdmin(page, request);
  await page.goto(`/login?redirect_url=${encodeURIComponent(`${PARTNER_URL}/entrar`)}`);
  await expect.poll(() => new URL(page.url()).origin).toBe(PARTNER_URL);
  const token = new URL(page.url()).searchParams.get('token') ?? '';
  await expect(page.locator('#token')).toHaveText(token);
  expect(token).not.toBe('');
  expect(token).not.toBe(session);

  // The partner (or whoever got the URL) reads the person...
  const me = await attackerCall('GET', '/auth/user', token);
  expect(me.status).toBe(200);
  expect((me.json as { role: number }).role).toBe(1);
  const header = JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString()) as { typ: string };
  const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as {
    aud: string;
    exp: number;
    iat: number;
  };
  expect(header.typ).toBe('partner+jwt');
  expect(claims.aud).toBe(PARTNER_URL);
  expect(claims.exp - claims.iat).toBeLessThanOrEqual(3600);

  // ...but this administrator's token administers nothing and writes nothing.
  const adminId = (me.json as { id: number }).id;
  expect([401, 403]).toContain((await attackerCall('GET', '/user/listar', token)).status);
  expect([401, 403]).toContain((await attackerCall('GET', '/admin/dashboard', token)).status);
  expect([401, 403]).toContain(
    (await attackerCall('POST', '/apps/register', token, { nombre: 'App del atacante' })).status,
  );
  expect([401, 403]).toContain(
    (await attackerCall('POST', '/auth/update-user', token, { idUsuario: adminId, name: 'Atacante' })).status,
  );
  const stillAdmin = await attackerCall('GET', '/auth/user', session);
  expect((stillAdmin.json as { name: string }).name).not.toBe('Atacante');
  const listed = await attackerCall('GET', '/apps/listar?limit=100', session);
  expect(JSON.stringify(listed.json)).not.toContain('App del atacante');
});

test('a partner token signs nobody in on the portal, and dies with the logout of the session it came from', async ({
  page,
  browser,
  request,
}) => {
  const who = person('socio-salida');
  await registerActive(request, who);
  await signInAs(page, request, who.email, who.password);
  await page.goto(`/login?redirect_url=${encodeURIComponent(`${PARTNER_URL}/entrar`)}`);
  await expect.poll(() => new URL(page.url()).origin).toBe(PARTNER_URL);
  const token = new URL(page.url()).searchParams.get('token') ?? '';
  expect((await attackerCall('GET', '/auth/user', token)).status).toBe(200);

  // Someone else's browser given the partner token as an OAuth return: nobody is signed in.
  const other = await browser.newContext();
  const stranger = await other.newPage();
  await stranger.goto(`${HOST_URL}/apps?token=${token}`);
  await expect(stranger).toHaveURL(/\/login\?error=token_invalid$/);
  expect(await stranger.evaluate(() => window.localStorage.getItem('token'))).toBeNull();
  await other.close();

  // The person signs out of the portal: the partner's token stops working at once.
  await page.goto('/logout');
  // Opened from an address, /logout asks first (a link alone signs nobody out).
  await page.getByRole('button', { name: 'Cerrar sesión' }).click();
  await expect(page).toHaveURL(/\/login/);
  await expect.poll(async () => (await attackerCall('GET', '/auth/user', token)).status).toBe(401);
});
