// Every page of the portal fits a phone: at 390×844, as the kind of person who reaches it, no page is wider than the
// screen and nothing sticks out of it outside a box that scrolls. The pages are the shell's URL table
// (host/src/routes/route-table.ts): a route added there without a visit here fails this test. A company's page with
// its eleven sections and a SIEM receiver's long error is looked at more closely, on a phone and on a desktop.
import type { Browser, BrowserContext } from '@playwright/test';
import { ROUTES } from '../../host/src/routes/route-table';
import { call } from '../support/api';
import { API_URL, E2E } from '../support/env';
import { expect, person, registerActive, test } from '../support/auth';
import { DESKTOP, PHONE, type WidthReport, widthReport } from '../support/screens';

type Visitor = 'guest' | 'user' | 'admin';

interface Visit {
  /** The route of the URL table this visit covers (none: a page no route names, the not-found page). */
  route: string | null;
  url: string;
  as: Visitor;
  /** The page's main heading: the page is on screen, not a loading state. */
  heading: string | RegExp;
}

const someone = encodeURIComponent('lucia@example.com');
/** The company whose page is visited (created by the test, a name long enough to wrap on a phone). */
const COMPANY = 'Ancho Teléfono Servicios Industriales S.A.';

const VISITS: Visit[] = [
  { route: '/login', url: '/login', as: 'guest', heading: 'Iniciar Sesión' },
  { route: '/register', url: '/register', as: 'guest', heading: 'Crear cuenta' },
  { route: '/verify-email', url: `/verify-email?email=${someone}`, as: 'guest', heading: 'Verifica tu email' },
  { route: '/forgot-password', url: '/forgot-password', as: 'guest', heading: 'Recuperar contraseña' },
  { route: '/reset-password', url: `/reset-password?email=${someone}`, as: 'guest', heading: 'Cambiar contraseña' },
  {
    route: '/google-callback',
    url: '/google-callback?error=auth_failed',
    as: 'guest',
    heading: 'Error de Autenticación',
  },
  {
    route: '/auth/google/callback',
    url: '/auth/google/callback?error=access_denied',
    as: 'guest',
    heading: 'Error de Autenticación',
  },
  // Without an app's request, the page says it cannot go on: the same screen an app's broken request gets.
  { route: '/autorizar', url: '/autorizar', as: 'guest', heading: 'No se pudo iniciar sesión en la aplicación' },
  {
    route: '/autorizar/error',
    url: '/autorizar/error?error=invalid_request',
    as: 'guest',
    heading: 'No se pudo iniciar sesión en la aplicación',
  },
  {
    route: '/playstoreapps/beto/datos-personales',
    url: '/playstoreapps/beto/datos-personales',
    as: 'guest',
    heading: 'Eliminación de datos personales',
  },
  // An invitation's link opened signed out: sign in or register with it.
  {
    route: '/invitacion',
    url: `/invitacion?codigo=482913&email=${someone}`,
    as: 'guest',
    heading: 'Invitación a una empresa',
  },
  // A company's setup page opened without its link's code: it says the link does not serve, and shows no step (the
  // page of steps at 390 px: company-setup-link.spec.ts).
  { route: '/configurar-empresa', url: '/configurar-empresa', as: 'guest', heading: 'Este enlace no sirve' },
  // A device's code is typed here by a signed-in person (a signed-out one signs in first).
  {
    route: '/saml/continuar',
    url: '/saml/continuar',
    as: 'user',
    heading: 'No se pudo iniciar sesión en la aplicación',
  },
  { route: '/dispositivo', url: '/dispositivo', as: 'user', heading: 'Iniciar sesión en un dispositivo' },
  { route: '/logout', url: '/logout', as: 'user', heading: '¿Cerrar sesión?' },
  { route: '/', url: '/', as: 'user', heading: /^¡Hola, / },
  { route: '/apps', url: '/apps', as: 'user', heading: /^¡Hola, / },
  { route: '/apps/:id', url: '/apps/1', as: 'user', heading: 'Control Max 360' },
  { route: '/apps/:id', url: '/apps/2', as: 'user', heading: 'Beto Pro' },
  { route: '/pagos', url: '/pagos', as: 'user', heading: 'Pagos' },
  { route: '/success', url: '/success', as: 'user', heading: '¡Éxito!' },
  { route: '/planes', url: '/planes', as: 'user', heading: 'Planes Premium' },
  { route: '/beto', url: '/beto', as: 'user', heading: 'Beto Pro' },
  { route: '/control-max', url: '/control-max', as: 'user', heading: 'Control Max 360' },
  { route: '/perfil', url: '/perfil', as: 'user', heading: 'Mi perfil' },
  { route: '/perfil', url: '/perfil?tab=informacion', as: 'user', heading: 'Mi perfil' },
  { route: '/perfil', url: '/perfil?tab=contrasena', as: 'user', heading: 'Mi perfil' },
  { route: '/perfil', url: '/perfil?tab=seguridad', as: 'user', heading: 'Mi perfil' },
  { route: '/calculadora-txi', url: '/calculadora-txi', as: 'user', heading: 'Calculadora TXI' },
  { route: null, url: '/no-existe', as: 'user', heading: 'Página no encontrada' },
  // A person who is not an administrator, at the admin panel's door.
  { route: null, url: '/admin', as: 'user', heading: 'Acceso Denegado' },
  { route: '/admin', url: '/admin', as: 'admin', heading: 'Gestión de Usuarios' },
  { route: '/admin/usuarios', url: '/admin/usuarios', as: 'admin', heading: 'Gestión de Usuarios' },
  { route: '/admin/dashboard', url: '/admin/dashboard', as: 'admin', heading: 'Dashboard de Administración' },
  { route: '/admin/apps', url: '/admin/apps', as: 'admin', heading: 'Pagina de apps' },
  { route: '/admin/empresas', url: '/admin/empresas', as: 'admin', heading: 'Empresas' },
  // A company the test creates: {empresa} is its id.
  { route: '/admin/empresas/:id', url: '/admin/empresas/{empresa}', as: 'admin', heading: COMPANY },
];

test('every route of the URL table is visited', () => {
  const visited = new Set(VISITS.map((visit) => visit.route));
  expect(ROUTES.map((route) => route.path).filter((path) => !visited.has(path))).toEqual([]);
});

/** A browser context at a phone's size, signed in as the visitor (the token where the portal keeps it). */
async function phoneFor(browser: Browser, token: string | null): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: PHONE, hasTouch: true });
  if (token) await context.addInitScript((value) => window.localStorage.setItem('token', value), token);
  return context;
}

test('every page of the portal fits a 390 px phone', async ({ browser, request }, testInfo) => {
  test.setTimeout(240_000);
  const who = person('ancho-telefono');
  await registerActive(request, who);
  const tokenOf = async (email: string, password: string) => {
    const response = await request.post(`${API_URL}/auth/login`, { data: { email, password } });
    expect(response.status(), await response.text()).toBe(200);
    return ((await response.json()) as { access_token: string }).access_token;
  };
  const tokens: Record<Visitor, string | null> = {
    guest: null,
    user: await tokenOf(who.email, who.password),
    admin: await tokenOf(E2E.adminEmail, E2E.adminPassword),
  };
  const created = await request.post(`${API_URL}/admin/empresas`, {
    data: { nombre: COMPANY },
    headers: { authorization: `Bearer ${tokens.admin}` },
  });
  expect(created.status(), await created.text()).toBe(201);
  const companyId = String(((await created.json()) as { id: number }).id);

  const tooWide: { url: string; as: Visitor; report: WidthReport }[] = [];
  for (const as of ['guest', 'user', 'admin'] as const) {
    const context = await phoneFor(browser, tokens[as]);
    const page = await context.newPage();
    for (const visit of VISITS.filter((each) => each.as === as)) {
      await page.goto(visit.url.replace('{empresa}', companyId));
      await expect(page.getByRole('heading', { level: 1, name: visit.heading }), visit.url).toBeVisible();
      // Late parts (images, a remote's list) change widths: measured once the page stopped loading.
      await page.waitForLoadState('networkidle');
      const report = await widthReport(page);
      if (report.scrollWidth > PHONE.width || report.wide.length > 0) {
        tooWide.push({ url: visit.url, as, report });
        const name = `${as}${visit.url.replace(/[^a-z0-9]+/gi, '-')}.png`;
        await page.screenshot({ path: testInfo.outputPath(name), fullPage: true });
      }
    }
    await context.close();
  }
  expect(tooWide).toEqual([]);
});

test("a company's sections stay one row on a phone, and a SIEM receiver's long error stays inside its dialog", async ({
  browser,
  request,
}) => {
  const login = await request.post(`${API_URL}/auth/login`, {
    data: { email: E2E.adminEmail, password: E2E.adminPassword },
  });
  expect(login.status(), await login.text()).toBe(200);
  const token = ((await login.json()) as { access_token: string }).access_token;
  const { id } = await call<{ id: number }>(request, token, 'POST', 'admin/empresas', 201, {
    nombre: 'Secciones en Fila S.A.',
  });
  // A receiver whose name is one long word: what the sender says of it (as of an OpenSSL code) must wrap.
  const host = `receptor${'x'.repeat(48)}sinsalida.example.com`;
  await call(request, token, 'POST', `empresas/${id}/flujos-auditoria`, 201, {
    tipo: 'https',
    url: `https://${host}/collector`,
    formato: 'ndjson',
  });

  const phone = await phoneFor(browser, token);
  const page = await phone.newPage();
  await page.goto(`/admin/empresas/${id}`);
  const sections = page.getByRole('tablist', { name: 'Secciones de la empresa' });
  await expect(sections.getByRole('tab', { name: 'Miembros' })).toBeVisible();
  // One row (a tab is 44 px high), wider than the screen, scrolling inside itself and not the page.
  expect((await sections.boundingBox())?.height).toBeLessThan(60);
  expect(await sections.evaluate((list) => list.scrollWidth > list.clientWidth)).toBe(true);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  /** Whether the tab shows whole inside the row's box (scrolled into it), to the pixel's fraction. */
  const shown = (name: string) =>
    sections.getByRole('tab', { name }).evaluate((tab) => {
      const box = tab.getBoundingClientRect();
      const row = (tab.parentElement as HTMLElement).getBoundingClientRect();
      return box.left >= row.left - 1 && box.right <= row.right + 1;
    });
  await sections.getByRole('tab', { name: 'Miembros' }).focus();
  expect(await shown('Ajustes')).toBe(false);
  await page.keyboard.press('End');
  await expect(sections.getByRole('tab', { name: 'Ajustes' })).toBeFocused();
  await expect.poll(() => shown('Ajustes')).toBe(true);
  await page.keyboard.press('ArrowLeft');
  await expect.poll(() => shown('Informe de puestos')).toBe(true);
  await page.keyboard.press('Home');
  await expect(page.getByRole('heading', { level: 2, name: 'Miembros' })).toBeVisible();
  await phone.close();

  for (const screen of [PHONE, DESKTOP]) {
    const context = await browser.newContext({ viewport: screen });
    await context.addInitScript((value) => window.localStorage.setItem('token', value), token);
    const siem = await context.newPage();
    await siem.goto(`/admin/empresas/${id}#actividad`);
    await siem.getByRole('button', { name: 'Enviar a mi SIEM' }).click();
    const dialog = siem.getByRole('dialog', { name: 'Enviar a mi SIEM' });
    // The dialog reads its destinations again while open: the worker's first failure shows without reopening it.
    await expect(dialog.getByRole('table')).toContainText(host, { timeout: 30_000 });
    await expect(dialog.getByRole('table')).not.toContainText('Ninguno', { timeout: 30_000 });
    await dialog.getByRole('button', { name: 'Enviar prueba' }).click();
    await expect(dialog.getByRole('alert')).toBeVisible();
    const body = dialog.locator(':scope > div');
    expect(await body.evaluate((box) => box.scrollWidth <= box.clientWidth), `${screen.width} px`).toBe(true);
    expect(await siem.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(screen.width);
    await context.close();
  }
});
