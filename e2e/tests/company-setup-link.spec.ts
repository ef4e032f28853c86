// A company's setup link as its IT team meets it: the owner makes a link (here through the API), and someone with no
// portal account opens it on a phone in a fresh browser. The page names the company and its three steps, the link's
// secret leaves the address bar at once and no request carries it in an address; once the owner revokes the link, the
// page opens nothing and says so in Spanish. Screenshots (390 and 1280 px) are in the test's output.
import { randomUUID } from 'node:crypto';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, person, registerActive, test } from '../support/auth';
import { API_URL } from '../support/env';
import { adminToken } from '../support/oidc';
import { DESKTOP, PHONE, widthReport } from '../support/screens';

const STEPS = ['1. Dominio', '2. Inicio de sesión', '3. Directorio'];

async function call<T>(
  request: APIRequestContext,
  token: string,
  method: 'GET' | 'POST' | 'DELETE',
  url: string,
  expected: number,
  data?: unknown,
): Promise<T> {
  const response = await request.fetch(`${API_URL}/${url}`, {
    method,
    headers: { authorization: `Bearer ${token}` },
    ...(data === undefined ? {} : { data }),
  });
  expect(response.status(), `${method} /${url}: ${await response.text()}`).toBe(expected);
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

/** A company with an owner who signed up with the portal, and the owner's token. */
async function companyWithOwner(request: APIRequestContext, name: string) {
  const admin = await adminToken();
  const { id } = await call<{ id: number }>(request, admin, 'POST', 'admin/empresas', 201, { nombre: name });
  const owner = person('duena-enlace');
  await registerActive(request, owner);
  const invited = await call<{ id: number }>(request, admin, 'POST', `empresas/${id}/invitaciones`, 201, {
    email: owner.email,
    rol: 'propietario',
  });
  const login = await request.post(`${API_URL}/auth/login`, { data: { email: owner.email, password: owner.password } });
  expect(login.status(), await login.text()).toBe(200);
  const token = ((await login.json()) as { access_token: string }).access_token;
  await call(request, token, 'POST', 'empresas/invitaciones/aceptar', 200, { idInvitacion: invited.id });
  return { companyId: id, owner: token };
}

async function shotAndWidth(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: test.info().outputPath(name), fullPage: true });
  const report = await widthReport(page);
  expect(report.scrollWidth, `${name}: ${report.wide.join('; ')}`).toBeLessThanOrEqual(report.viewport);
  expect(report.wide, name).toEqual([]);
}

test("a company's setup link opens its three steps without an account, keeps its secret out of every address, and opens nothing once revoked", async ({
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const company = `Textil Vicuña ${randomUUID().slice(0, 6)} S.A.C.`;
  const { companyId, owner } = await companyWithOwner(request, company);
  const link = await call<{ id: number; url: string }>(
    request,
    owner,
    'POST',
    `empresas/${companyId}/enlaces-configuracion`,
    201,
    { horas: 2 },
  );
  const secret = link.url.split('#')[1] ?? '';
  expect(secret).toMatch(/^cfg_/);
  const url = new URL(link.url);

  // A fresh browser (no storage, no session) on a phone, as the company's IT opens the link.
  const context = await browser.newContext({ viewport: PHONE, hasTouch: true });
  try {
    const page = await context.newPage();
    const addresses: string[] = [];
    page.on('request', (sent) => addresses.push(sent.url()));
    await page.goto(`${url.pathname}${url.hash}`);
    await expect(page.getByRole('heading', { level: 1, name: `Configura el acceso de ${company}` })).toBeVisible();
    for (const step of STEPS) await expect(page.getByRole('heading', { level: 2, name: step })).toBeVisible();
    // The secret left the address bar (and the history entry), and went to no server in an address.
    await expect.poll(() => page.url()).not.toContain('#');
    expect(page.url()).not.toContain('cfg_');
    await page.waitForLoadState('networkidle');
    expect(addresses.filter((address) => address.includes('cfg_'))).toEqual([]);
    await expect(page.getByRole('button', { name: 'Crear token' })).toBeVisible();
    await shotAndWidth(page, 'configurar-empresa-390.png');
    await page.setViewportSize(DESKTOP);
    await shotAndWidth(page, 'configurar-empresa-1280.png');
    await page.setViewportSize(PHONE);

    // The owner revokes the link: a reload opens nothing, says so and who to ask.
    await call(request, owner, 'DELETE', `empresas/${companyId}/enlaces-configuracion/${link.id}`, 204);
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: 'El enlace de configuración ya no sirve' })).toBeVisible();
    await expect(page.getByText(/fue revocado/)).toBeVisible();
    await expect(page.getByText(/Pide uno nuevo a/)).toBeVisible();
    for (const step of STEPS) await expect(page.getByRole('heading', { name: step })).toHaveCount(0);
    await shotAndWidth(page, 'configurar-empresa-revocado-390.png');
    expect(addresses.filter((address) => address.includes('cfg_'))).toEqual([]);
  } finally {
    await context.close();
  }
});
