// /login and /register are rendered to HTML at build time from the shell's own tree and hydrated (host/prerender,
// scripts/lib/prerender.mjs, host/src/bootstrap.tsx): the form paints before any script, and the form the person sees
// first is the one React takes over.
import type { APIRequestContext, Page, Route } from '@playwright/test';
import { expect, person, registerActive, signInThroughForm, test } from '../support/auth';
import { HOST_URL, PARTNER_URL } from '../support/env';
import { signInAs } from '../support/session';

const PAGES = [
  {
    path: '/login',
    title: 'Iniciar sesión · Portal',
    heading: 'Iniciar Sesión',
    labels: ['Email', 'Contraseña'],
    button: 'Iniciar Sesión',
  },
  {
    path: '/register',
    title: 'Crear cuenta · Portal',
    heading: 'Crear cuenta',
    labels: ['Email', 'Nombre', 'Apellido'],
    button: 'Siguiente',
  },
];

async function expectForm(page: Page, screen: (typeof PAGES)[number]) {
  await expect(page).toHaveTitle(screen.title);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(screen.heading);
  for (const label of screen.labels) await expect(page.getByLabel(label, { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: screen.button, exact: true })).toBeVisible();
}

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  for (const screen of PAGES) {
    test(`${screen.path} shows its form, styled, from the HTML alone`, async ({ page }) => {
      await page.goto(screen.path);
      await expectForm(page, screen);
      // The styled-components rules came with the page: the card has its surface, not the browser's defaults.
      const heading = page.getByRole('heading', { level: 1 });
      expect(await heading.evaluate((node) => getComputedStyle(node).fontFamily)).not.toMatch(/^Times/);
      expect(await page.locator('style[data-styled]').count()).toBeGreaterThan(0);
    });
  }

  test('a form sent before the scripts ran puts nothing typed in the address', async ({ page }) => {
    // /login's button is disabled until the scripts run; /register's first step can be sent (Enter in a field).
    await page.goto('/register?redirect_url=%2Fapps');
    await page.getByLabel('Email', { exact: true }).fill('ana.prerender@example.com');
    const back = page.waitForResponse((response) => response.request().method() === 'POST');
    await page.getByLabel('Email', { exact: true }).press('Enter');
    expect((await back).status()).toBe(303);
    // Back on the same page, the address as it was: nothing typed in it, nor in the history.
    await expect(page).toHaveURL(/\/register\?redirect_url=%2Fapps$/);
    await expectForm(page, PAGES[1]!);
    expect(page.url()).not.toContain('prerender');
  });
});

/**
 * Holds the page's scripts until `release`: what the person sees before any JavaScript ran. `entry`: the runtime
 * config, the page's starter and the shell's entry still run, the rest (React, the shell, the remote's page) is held:
 * a page painted and waiting for its start-up, as on a slow phone.
 */
async function holdScripts(page: Page, { entry = false } = {}) {
  const held: Route[] = [];
  let released = false;
  const isEntry = (url: URL) =>
    /^\/(runtime-config|start|main\.[0-9a-f]+)\.js$/.test(url.pathname) && url.origin === HOST_URL;
  await page.route(
    (url) => url.pathname.endsWith('.js') && !(entry && isEntry(url)),
    (route) => {
      if (released) return route.continue();
      held.push(route);
    },
  );
  return {
    release: async () => {
      released = true;
      await Promise.all(held.map((route) => route.continue()));
    },
  };
}

/** Whether React owns the marked field: hydration attaches its fiber to the DOM nodes it takes over. */
async function expectHydrated(page: Page) {
  const marked = page.locator('[data-prerendered-node="yes"]');
  await expect(marked).toHaveCount(1);
  await expect
    .poll(() => marked.evaluate((node) => Object.keys(node).some((key) => key.startsWith('__reactFiber'))))
    .toBe(true);
}

/** Console errors and page errors of the page (a hydration mismatch is logged as 'Error de hidratación'). */
function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

for (const screen of PAGES) {
  test(`${screen.path} paints before its scripts and React takes the same form over`, async ({ page }) => {
    const errors = collectErrors(page);
    const scripts = await holdScripts(page);
    await page.goto(screen.path, { waitUntil: 'commit' });
    await expectForm(page, screen);
    // Marks the prerendered field: after hydration the very same node must be there, not a new one.
    const email = page.getByLabel('Email', { exact: true });
    await email.evaluate((node) => node.setAttribute('data-prerendered-node', 'yes'));
    await scripts.release();
    await expectHydrated(page);
    await expectForm(page, screen);
    if (screen.path === '/register') {
      // The long country list is left out of the HTML and comes with the first render.
      await expect(page.locator('optgroup[label="Todos los países"] option[value="DE"]')).toHaveCount(1);
    }
    expect(errors).toEqual([]);
  });
}

for (const screen of PAGES) {
  test(`${screen.path} asks for no script before it is painted but its own two, and for each file once`, async ({
    page,
  }) => {
    const asked: string[] = [];
    page.on('request', (sent) => {
      if (/\.(js|json)$/.test(new URL(sent.url()).pathname)) asked.push(sent.url());
    });
    await page.goto(screen.path);
    await expect(page.locator('#root[data-prerendered]')).toHaveCount(0);
    const { paint, files } = await page.evaluate(() => ({
      paint: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN,
      files: performance.getEntriesByType('resource').map((entry) => ({ url: entry.name, at: entry.startTime })),
    }));
    expect(paint).toBeGreaterThan(0);
    // The shell, React and the remote's manifest and page are asked for once the form is on screen (the starter).
    const early = files.filter((file) => file.at < paint && /\.(js|json)$/.test(new URL(file.url).pathname));
    expect(early.map((file) => new URL(file.url).pathname).sort()).toEqual(['/runtime-config.js', '/start.js']);
    expect(files.some((file) => file.at > paint && /\/main\.[0-9a-f]+\.js$/.test(file.url))).toBe(true);
    // What the starter preloads is what the page then runs: nothing is fetched twice.
    expect(asked.length).toBeGreaterThan(4);
    expect(new Set(asked).size).toBe(asked.length);
  });
}

test('a sign-in typed before the scripts ran is kept and works after hydration', async ({ page, request }) => {
  const who = person('prerender');
  await registerActive(request, who);
  const errors = collectErrors(page);
  const scripts = await holdScripts(page);
  await page.goto('/login', { waitUntil: 'commit' });
  const email = page.getByLabel('Email', { exact: true });
  await email.fill(who.email);
  await email.evaluate((node) => node.setAttribute('data-prerendered-node', 'yes'));
  await scripts.release();
  await expectHydrated(page);
  await expect(page.locator('[data-prerendered-node="yes"]')).toHaveValue(who.email);
  // A wrong password: the page's own message, so the form is React's and it kept the address typed before.
  await page.getByLabel('Contraseña', { exact: true }).fill('No-es-la-clave-1');
  await page.getByRole('button', { name: 'Iniciar Sesión', exact: true }).click();
  await expect(page.getByRole('alert')).toHaveText('Credenciales inválidas');
  await signInThroughForm(page, who.email, who.password);
  await expect(page).toHaveURL(/\/apps$/);
  // The refused password is logged (the API's 401), nothing else: no hydration error.
  expect(errors.filter((error) => !/401|Credenciales inválidas/.test(error))).toEqual([]);
});

test('what was typed before the scripts ran at /login?redirect_url= is kept when the page is rendered anew', async ({
  page,
  request,
}) => {
  const who = person('prerender-query');
  await registerActive(request, who);
  const errors = collectErrors(page);
  const scripts = await holdScripts(page);
  await page.goto(`/login?redirect_url=${encodeURIComponent(`${PARTNER_URL}/entrar`)}`, { waitUntil: 'commit' });
  const email = page.getByLabel('Email', { exact: true });
  await email.fill(who.email);
  await email.evaluate((node) => node.setAttribute('data-prerendered-node', 'yes'));
  await page.getByLabel('Contraseña', { exact: true }).fill(who.password);
  await scripts.release();
  // The address has a query, so React renders the page anew (its links carry the redirect) in place of the
  // prerendered one: the marked field goes, and the new fields hold what was typed, the focus where it was.
  await expect(page.locator('[data-prerendered-node="yes"]')).toHaveCount(0);
  await expect(email).toHaveValue(who.email);
  await expect(page.getByLabel('Contraseña', { exact: true })).toHaveValue(who.password);
  await expect(page.getByLabel('Contraseña', { exact: true })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect.poll(() => new URL(page.url()).origin).toBe(PARTNER_URL);
  expect(new URL(page.url()).searchParams.get('token')).toBeTruthy();
  expect(errors).toEqual([]);
});

test('/register keeps the focus in the field the person is typing in when the scripts take the form over', async ({
  page,
}) => {
  const errors = collectErrors(page);
  const scripts = await holdScripts(page);
  await page.goto('/register', { waitUntil: 'commit' });
  const name = page.getByLabel('Nombre', { exact: true });
  await name.fill('Ana');
  await name.evaluate((node) => node.setAttribute('data-prerendered-node', 'yes'));
  await scripts.release();
  await expectHydrated(page);
  await expect(page.locator('#root[data-prerendered]')).toHaveCount(0);
  // Not moved to 'Email' (the page's first field, where it opens when nobody is typing yet): the next keys go on.
  await expect(name).toBeFocused();
  await page.keyboard.type(' María');
  await expect(name).toHaveValue('Ana María');
  expect(errors).toEqual([]);
});

test('/register?redirect_url= gives the new form the focus the person had in the prerendered one', async ({ page }) => {
  const errors = collectErrors(page);
  const scripts = await holdScripts(page);
  await page.goto(`/register?redirect_url=${encodeURIComponent(`${PARTNER_URL}/bienvenida`)}`, { waitUntil: 'commit' });
  const name = page.getByLabel('Nombre', { exact: true });
  await name.fill('Ana');
  await name.evaluate((node) => node.setAttribute('data-prerendered-node', 'yes'));
  await scripts.release();
  // Rendered anew (the links carry the target): the prerendered field is gone, its text and the focus are carried,
  // before the page's own effect would put the focus on 'Email' (host/src/federation/RemotePage.tsx, `Shown` first).
  await expect(page.locator('[data-prerendered-node="yes"]')).toHaveCount(0);
  await expect(page.locator('#root[data-prerendered]')).toHaveCount(0);
  await expect(name).toBeFocused();
  await page.keyboard.type(' María');
  await expect(name).toHaveValue('Ana María');
  await expect(page.getByRole('link', { name: 'Iniciar Sesión' })).toHaveAttribute('href', /redirect_url=/);
  expect(errors).toEqual([]);
});

test('a signed-in person opening /login still lands on their page', async ({ page, request }) => {
  const who = person('prerender-signed-in');
  await registerActive(request, who);
  await signInAs(page, request, who.email, who.password);
  const errors = collectErrors(page);
  await page.goto('/login');
  await expect(page).toHaveURL(/\/apps$/);
  await expect(page.getByRole('heading', { name: 'Iniciar Sesión' })).toHaveCount(0);
  expect(errors).toEqual([]);
});

// The shell's frame (docs/decisions/0027-session-hint-cookie.md): a browser that keeps a session carries a cookie that
// says only that (@portal/shared token-storage.ts), and the static server answers its user pages with the top bar and
// 'Cargando...' rendered at build time, which React takes over; its sign-in pages with the plain shell.

const HINT = 'portal_sesion';

async function hintCookie(page: Page) {
  return (await page.context().cookies()).find((cookie) => cookie.name === HINT) ?? null;
}

/** A person with a kept session whose browser has been to the portal once (the start-up sets the hint). */
async function keptSession(page: Page, request: APIRequestContext, label: string) {
  const who = person(label);
  await registerActive(request, who);
  const token = await signInAs(page, request, who.email, who.password);
  await page.goto('/apps');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect.poll(() => hintCookie(page).then((cookie) => cookie?.value)).toBe('1');
  return token;
}

test("a kept session's page paints the top bar before its scripts, and React takes the same frame over", async ({
  page,
  request,
}) => {
  const token = await keptSession(page, request, 'prerender-frame');
  const cookie = await hintCookie(page);
  // It says only that a session is kept: nothing of the token, and it lasts no longer than the token.
  expect(cookie?.value).toBe('1');
  const exp = (JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as { exp: number }).exp;
  expect(cookie?.expires).toBeGreaterThan(Date.now() / 1000);
  expect(cookie?.expires).toBeLessThanOrEqual(exp + 1);
  expect(cookie?.sameSite).toBe('Lax');

  const errors = collectErrors(page);
  const scripts = await holdScripts(page);
  await page.goto('/planes', { waitUntil: 'commit' });
  const nav = page.getByRole('navigation', { name: 'Navegación principal' });
  await expect(nav.getByRole('link', { name: 'Planes' })).toHaveAttribute('aria-current', 'page');
  await expect(page.getByRole('button', { name: 'Menú de usuario' })).toBeVisible();
  await expect(page.getByRole('status')).toHaveText('Cargando...');
  await expect(page).toHaveTitle('Planes · Portal');
  await page.locator('header').evaluate((node) => node.setAttribute('data-prerendered-node', 'yes'));
  await scripts.release();
  // The very same top bar is React's now, and the page comes under it.
  await expectHydrated(page);
  await expect(page.getByRole('heading', { name: 'Planes Premium' })).toBeVisible();
  await expect(page.locator('#root[data-prerendered]')).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('a kept session opening /login gets no sign-in form before its scripts, and lands on its page', async ({
  page,
  request,
}) => {
  await keptSession(page, request, 'prerender-frame-login');
  const errors = collectErrors(page);
  const scripts = await holdScripts(page);
  await page.goto('/login', { waitUntil: 'commit' });
  // The plain shell (index.html), not login.html.
  await expect(page).toHaveTitle('Portal de Aplicaciones');
  await expect(page.getByRole('heading', { name: 'Iniciar Sesión' })).toHaveCount(0);
  await scripts.release();
  await expect(page).toHaveURL(/\/apps$/);
  await expect(page.getByRole('heading', { name: 'Iniciar Sesión' })).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('a hint without a session (storage cleared) shows the frame, then the sign-in form, and is dropped', async ({
  page,
}) => {
  await page.context().addCookies([{ name: HINT, value: '1', url: HOST_URL }]);
  const errors = collectErrors(page);
  await page.goto('/perfil');
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('heading', { name: 'Iniciar Sesión' })).toBeVisible();
  await expect.poll(() => hintCookie(page)).toBeNull();
  expect(errors).toEqual([]);
});

// What a person does on a painted page whose scripts are still on their way (they come after the first paint:
// docs/decisions/0060-paint-before-scripts.md) is done once they have run: nothing is lost, nothing is sent twice.

/** The passkey ceremonies the page starts (its requests for the API's options). */
function passkeyCeremonies(page: Page): { count: number } {
  const seen = { count: 0 };
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().includes('/auth/passkeys/opciones-inicio')) seen.count++;
  });
  return seen;
}

/** As browsers without passkey autofill: the page then asks for a ceremony only when its button is pressed. */
async function withoutAutofill(page: Page) {
  await page.addInitScript(() => {
    PublicKeyCredential.isConditionalMediationAvailable = async () => false;
  });
}

test('the passkey button pressed while the page waits for its scripts starts the ceremony once, when they run', async ({
  page,
}) => {
  await withoutAutofill(page);
  const errors = collectErrors(page);
  const ceremonies = passkeyCeremonies(page);
  const scripts = await holdScripts(page, { entry: true });
  await page.goto('/login', { waitUntil: 'commit' });
  await page.getByRole('button', { name: 'Iniciar sesión con llave de acceso' }).click();
  expect(ceremonies.count).toBe(0);
  await scripts.release();
  await expect.poll(() => ceremonies.count).toBe(1);
  await expect(page.locator('#root[data-prerendered]')).toHaveCount(0);
  // Still one: the press is not replayed a second time.
  await expect(page.getByRole('button', { name: 'Iniciar sesión con llave de acceso' })).toBeVisible();
  expect(ceremonies.count).toBe(1);
  expect(errors.filter((error) => !/NotAllowedError|llave de acceso/i.test(error))).toEqual([]);
});

test("a password manager's fill and Enter before the scripts ran signs in when they run, without a reload", async ({
  page,
  request,
}) => {
  const who = person('prerender-enter');
  await registerActive(request, who);
  const errors = collectErrors(page);
  const posted: string[] = [];
  page.on('request', (sent) => {
    if (sent.isNavigationRequest() && sent.method() === 'POST') posted.push(sent.url());
  });
  const scripts = await holdScripts(page, { entry: true });
  await page.goto('/login', { waitUntil: 'commit' });
  await page.getByLabel('Email', { exact: true }).fill(who.email);
  await page.getByLabel('Contraseña', { exact: true }).fill(who.password);
  await page.getByLabel('Contraseña', { exact: true }).press('Enter');
  await scripts.release();
  // The whole shell, the sign-in remote and an argon2 check come after the release: on a busy machine that is more than
  // the default 10 s; what is asserted is that it arrives, not how fast.
  await expect(page).toHaveURL(/\/apps$/, { timeout: 30_000 });
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  // The form was sent by the page's own sign-in, not by the browser (whose answer only asks to try again).
  expect(posted).toEqual([]);
  expect(errors).toEqual([]);
});

test('/login opened with a hint and no session: the passkey button pressed as it appears starts the ceremony', async ({
  page,
}) => {
  await withoutAutofill(page);
  await page.context().addCookies([{ name: HINT, value: '1', url: HOST_URL }]);
  const ceremonies = passkeyCeremonies(page);
  await page.goto('/login', { waitUntil: 'commit' });
  await page.getByRole('button', { name: 'Iniciar sesión con llave de acceso' }).click({ timeout: 10_000 });
  await expect.poll(() => ceremonies.count).toBe(1);
  await expect(page).toHaveURL(/\/login$/);
});
