// A company's own sign-in and its directory, as a person and their IT team see them: the vendor's platform
// administrator connects the company's identity provider (like Entra ID) with password sign-in off and its directory
// (SCIM) provisions a person, who is given a seat; that person types their work email on /login, gets 'Continuar con
// el acceso de <empresa>' instead of the password field, signs in at the company's provider and finds the seat's plan
// on /apps without ever typing a portal password. The directory then sets them inactive (Entra ID's "False"): the open
// page loses its session at its next call and the provider's way back in says the company turned their access off.
// Last, the company page's 'Acceso de la empresa' and 'Directorio (SCIM)' as the platform administrator sees them.
// Screenshots of those tabs (1280 and 390 px) and of /login with the company's button (390 px) are in the test's output.
// A second person already has a portal password at the company's domain: the company's access alone does not sign
// them in; it asks for that password once (proof of both sides), then links the account.
import { randomUUID } from 'node:crypto';
import type { APIRequestContext, Browser, Page } from '@playwright/test';
import {
  expect,
  expectSignedInAs,
  person,
  portalReady,
  registerActive,
  seriousViolations,
  test,
} from '../support/auth';
import { call as api } from '../support/api';
import { API_URL, COMPANY_IDP } from '../support/env';
import { adminToken } from '../support/oidc';
import { DESKTOP, PHONE, widthReport } from '../support/screens';
import { signInAsAdmin } from '../support/session';

/** Beto Pro, the app the licence is for (the catalogue's app 2). */
const APP_ID = 2;
const APP = 'Beto Pro';
const SCIM_JSON = 'application/scim+json';
const SCIM_USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const ACCESS_DISABLED = 'Tu empresa ha desactivado tu acceso al portal.';
const COMPANY_ONLY_TEXT = 'Tu empresa inicia sesión con su propio acceso.';

/** The company's directory (Entra ID's provisioning), calling the portal's SCIM base with the company's token. */
function directory(request: APIRequestContext, base: string, token: string) {
  const headers = { authorization: `Bearer ${token}`, accept: SCIM_JSON };
  return {
    get: (url: string) => request.get(`${base}${url}`, { headers }),
    send: (method: 'POST' | 'PATCH', url: string, body: unknown) =>
      request.fetch(`${base}${url}`, {
        method,
        headers: { ...headers, 'content-type': SCIM_JSON },
        data: JSON.stringify(body),
      }),
  };
}

async function contextAt(browser: Browser, viewport: { width: number; height: number }) {
  return browser.newContext({ viewport, ...(viewport === PHONE && { hasTouch: true }) });
}

/** A screenshot for people to look at, and the page measured: nothing sticks out sideways at this width. */
async function shotAndWidth(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: test.info().outputPath(name), fullPage: true });
  const report = await widthReport(page);
  expect(report.scrollWidth, `${name}: ${report.wide.join('; ')}`).toBeLessThanOrEqual(report.viewport);
  expect(report.wide, name).toEqual([]);
}

/** The company page's section, as its tab. */
async function openSection(page: Page, name: string): Promise<void> {
  await page.getByRole('tablist', { name: 'Secciones de la empresa' }).getByRole('tab', { name }).click();
  await expect(page.getByRole('heading', { level: 2, name })).toBeVisible();
}

test("a company's directory provisions a person who signs in with the company's own access, gets the seat's plan, and is shut out when the directory sets them inactive", async ({
  browser,
  request,
}) => {
  test.setTimeout(240_000);
  const id = randomUUID().slice(0, 6);
  // A name long enough to wrap on a phone inside the button; a registrable domain (decision 0076: `.test` is none).
  const company = `Minera Cordillera Andina ${id} S.A.C.`;
  const domain = `minera-${id}.pe`;
  const employee = {
    sub: `entra-${id}`,
    email: `rosa.huaman@${domain}`,
    givenName: 'Rosa',
    familyName: 'Huamán',
  };
  const companyButton = `Continuar con el acceso de ${company}`;

  // 1. The vendor's platform administrator: the company, 3 seats of Beto Pro PRO, the company's provider (no
  //    portal password for its people) and a token for its directory.
  const admin = await adminToken();
  const { id: companyId } = await api<{ id: number }>(request, admin, 'POST', 'admin/empresas', 201, {
    nombre: company,
  });
  const catalogue = (await (await request.get(`${API_URL}/apps/listar-con-planes`)).json()) as {
    id: number;
    planes: { id: number; nombre: string }[];
  }[];
  const pro = catalogue.find((app) => app.id === APP_ID)?.planes.find((plan) => plan.nombre === 'PRO');
  expect(pro, 'the catalogue has Beto Pro PRO').toBeDefined();
  await api(request, admin, 'POST', `admin/empresas/${companyId}/licencias`, 201, {
    idApp: APP_ID,
    idPlan: pro?.id,
    puestos: 3,
    fechaVencimiento: new Date(Date.now() + 365 * 86_400_000).toISOString(),
  });
  const connected = await api<{ redirectUri: string }>(
    request,
    admin,
    'PUT',
    `admin/empresas/${companyId}/proveedor`,
    200,
    {
      issuer: COMPANY_IDP.issuer,
      clientId: COMPANY_IDP.clientId,
      clientSecret: COMPANY_IDP.clientSecret,
      dominios: [domain],
      permitirContrasena: false,
    },
  );
  // The address the company registers at its provider: the one the test provider was started with.
  expect(connected.redirectUri).toBe(`${API_URL}/auth/empresa/callback`);
  const scimToken = await api<{ token: string; prefijo: string; urlBase: string }>(
    request,
    admin,
    'POST',
    `empresas/${companyId}/scim/tokens`,
    201,
    { descripcion: 'Entra ID (pruebas)' },
  );
  expect(scimToken.urlBase).toBe(`${API_URL}/scim/v2`);
  expect(scimToken.token.startsWith(scimToken.prefijo)).toBe(true);

  // 2. The directory, as Entra ID provisions: looks the person up by userName, then creates them.
  const scim = directory(request, scimToken.urlBase, scimToken.token);
  const lookUp = await scim.get(`/Users?filter=${encodeURIComponent(`userName eq "${employee.email}"`)}`);
  expect(lookUp.status(), await lookUp.text()).toBe(200);
  expect(((await lookUp.json()) as { totalResults: number }).totalResults).toBe(0);
  const created = await scim.send('POST', '/Users', {
    schemas: [SCIM_USER],
    externalId: employee.sub,
    userName: employee.email,
    active: true,
    displayName: `${employee.givenName} ${employee.familyName}`,
    name: {
      givenName: employee.givenName,
      familyName: employee.familyName,
      formatted: `${employee.givenName} ${employee.familyName}`,
    },
    emails: [{ primary: true, type: 'work', value: employee.email }],
  });
  expect(created.status(), await created.text()).toBe(201);
  expect(created.headers()['content-type']).toContain(SCIM_JSON);
  const resource = (await created.json()) as { id: string; active: boolean };
  expect(resource.active).toBe(true);

  // The company's provider knows the same person (like Entra ID: no email_verified claim).
  const known = await request.post(`${COMPANY_IDP.issuer}/__cuentas`, { data: employee });
  expect(known.status()).toBe(204);

  // The administrator gives the provisioned member a seat.
  const members = await api<{ data: { idUsuario: number; email: string; rol: string; estado: string }[] }>(
    request,
    admin,
    'GET',
    `empresas/${companyId}/miembros?email=${encodeURIComponent(employee.email)}`,
    200,
  );
  expect(members.data.map(({ email, rol, estado }) => ({ email, rol, estado }))).toEqual([
    { email: employee.email, rol: 'miembro', estado: 'activo' },
  ]);
  const seat = await request.post(`${API_URL}/empresas/${companyId}/puestos`, {
    headers: { authorization: `Bearer ${admin}` },
    data: { idUsuario: members.data[0]?.idUsuario, idApp: APP_ID },
  });
  expect(seat.ok(), await seat.text()).toBe(true);

  // 3. /login on a phone: the address finds the company's access; its button takes the password field's place.
  const phone = await contextAt(browser, PHONE);
  try {
    const phonePage = await phone.newPage();
    await phonePage.goto('/login');
    await portalReady(phonePage);
    await phonePage.getByLabel('Email').fill(employee.email);
    await expect(phonePage.getByRole('button', { name: companyButton })).toBeVisible();
    await expect(phonePage.getByText(COMPANY_ONLY_TEXT)).toBeVisible();
    await expect(phonePage.getByLabel('Contraseña', { exact: true })).toHaveCount(0);
    await shotAndWidth(phonePage, 'login-empresa-390.png');
    expect(await seriousViolations(phonePage)).toEqual([]);
  } finally {
    await phone.close();
  }

  // 4. The person, in a browser of their own: email, the company's button, the company's provider, /apps.
  const person = await contextAt(browser, DESKTOP);
  try {
    const page = await person.newPage();
    const passwordsTyped: string[] = [];
    page.on('request', (sent) => {
      if (sent.method() === 'POST' && new URL(sent.url()).pathname === '/auth/login') passwordsTyped.push(sent.url());
    });
    await page.goto('/login');
    await portalReady(page);
    await page.getByLabel('Email').fill(employee.email);
    const button = page.getByRole('button', { name: companyButton });
    await expect(button).toBeVisible();
    await expect(page.getByLabel('Contraseña', { exact: true })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Iniciar Sesión', exact: true })).toHaveCount(0);
    await button.click();
    await expect(page).toHaveURL(new RegExp(`^${COMPANY_IDP.issuer}/interaction/`));
    await expect(page.getByRole('heading', { name: 'Acceso de empresa de pruebas' })).toBeVisible();
    await page.getByLabel('Cuenta').fill(employee.sub);
    await page.getByRole('button', { name: 'Continuar' }).click();
    await expect(page).toHaveURL(/\/apps$/);
    // A new account's presentation goes first.
    const presentation = page.getByRole('dialog');
    await expect(presentation).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(presentation).toBeHidden();
    await expect(
      page.getByRole('heading', { name: `¡Hola, ${employee.givenName} ${employee.familyName}!` }),
    ).toBeVisible();
    const ownPlans = page.getByRole('region', { name: 'Tus Aplicaciones' });
    await expect(ownPlans.getByRole('listitem').filter({ hasText: `${APP}: PRO` })).toContainText(
      `Puesto de ${company}`,
    );
    await expectSignedInAs(page, request, employee.email);
    expect(passwordsTyped, 'no portal password sign-in was sent').toEqual([]);
    const token = (await page.evaluate(() => window.localStorage.getItem('token'))) as string;

    // 5. The leaver: the directory sets the person inactive, as Entra ID writes it ("False", a string).
    const leaving = await scim.send('PATCH', `/Users/${resource.id}`, {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: [{ op: 'Replace', path: 'active', value: 'False' }],
    });
    expect(leaving.status(), await leaving.text()).toBe(200);
    expect(((await leaving.json()) as { active: boolean }).active).toBe(false);
    // The session's token is refused within seconds, by the API itself.
    await expect
      .poll(
        async () =>
          (await request.get(`${API_URL}/auth/user`, { headers: { authorization: `Bearer ${token}` } })).status(),
        { message: "the person's session token, once the directory set them inactive", timeout: 10_000 },
      )
      .toBe(401);
    // Out of the company, and the seat free again.
    const left = await api<{ data: unknown[] }>(
      request,
      admin,
      'GET',
      `empresas/${companyId}/miembros?email=${encodeURIComponent(employee.email)}`,
      200,
    );
    expect(left.data).toEqual([]);
    const licences = await api<{ app: { id: number }; enUso: number; libres: number }[]>(
      request,
      admin,
      'GET',
      `empresas/${companyId}/licencias`,
      200,
    );
    expect(licences.find((licence) => licence.app.id === APP_ID)).toMatchObject({ enUso: 0, libres: 3 });
    // The open page's next load (the shell checks the kept session with the API) sends the person to /login.
    await page.goto('/perfil');
    await expect(page).toHaveURL(/\/login/);
    // The sign-in page may still be loading: a navigation under way ends the page's context, so it is asked again.
    await expect
      .poll(() => page.evaluate(() => window.localStorage.getItem('token')).catch(() => 'la página aún navega'))
      .toBeNull();

    // Back through the provider (it still knows the browser: straight back, no form), refused in the company's words.
    await page.goto('/login');
    await portalReady(page);
    await page.getByLabel('Email').fill(employee.email);
    const throughProvider = page.waitForRequest((sent) => sent.url().startsWith(`${COMPANY_IDP.issuer}/auth`));
    await page.getByRole('button', { name: companyButton }).click();
    await throughProvider;
    await expect(page).toHaveURL(/\/login\?error=company_access_disabled&provider=empresa$/);
    await expect(page.getByText(ACCESS_DISABLED)).toBeVisible();
    expect(await page.evaluate(() => window.localStorage.getItem('token'))).toBeNull();
    expect(passwordsTyped, 'no portal password sign-in was sent').toEqual([]);
  } finally {
    await person.close();
  }

  // 6. The company page as the platform administrator: the provider's connection and the directory's requests.
  const panel = await contextAt(browser, DESKTOP);
  try {
    const page = await panel.newPage();
    await signInAsAdmin(page, request);
    await page.goto(`/admin/empresas/${companyId}`);
    await expect(page.getByRole('heading', { level: 1, name: company })).toBeVisible();

    await openSection(page, 'Acceso de la empresa');
    const access = page.locator('section[aria-labelledby="access-title"]');
    // The connection as it stands (the form below it repeats the values in its fields).
    const fact = (term: string) => access.locator('dt', { hasText: term }).locator('xpath=following-sibling::dd[1]');
    await expect(fact('Emisor')).toHaveText(COMPANY_IDP.issuer);
    await expect(fact('Dominios')).toHaveText(domain);
    await expect(fact('Contraseña del portal')).toHaveText('Solo con el proveedor de la empresa');
    // 'Último acceso': the person's sign-in, a date and not 'Nunca'.
    await expect(fact('Último acceso')).toHaveText(/^\d{1,2}\/\d{1,2}\/\d{4}, \d{1,2}:\d{2}:\d{2}$/);
    await expect(access.getByText(`${API_URL}/auth/empresa/callback`).first()).toBeVisible();
    await shotAndWidth(page, 'empresa-acceso-1280.png');
    await page.setViewportSize(PHONE);
    await expect(fact('Dominios')).toBeVisible();
    await shotAndWidth(page, 'empresa-acceso-390.png');
    expect(await seriousViolations(page)).toEqual([]);

    await page.setViewportSize(DESKTOP);
    await openSection(page, 'Directorio (SCIM)');
    const directorySection = page.locator('section[aria-labelledby="directory-title"]');
    await expect(directorySection.getByText(scimToken.urlBase, { exact: true })).toBeVisible();
    const tokens = page.getByRole('table', { name: 'Tokens del directorio' });
    await expect(tokens.getByRole('row').filter({ hasText: `${scimToken.prefijo}…` })).toContainText(
      'Entra ID (pruebas)',
    );
    await expect(page.getByRole('heading', { level: 3, name: 'Últimas peticiones del directorio' })).toBeVisible();
    const log = page.getByRole('table', { name: 'Últimas peticiones del directorio' });
    const shown = `«${employee.email}»`;
    // Newest first: the deprovisioning, the creation, the look-up.
    await expect(log.getByRole('row').filter({ has: page.getByRole('cell') })).toHaveCount(3);
    await expect(log.getByRole('row').filter({ hasText: 'PATCH' })).toContainText(
      `${shown} desactivada: sale de la empresa, sus puestos quedan libres y sus sesiones terminan`,
    );
    await expect(log.getByRole('row').filter({ hasText: 'POST' })).toContainText(
      `Alta de ${shown}: miembro de la empresa`,
    );
    await expect(log.getByRole('row').filter({ hasText: 'GET' })).toContainText('Búsqueda');
    await shotAndWidth(page, 'empresa-directorio-1280.png');
    await page.setViewportSize(PHONE);
    await expect(log).toBeVisible();
    await shotAndWidth(page, 'empresa-directorio-390.png');
    expect(await seriousViolations(page)).toEqual([]);
  } finally {
    await panel.close();
  }
});

test("an existing password account at the company's domain is linked only once its owner signs in to it", async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const id = randomUUID().slice(0, 6);
  const company = `Minera Vínculo ${id}`;
  const domain = `vinculo-${id}.pe`;
  // The account exists before the company connects its provider (its password typed at registration).
  const who = { ...person('vinculo'), email: `ana.quispe.${id}@${domain}` };
  await registerActive(request, who);
  const admin = await adminToken();
  const { id: companyId } = await api<{ id: number }>(request, admin, 'POST', 'admin/empresas', 201, {
    nombre: company,
  });
  await api(request, admin, 'PUT', `admin/empresas/${companyId}/proveedor`, 200, {
    issuer: COMPANY_IDP.issuer,
    clientId: COMPANY_IDP.clientId,
    clientSecret: COMPANY_IDP.clientSecret,
    dominios: [domain],
    permitirContrasena: true,
  });
  const employee = { sub: `entra-vinculo-${id}`, email: who.email, givenName: 'Ana', familyName: 'Quispe' };
  expect((await request.post(`${COMPANY_IDP.issuer}/__cuentas`, { data: employee })).status()).toBe(204);
  const membersOf = async () =>
    (
      await api<{ data: { email: string }[] }>(
        request,
        admin,
        'GET',
        `empresas/${companyId}/miembros?email=${encodeURIComponent(who.email)}`,
        200,
      )
    ).data.map((member) => member.email);

  // The company's provider vouches for the address, but not that this person holds the portal account: no session.
  await page.goto('/login');
  await portalReady(page);
  await page.getByLabel('Email').fill(who.email);
  const companyButton = page.getByRole('button', { name: `Continuar con el acceso de ${company}` });
  await companyButton.click();
  await expect(page).toHaveURL(new RegExp(`^${COMPANY_IDP.issuer}/interaction/`));
  await page.getByLabel('Cuenta').fill(employee.sub);
  await page.getByRole('button', { name: 'Continuar' }).click();
  await expect(page).toHaveURL(/\/login\?vincular=/);
  await expect(
    page.getByText(
      `Ya tienes una cuenta en el portal con este correo. Inicia sesión con tu contraseña (o tu llave de acceso) para vincularla al acceso de ${company}.`,
    ),
  ).toBeVisible();
  expect(await page.evaluate(() => window.localStorage.getItem('token'))).toBeNull();
  expect(await membersOf()).toEqual([]);

  // The other side: the account's own password. Signed in, the link is made and the person joins the company. The
  // company's button comes once the page has looked the address up, above 'Iniciar Sesión': waited for first, so the
  // click is not taken by it as it appears under the pointer.
  await expect(page.getByLabel('Email')).toHaveValue(who.email);
  await expect(companyButton).toBeVisible();
  await page.getByLabel('Contraseña', { exact: true }).fill(who.password);
  await page.getByRole('button', { name: 'Iniciar Sesión', exact: true }).click();
  await expect(page).toHaveURL(/\/apps$/);
  await expectSignedInAs(page, request, who.email);
  await expect.poll(membersOf, { message: 'the account joined the company once linked' }).toEqual([who.email]);

  // From now on the company's access alone signs this account in (the provider still knows the browser).
  await page.goto('/logout');
  await page.getByRole('button', { name: 'Cerrar sesión' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await portalReady(page);
  await page.getByLabel('Email').fill(who.email);
  await companyButton.click();
  await expect(page).toHaveURL(/\/apps$/);
  await expectSignedInAs(page, request, who.email);
});
