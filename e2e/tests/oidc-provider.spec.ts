// The portal as an OpenID Connect provider in Chromium (docs/decisions/0055 and 0056), with relying parties whose
// protocol this project did not write (e2e/support/relying-parties/): a single-page app on oidc-client-ts, a
// confidential server app on @badgateway/oauth2-client with a back-channel logout endpoint, and a third-party app
// built the same way. Each test looks at what the person sees and what the apps know.
import { mkdirSync } from 'node:fs';
import type { APIRequestContext, Page } from '@playwright/test';
import { API_URL, HOST_URL } from '../support/env';
import { person, type Person, registerActive, seriousViolations, signInThroughForm } from '../support/auth';
import { signInAsAdmin } from '../support/session';
import { adminToken, expect, SERVER_APP_LAUNCH_URI, SPA_NAME, test, THIRD_PARTY_NAME } from '../support/oidc';
import { serverAppUris } from '../support/relying-parties/server-app';
import type { ServerApp } from '../support/relying-parties/server-app';

const SHOTS = '/tmp/oidc-e2e-shots';

/** The portal's pages the browser loads from now on (main frame only, redirects included), by path. */
function portalPagesOf(page: Page): string[] {
  const seen: string[] = [];
  page.on('request', (request) => {
    if (request.isNavigationRequest() && request.frame() === page.mainFrame() && request.url().startsWith(HOST_URL))
      seen.push(new URL(request.url()).pathname);
  });
  return seen;
}

async function activePerson(request: APIRequestContext, label: string): Promise<Person> {
  const who = person(label);
  await registerActive(request, who);
  return who;
}

/** Signs in on the portal's /login form, as the person does before opening an app. */
async function signInOnPortal(page: Page, who: Person): Promise<void> {
  await page.goto('/login');
  await signInThroughForm(page, who.email, who.password);
  await expect(page).toHaveURL(/\/apps$/);
}

async function signInToSpa(page: Page, spaUrl: string, who: Person): Promise<void> {
  await page.goto(spaUrl);
  await page.getByRole('button', { name: 'Entrar con el portal' }).click();
  await expect(page.getByText(`Sesión: ${who.email}`)).toBeVisible();
  await expect(page).toHaveURL(`${spaUrl}/`);
}

async function signInToApp(page: Page, app: ServerApp, who: Person, link = 'Entrar con el portal'): Promise<void> {
  await page.goto(app.url);
  await page.getByRole('link', { name: link }).click();
  await expect(page.getByText(`Sesión en la app: ${who.email}`)).toBeVisible();
}

/** The server app's page, reloaded as the person would, until it says its session is over. */
async function expectAppSignedOut(page: Page, app: ServerApp): Promise<void> {
  await page.goto(app.url);
  await expect(async () => {
    await page.reload();
    await expect(page.getByText('Sin sesión en la app')).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
}

async function portalToken(page: Page): Promise<string> {
  await page.goto(`${HOST_URL}/perfil`);
  await expect(page.getByRole('button', { name: 'Menú de usuario' })).toBeVisible();
  return (await page.evaluate(() => window.localStorage.getItem('token'))) ?? '';
}

test('one sign-in: signed in on the portal, the single-page app signs in with no form and the server app with no portal page at all', async ({
  page,
  request,
  relyingParties: { spa, serverApp },
}) => {
  const who = await activePerson(request, 'oidc-una');
  await signInOnPortal(page, who);
  const portalPages = portalPagesOf(page);
  const authorizationRequest = page.waitForRequest((sent) => sent.url().startsWith(`${API_URL}/oidc/auth?`));

  await page.goto(spa.url);
  await expect(page.getByText('Sin sesión')).toBeVisible();
  await page.getByRole('button', { name: 'Entrar con el portal' }).click();
  // The library's own request: the code flow with PKCE (S256), the answer in the query as the library defaults to.
  const asked = new URL((await authorizationRequest).url()).searchParams;
  expect([asked.get('response_type'), asked.get('code_challenge_method'), asked.get('response_mode')]).toEqual([
    'code',
    'S256',
    null,
  ]);
  await expect(page.getByText(`Sesión: ${who.email}`)).toBeVisible();
  await expect(page.getByText(`Nombre: ${who.name} ${who.lastName}`)).toBeVisible();
  // The free plan every account starts with, in Control Max 360 (the app this client belongs to).
  await expect(page.getByText('Plan: free')).toBeVisible();
  await expect(page).toHaveURL(`${spa.url}/`);
  // A first-party app: the portal's /autorizar went on by itself, and no sign-in form was shown again.
  expect(portalPages.filter((path) => path !== '/autorizar')).toEqual([]);

  portalPages.length = 0;
  await page.goto(serverApp.url);
  await expect(page.getByText('Sin sesión en la app')).toBeVisible();
  await page.getByRole('link', { name: 'Entrar con el portal' }).click();
  await expect(page.getByText(`Sesión en la app: ${who.email}`)).toBeVisible();
  await expect(page.getByText('Plan: free')).toBeVisible();
  expect(portalPages).toEqual([]);
});

test("'Abrir Beto Pro' in /apps opens the app's own sign-in (third-party-initiated login): signed in at the app, with no form and no token in an address", async ({
  page,
  context,
  request,
  relyingParties: { serverApp },
}) => {
  const who = await activePerson(request, 'oidc-lanzador');
  await signInOnPortal(page, who);
  const { webUrl } = (await (await request.get(`${API_URL}/apps/obtener-por-id/2`)).json()) as { webUrl: string };
  // The app's public https address hands the browser to the app itself, query and all.
  const ownEndpoint = serverAppUris(serverApp.url).initiateLoginUri;
  await context.route(`${SERVER_APP_LAUNCH_URI}?*`, (route) =>
    route.fulfill({
      status: 303,
      headers: { location: `${ownEndpoint}${new URL(route.request().url()).search}`, 'cache-control': 'no-store' },
    }),
  );

  // On /apps since the sign-in; a new account's presentation goes first (Escape).
  const presentation = page.getByRole('dialog');
  await expect(presentation).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(presentation).toBeHidden();
  // Every address loaded from the click on, redirects included: the new tab's (the apps page stays where it is).
  const tabAddresses: string[] = [];
  context.on('request', (sent) => {
    if (sent.isNavigationRequest()) tabAddresses.push(sent.url());
  });
  const [tab] = await Promise.all([
    context.waitForEvent('page'),
    page.getByRole('button', { name: 'Abrir Beto Pro' }).click(),
  ]);
  await expect(tab.getByText(`Sesión en la app: ${who.email}`)).toBeVisible();
  await expect(tab.getByText('Plan: free')).toBeVisible();
  // The portal's target (the app's web address) is not on this app: it lands on its own home page.
  await expect(tab).toHaveURL(`${serverApp.url}/`);

  const launch = new URL(tabAddresses[0] ?? '');
  expect(launch.origin + launch.pathname).toBe(SERVER_APP_LAUNCH_URI);
  expect([launch.searchParams.get('iss'), launch.searchParams.get('target_link_uri')]).toEqual([API_URL, webUrl]);
  expect(tabAddresses[1]).toBe(`${ownEndpoint}${launch.search}`);
  // The portal's session completed the authorization: /autorizar only, never /login.
  const portalPages = tabAddresses.filter((address) => address.startsWith(HOST_URL));
  expect(portalPages.map((address) => new URL(address).pathname).filter((path) => path !== '/autorizar')).toEqual([]);
  expect(tabAddresses.filter((address) => /[?&](token|access_token|id_token)=/.test(address))).toEqual([]);
  expect(new URL(page.url()).pathname).toBe('/apps');
});

test("not signed in: the app's sign-in asks on the portal's /login, naming the app, and comes back to the app signed in", async ({
  page,
  request,
  relyingParties: { spa },
}) => {
  const who = await activePerson(request, 'oidc-sin-sesion');
  await page.goto(spa.url);
  await page.getByRole('button', { name: 'Entrar con el portal' }).click();
  await expect(page).toHaveURL(new RegExp(`^${HOST_URL}/login\\?interaccion=`));
  await expect(page.getByText(`Inicia sesión para continuar a ${SPA_NAME}.`)).toBeVisible();
  await signInThroughForm(page, who.email, who.password);
  await expect(page.getByText(`Sesión: ${who.email}`)).toBeVisible();
  await expect(page).toHaveURL(`${spa.url}/`);
  await expect(page.getByText('Plan: free')).toBeVisible();
});

test("a third-party app asks first: 'Cancelar' answers access_denied, 'Permitir' signs in and is remembered, and 'Quitar acceso' in /perfil takes it back", async ({
  page,
  request,
  relyingParties: { thirdParty },
}) => {
  test.setTimeout(90_000);
  const who = await activePerson(request, 'oidc-terceros');
  await signInOnPortal(page, who);
  const consent = page.getByRole('heading', { name: `${THIRD_PARTY_NAME} quiere acceder a tu cuenta` });

  await page.goto(thirdParty.url);
  await page.getByRole('link', { name: 'Entrar con el portal' }).click();
  await expect(consent).toBeVisible();
  await expect(page.getByText(`Has iniciado sesión como ${who.email}`)).toBeVisible();
  await expect(page.getByText(`${THIRD_PARTY_NAME} podrá:`)).toBeVisible();
  await expect(page.getByRole('list', { name: `${THIRD_PARTY_NAME} podrá:` }).getByRole('listitem')).toHaveText([
    'Saber quién eres (un identificador de tu cuenta, nunca tu contraseña)',
    'Ver tu nombre y apellido',
    'Ver tu email',
  ]);
  await expect(page.getByText(`${THIRD_PARTY_NAME} es una aplicación de terceros`)).toBeVisible();

  await page.getByRole('button', { name: 'Cancelar' }).click();
  await expect(page.getByText('El portal respondió: error=access_denied')).toBeVisible();
  await expect(page.getByText('Sin sesión en la app')).toBeVisible();

  await page.getByRole('link', { name: 'Entrar con el portal' }).click();
  await expect(consent).toBeVisible();
  await page.getByRole('button', { name: 'Permitir' }).click();
  await expect(page.getByText(`Sesión en la app: ${who.email}`)).toBeVisible();

  // Out of the app and back in: the portal remembers the answer and shows nothing this time.
  await page.getByRole('button', { name: 'Salir de la app' }).click();
  await expect(page.getByText('Sin sesión en la app')).toBeVisible();
  const portalPages = portalPagesOf(page);
  await page.getByRole('link', { name: 'Entrar con el portal' }).click();
  await expect(page.getByText(`Sesión en la app: ${who.email}`)).toBeVisible();
  expect(portalPages).toEqual([]);

  await page.goto(`${HOST_URL}/perfil`);
  await page.getByRole('tab', { name: 'Seguridad' }).click();
  const allowed = page.getByRole('list', { name: 'Aplicaciones con acceso' }).getByRole('listitem');
  await expect(allowed).toHaveCount(1);
  await expect(allowed).toContainText(THIRD_PARTY_NAME);
  await expect(allowed).toContainText('Puede: Saber quién eres');
  await page.getByRole('button', { name: `Quitar acceso de ${THIRD_PARTY_NAME}` }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Quitar acceso' }).click();
  await expect(page.getByText(`Se quitó el acceso de ${THIRD_PARTY_NAME}`)).toBeVisible();
  await expect(page.getByText('No has permitido el acceso a ninguna aplicación externa.')).toBeVisible();

  // The app's session ends (a back-channel logout), and its next sign-in asks again.
  await expectAppSignedOut(page, thirdParty);
  await page.getByRole('link', { name: 'Entrar con el portal' }).click();
  await expect(consent).toBeVisible();
});

test("'Cerrar sesión' in the portal's top bar signs the person out of both apps", async ({
  page,
  request,
  relyingParties: { spa, serverApp },
}) => {
  test.setTimeout(90_000);
  const who = await activePerson(request, 'oidc-salida-portal');
  await signInOnPortal(page, who);
  await signInToSpa(page, spa.url, who);
  await signInToApp(page, serverApp, who);
  const sid = serverApp.sidOf(who.email);
  expect(sid).toBeTruthy();

  await page.goto(`${HOST_URL}/perfil`);
  await page.getByRole('button', { name: 'Menú de usuario' }).click();
  await page.getByRole('region', { name: 'Menú de usuario' }).getByRole('button', { name: 'Cerrar sesión' }).click();
  await expect(page).toHaveURL(`${HOST_URL}/login`);

  await expectAppSignedOut(page, serverApp);
  // Ended by a logout token that verified, for the session this browser signed in with.
  expect(serverApp.logouts.filter((logout) => logout.sid === sid)).toEqual([
    { sub: expect.any(String), sid, endedSessions: 1 },
  ]);
  await page.goto(spa.url);
  await expect(page.getByText('El portal cerró la sesión')).toBeVisible();
  await expect(page.getByText('Sin sesión', { exact: true })).toBeVisible();
});

test('suspending the person (an administrator, through the API) signs them out of both apps', async ({
  page,
  request,
  relyingParties: { spa, serverApp },
}) => {
  test.setTimeout(90_000);
  const who = await activePerson(request, 'oidc-suspension');
  await signInOnPortal(page, who);
  const token = await portalToken(page);
  const me = await request.get(`${API_URL}/auth/user`, { headers: { authorization: `Bearer ${token}` } });
  const { id } = (await me.json()) as { id: number };
  await signInToSpa(page, spa.url, who);
  await signInToApp(page, serverApp, who);
  const sid = serverApp.sidOf(who.email);

  const suspended = await request.put(`${API_URL}/auth/cambiar-estado/${id}`, {
    headers: { authorization: `Bearer ${await adminToken()}` },
  });
  expect(suspended.status(), await suspended.text()).toBe(200);

  await expectAppSignedOut(page, serverApp);
  expect(serverApp.logouts.filter((logout) => logout.sid === sid)).toEqual([
    // The app's own subject of the person (an opaque one: the account id is never sent), which ended its session.
    {
      sub: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/),
      sid,
      endedSessions: 1,
    },
  ]);
  await page.goto(spa.url);
  await expect(page.getByText('El portal cerró la sesión')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Entrar con el portal' })).toBeVisible();
});

test("'Salir' in the single-page app ends the portal session in this browser and tells the server app", async ({
  page,
  request,
  relyingParties: { spa, serverApp },
}) => {
  test.setTimeout(90_000);
  const who = await activePerson(request, 'oidc-salida-app');
  await signInOnPortal(page, who);
  await signInToSpa(page, spa.url, who);
  await signInToApp(page, serverApp, who);
  const sid = serverApp.sidOf(who.email);

  await page.goto(spa.url);
  await page.getByRole('button', { name: 'Salir' }).click();
  await expect(page.getByText('Saliste de la app y del portal')).toBeVisible();
  await expect(page).toHaveURL(`${spa.url}/`);
  await expect(page.getByRole('button', { name: 'Entrar con el portal' })).toBeVisible();

  await page.goto(`${HOST_URL}/apps`);
  await expect(page).toHaveURL(new RegExp(`^${HOST_URL}/login`));
  await expectAppSignedOut(page, serverApp);
  expect(serverApp.logouts.filter((logout) => logout.sid === sid)).toHaveLength(1);
});

test('the server app refreshes its tokens (a new refresh token each time); a rotated one used again is refused and the app session ends', async ({
  page,
  request,
  relyingParties: { serverApp },
}) => {
  const who = await activePerson(request, 'oidc-renovacion');
  await signInOnPortal(page, who);
  await signInToApp(page, serverApp, who, 'Entrar con acceso sin conexión');
  const first = serverApp.refreshTokenOf(who.email);
  expect(first).toBeTruthy();

  await page.getByRole('button', { name: 'Renovar tokens' }).click();
  await expect(page.getByText('Tokens renovados')).toBeVisible();
  const second = serverApp.refreshTokenOf(who.email);
  expect(second).toBeTruthy();
  expect(second).not.toBe(first);

  // Someone holding a copy of the first (rotated) token tries it: refused, and the whole grant goes with it.
  await expect(serverApp.refreshWith(first ?? '')).rejects.toMatchObject({ oauth2Code: 'invalid_grant' });
  await page.getByRole('button', { name: 'Renovar tokens' }).click();
  await expect(page.getByText('El portal rechazó la renovación: la sesión en la app terminó.')).toBeVisible();
  await expect(page.getByText('Sin sesión en la app')).toBeVisible();
});

test('the consent screen and the error page at phone and desktop sizes: screenshots, and no serious axe violation', async ({
  page,
  request,
  relyingParties: { spa, thirdParty },
}) => {
  test.setTimeout(90_000);
  mkdirSync(SHOTS, { recursive: true });
  const who = await activePerson(request, 'oidc-pantallas');
  await signInOnPortal(page, who);

  await page.goto(thirdParty.url);
  await page.getByRole('link', { name: 'Entrar con el portal' }).click();
  const consent = page.getByRole('heading', { name: `${THIRD_PARTY_NAME} quiere acceder a tu cuenta` });
  for (const [width, height] of [
    [390, 844],
    [1280, 800],
  ] as const) {
    await page.setViewportSize({ width, height });
    await expect(consent).toBeVisible();
    await expect(page.getByRole('button', { name: 'Permitir' })).toBeInViewport();
    await page.screenshot({ path: `${SHOTS}/consentimiento-${width}x${height}.png`, fullPage: true });
    expect(await seriousViolations(page)).toEqual([]);
  }
  await page.getByRole('button', { name: 'Cancelar' }).click();
  await expect(page.getByText('El portal respondió: error=access_denied')).toBeVisible();

  // A link to the portal with a return address the app never registered: the portal explains, and sends nobody there.
  const forged = new URL(`${API_URL}/oidc/auth`);
  forged.search = new URLSearchParams({
    client_id: spa.clientId,
    redirect_uri: `${spa.url}/otra`,
    response_type: 'code',
    scope: 'openid',
    state: 'estado',
    code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    code_challenge_method: 'S256',
  }).toString();
  for (const [width, height] of [
    [390, 844],
    [1280, 800],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.goto(forged.href);
    await expect(page).toHaveURL(`${HOST_URL}/autorizar/error?motivo=redireccion_no_registrada`);
    await expect(page.getByRole('heading', { name: 'No se pudo iniciar sesión en la aplicación' })).toBeVisible();
    await expect(page.getByText('La dirección a la que la aplicación pidió volver no está registrada')).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/autorizar-error-${width}x${height}.png`, fullPage: true });
    expect(await seriousViolations(page)).toEqual([]);
  }
});

test("the admin's client form at phone and desktop sizes: a public client for devices only saved without a return address", async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  mkdirSync(SHOTS, { recursive: true });
  await signInAsAdmin(page, request);
  const name = `Quiosco E2E ${Date.now().toString(36)}`;
  await page.goto('/admin/apps');
  await page.getByRole('button', { name: 'Conectar aplicación' }).click();
  const dialog = page.getByRole('dialog', { name: 'Conectar aplicación' });
  await expect(dialog.getByRole('radio', { name: 'OpenID Connect' })).toBeChecked();
  await dialog.getByLabel('Nombre', { exact: true }).fill(name);
  await dialog.getByRole('combobox', { name: 'Tipo' }).selectOption('Público');
  await dialog.getByRole('checkbox', { name: 'Inicio de sesión en dispositivos' }).check();
  await expect(dialog.getByText('muestra un código que la persona confirma en /dispositivo.')).toBeVisible();
  for (const [width, height] of [
    [390, 844],
    [1280, 800],
  ] as const) {
    await page.setViewportSize({ width, height });
    await expect(dialog.getByRole('group', { name: 'Identificador de la persona' })).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/cliente-oidc-form-${width}x${height}.png`, fullPage: true });
    await dialog.getByRole('checkbox', { name: 'Inicio de sesión en dispositivos' }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/cliente-oidc-dispositivos-${width}x${height}.png` });
    expect(await seriousViolations(page)).toEqual([]);
  }
  await dialog.getByRole('button', { name: 'Guardar' }).click();
  await expect(page.getByText('Cliente creado')).toBeVisible();
  const saved = page.getByTestId('cliente-oidc').filter({ has: page.getByRole('heading', { name }) });
  await expect(saved.getByText('Inicio de sesión en dispositivos')).toBeVisible();
  await expect(saved.getByText(/^Público · Tercera parte/)).toBeVisible();
});
