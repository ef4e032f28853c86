// A company's setup link as its IT team meets it: the owner makes a link (here through the API), and someone with no
// portal account opens it on a phone in a fresh browser. The page names the company and its three steps, the link's
// secret leaves the address bar at once and no request carries it in an address; once the owner revokes the link, the
// page opens nothing and says so in Spanish. Then 'Probar conexión' against the company's test OpenID Connect provider:
// the result names the person who signed in there, and no portal account was made. Screenshots are in the output.
import { randomUUID } from 'node:crypto';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, person, registerActive, test } from '../support/auth';
import { call } from '../support/api';
import { API_URL, COMPANY_IDP } from '../support/env';
import { adminToken } from '../support/oidc';
import { DESKTOP, PHONE, widthReport } from '../support/screens';

const STEPS = ['1. Dominio', '2. Inicio de sesión', '3. Directorio'];

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

test("'Probar conexión' signs in at the company's provider in test mode: the page shows the email, and no account is made", async ({
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const id = randomUUID().slice(0, 6);
  const company = `Pesquera Humboldt ${id} S.A.`;
  const domain = `humboldt-${id}.pe`;
  const employee = { sub: `entra-${id}`, email: `jose.quispe@${domain}`, givenName: 'José', familyName: 'Quispe' };
  const { companyId, owner } = await companyWithOwner(request, company);
  const admin = await adminToken();
  // The company's provider, connected for its domain (the platform's call proves the domain).
  await call(request, admin, 'PUT', `admin/empresas/${companyId}/proveedor`, 200, {
    issuer: COMPANY_IDP.issuer,
    clientId: COMPANY_IDP.clientId,
    clientSecret: COMPANY_IDP.clientSecret,
    dominios: [domain],
    permitirContrasena: true,
  });
  const known = await request.post(`${COMPANY_IDP.issuer}/__cuentas`, { data: employee });
  expect(known.status()).toBe(204);
  const link = await call<{ url: string }>(
    request,
    owner,
    'POST',
    `empresas/${companyId}/enlaces-configuracion`,
    201,
    {},
  );
  const url = new URL(link.url);

  const context = await browser.newContext({ viewport: DESKTOP });
  try {
    const page = await context.newPage();
    const addresses: string[] = [];
    page.on('request', (sent) => addresses.push(sent.url()));
    await page.goto(`${url.pathname}${url.hash}`);
    await expect(page.getByRole('heading', { level: 1, name: `Configura el acceso de ${company}` })).toBeVisible();
    await page.getByRole('button', { name: 'Probar conexión' }).click();
    await expect(page).toHaveURL(new RegExp(`^${COMPANY_IDP.issuer}/interaction/`));
    await page.getByLabel('Cuenta').fill(employee.sub);
    await page.getByRole('button', { name: 'Continuar' }).click();
    // Back on the setup page (its link kept by the tab), the result read with the link, the address clean again.
    const result = page.getByRole('region', { name: 'Probar conexión' });
    await expect(result.getByText(/La conexión funciona/)).toBeVisible();
    await expect(result.getByText(employee.email)).toBeVisible();
    await expect(result.getByText('José Quispe')).toBeVisible();
    await expect.poll(() => new URL(page.url()).search).toBe('');
    expect(addresses.filter((address) => address.includes('cfg_'))).toEqual([]);
    await shotAndWidth(page, 'configurar-empresa-prueba-1280.png');
  } finally {
    await context.close();
  }
  // The test made no portal account for the person.
  const users = await call<{ total: number }>(
    request,
    admin,
    'GET',
    `user/listar?email=${encodeURIComponent(employee.email)}`,
    200,
  );
  expect(users.total).toBe(0);
});
