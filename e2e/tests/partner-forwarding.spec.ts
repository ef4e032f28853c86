// Partner forwarding in Chromium (docs/decisions/0029-where-a-sign-in-lands.md): a signed-in person reaches a partner
// from any page of the user area, a hostile target keeps them in the portal, the pending redirect is followed once, and
// a `?token=` on any page signs nobody in and leaves the address clean. The partner is a real HTTP server that shows
// the token it received.
import { API_URL, HOST_URL, PARTNER_URL } from '../support/env';
import { signInAs } from '../support/session';
import { expect, person, registerActive, test } from '../support/auth';

const partnerTarget = `${PARTNER_URL}/entrar`;

for (const path of ['/apps', '/perfil', '/planes']) {
  test(`a signed-in person opening ${path} with an allowed redirect_url reaches the partner with a partner token`, async ({
    page,
    request,
  }) => {
    const who = person(`reenvio${path.slice(1)}`);
    await registerActive(request, who);
    const session = await signInAs(page, request, who.email, who.password);
    await page.goto(`${path}?redirect_url=${encodeURIComponent(partnerTarget)}`);
    await expect.poll(() => new URL(page.url()).origin).toBe(PARTNER_URL);
    const token = new URL(page.url()).searchParams.get('token') ?? '';
    await expect(page.locator('#token')).toHaveText(token);
    expect(token).not.toBe('');
    expect(token).not.toBe(session); // a token minted for the partner, never the portal session
    const me = await request.get(`${API_URL}/auth/user`, { headers: { authorization: `Bearer ${token}` } });
    expect(((await me.json()) as { email: string }).email).toBe(who.email.toLowerCase());
  });
}

test('a hostile redirect_url on a user page keeps the person in the portal, on /apps, and sends nothing out', async ({
  page,
  request,
}) => {
  const who = person('reenvio-hostil');
  await registerActive(request, who);
  await signInAs(page, request, who.email, who.password);
  const outside: string[] = [];
  page.on('request', (req) => {
    if (new URL(req.url()).hostname !== 'localhost') outside.push(req.url());
  });
  for (const hostile of ['https://evil.example.com/robar', '//evil.example.com', 'javascript:alert(1)']) {
    await page.goto(`/perfil?redirect_url=${encodeURIComponent(hostile)}`);
    await expect(page).toHaveURL(`${HOST_URL}/apps`);
    await expect(page.getByRole('heading', { level: 1 })).toContainText('¡Hola, ');
  }
  expect(outside).toEqual([]);
});

test('a stored pending redirect is followed once, at the next start-up, and then forgotten', async ({
  page,
  request,
}) => {
  const who = person('reenvio-pendiente');
  await registerActive(request, who);
  await signInAs(page, request, who.email, who.password);
  await page.goto('/apps');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('¡Hola, ');
  await page.evaluate((url) => window.localStorage.setItem('redirect_url', url), partnerTarget);
  await page.goto('/apps');
  await expect.poll(() => new URL(page.url()).origin).toBe(PARTNER_URL);
  await page.goto(`${HOST_URL}/apps`);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('¡Hola, ');
  await expect(page).toHaveURL(`${HOST_URL}/apps`);
  expect(await page.evaluate(() => window.localStorage.getItem('redirect_url'))).toBeNull();
});

test('a ?token= on any page signs nobody in: it leaves the address unstored, and signed out means token_invalid', async ({
  browser,
  request,
}) => {
  const who = person('token-en-url');
  await registerActive(request, who);
  const login = await request.post(`${API_URL}/auth/login`, { data: { email: who.email, password: who.password } });
  const { access_token: token, user } = (await login.json()) as { access_token: string; user: { email: string } };
  expect(user.email).toBe(who.email.toLowerCase()); // the sign-in answers the user too

  // A link is no way in (login CSRF: docs/decisions/0001-session-from-bound-sign-in-return.md).
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${HOST_URL}/perfil?token=${token}&tab=seguridad`);
  await expect(page).toHaveURL(`${HOST_URL}/login?error=token_invalid`);
  await expect(page.getByText('Token de autenticación inválido. Por favor, inicia sesión nuevamente.')).toBeVisible();
  expect(await page.evaluate(() => window.localStorage.getItem('token'))).toBeNull();
  expect(await page.evaluate(() => window.location.href.includes('token='))).toBe(false);
  await context.close();
});
