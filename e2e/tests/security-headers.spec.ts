import { expect, test, type Locator, type Page } from '@playwright/test';
import { API_URL, E2E, HOST_URL } from '../support/env';
import { signInAsAdmin } from '../support/session';

/** Each route and what shows that its page rendered. */
const ROUTES: { path: string; signedIn: boolean; ready: (page: Page) => Locator }[] = [
  {
    path: '/login',
    signedIn: false,
    ready: (page) => page.getByRole('button', { name: 'Iniciar Sesión', exact: true }),
  },
  // The company's setup page: its link's secret must reach no referrer (docs/decisions/0105-company-setup-link.md).
  {
    path: '/configurar-empresa',
    signedIn: false,
    ready: (page) => page.getByRole('heading', { name: 'Este enlace no sirve' }),
  },
  { path: '/apps', signedIn: true, ready: (page) => page.getByRole('button', { name: 'Beto Pro' }).first() },
  {
    path: '/admin/usuarios',
    signedIn: true,
    ready: (page) => page.getByRole('heading', { name: 'Gestión de Usuarios' }),
  },
  { path: '/calculadora-txi', signedIn: true, ready: (page) => page.getByRole('heading', { name: 'Calculadora TXI' }) },
];

function expectPageHeaders(headers: Record<string, string>, where: string) {
  const csp = headers['content-security-policy'] ?? '';
  const scriptSrc = csp.split(';').find((d) => d.trim().startsWith('script-src')) ?? '';
  expect(scriptSrc, `${where}: script-src`).toContain("'self'");
  expect(scriptSrc, `${where}: no inline script`).not.toContain("'unsafe-inline'");
  expect(scriptSrc, `${where}: no eval`).not.toContain("'unsafe-eval'");
  expect(csp, `${where}: frame-ancestors`).toContain("frame-ancestors 'none'");
  expect(
    csp.split(';').find((d) => d.trim().startsWith('connect-src')),
    `${where}: the API may be called`,
  ).toContain(API_URL);
  expect(headers['x-content-type-options'], `${where}: nosniff`).toBe('nosniff');
  expect(headers['referrer-policy'], `${where}: referrer`).toBe('no-referrer');
  expect(headers['strict-transport-security'], `${where}: HSTS, as the API sends`).toBe(HSTS);
}

/** The API's value (helmet's): the static pages and files send the same. */
const HSTS = 'max-age=31536000; includeSubDomains';

/** Collects what the browser reports against the policy: violations in the page and console errors naming it. */
async function watchViolations(page: Page): Promise<string[]> {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  await page.exposeFunction('reportViolation', (text: string) => violations.push(text));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      (window as unknown as { reportViolation(text: string): void }).reportViolation(
        `${event.violatedDirective} ${event.blockedURI}`,
      );
    });
  });
  return violations;
}

for (const route of ROUTES) {
  test(`${route.path} is served with the page security headers and works under its policy`, async ({
    page,
    request,
  }) => {
    const violations = await watchViolations(page);
    if (route.signedIn) await signInAsAdmin(page, request);
    const response = await page.goto(route.path);
    expectPageHeaders(response?.headers() ?? {}, route.path);
    await expect(route.ready(page)).toBeVisible();
    await expect(page.getByText('Esta sección no está disponible en este momento.')).toBeHidden();
    expect(violations).toEqual([]);
  });
}

/** A file a page loads: nosniff and the referrer policy, not the headers only a document reads (a page's CSP rules it). */
function expectFileHeaders(headers: Record<string, string>, where: string) {
  expect(headers['x-content-type-options'], `${where}: nosniff`).toBe('nosniff');
  expect(headers['referrer-policy'], `${where}: referrer`).toBe('no-referrer');
  expect(headers['strict-transport-security'], `${where}: HSTS`).toBe(HSTS);
  expect(headers['content-security-policy'], `${where}: no CSP on a file`).toBeUndefined();
  expect(headers['x-frame-options'], `${where}: no X-Frame-Options on a file`).toBeUndefined();
}

test('the remotes files and the runtime config carry the file headers, and only hashed files are cached for long', async ({
  request,
}) => {
  const manifestUrl = `http://127.0.0.1:${E2E.authPort}/mf-manifest.json`;
  const manifest = await request.get(manifestUrl);
  expectFileHeaders(manifest.headers(), 'mf-manifest.json');
  expect(manifest.headers()['cache-control']).toBe('no-cache');
  const { exposes } = (await manifest.json()) as { exposes: { path: string; assets: { js: { sync: string[] } } }[] };
  const chunk = exposes.find((e) => e.path === './LoginPage')?.assets.js.sync[0];
  const file = await request.get(`http://127.0.0.1:${E2E.authPort}/${chunk}`, {
    headers: { 'Accept-Encoding': 'gzip' },
  });
  expect(file.status()).toBe(200);
  expectFileHeaders(file.headers(), chunk ?? 'chunk');
  expect(file.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
  expect(file.headers()['content-encoding']).toBe('gzip');
  const entry = await request.get(`http://127.0.0.1:${E2E.authPort}/remoteEntry.js`);
  expect(entry.headers()['cache-control']).toBe('no-cache');
  const config = await request.get(`${HOST_URL}/runtime-config.js`);
  expectFileHeaders(config.headers(), 'runtime-config.js');
  expect(config.headers()['content-encoding'], 'the config travels compressed').toBe('br');
  expect(config.headers()['cache-control']).toBe('no-cache');
});

test('the API and the pages send the same HSTS, and no source map is published', async ({ request }) => {
  const api = await request.get(`http://127.0.0.1:${E2E.apiPort}/health`);
  expect(api.headers()['strict-transport-security']).toBe(HSTS);
  const page = await request.get(`${HOST_URL}/login`);
  const scripts = [...(await page.text()).matchAll(/<script[^>]*\ssrc="?([^"\s>]+\.js)/g)].map(([, src]) => src!);
  expect(scripts.length).toBeGreaterThan(0);
  for (const src of scripts) {
    const url = new URL(src, HOST_URL).href;
    const script = await request.get(url);
    expect(script.status(), url).toBe(200);
    expect(await script.text(), `${url} names no map`).not.toContain('sourceMappingURL');
    expect((await request.get(`${url}.map`)).status(), `${url}.map`).toBe(404);
  }
});
