// A customer company end to end, as the people in it and a partner app see it: the vendor's administrator creates
// "Minera Andina S.A." and sells it 3 seats of Beto Pro's PRO plan, its owner accepts the invitation in a browser of
// their own, invites three people and hands out the seats (a fourth is offered none: no seat left), a member sees the
// plan on /apps and in a partner app signed in through the portal, and the seat taken back shows at the app's next
// refresh and on /apps.
import type { APIRequestContext, Browser, Page } from '@playwright/test';
import {
  expect,
  person,
  type Person,
  registerActive,
  seriousViolations,
  signInThroughForm,
  test,
} from '../support/auth';
import { API_URL, E2E, MAIL_DIR } from '../support/env';
import { mailsFor, readableText } from '../support/mail-sink';
import { adminToken } from '../support/oidc';
import { serverAppUris, startServerApp } from '../support/relying-parties/server-app';
import { signInAsAdmin } from '../support/session';

const COMPANY = 'Minera Andina S.A.';
/** Beto Pro, the app the licence is for (the catalogue's app 2), and the partner app's name for it. */
const APP_ID = 2;
const APP = 'Beto Pro';
const PARTNER_APP = 'Beto Pro (empresas)';

/** The invitation in the person's inbox: its code and the link to /invitacion, as the mail's text has them. */
async function invitationMail(email: string): Promise<{ code: string; link: string }> {
  let found: { code: string; link: string } | undefined;
  await expect
    .poll(
      () => {
        const mail = mailsFor(MAIL_DIR, email)
          .filter((m) => m.subject === `Invitación a ${COMPANY}`)
          .at(-1);
        const text = mail ? readableText(mail) : '';
        const code = /^\s{4}(\d{6})\s*$/m.exec(text)?.[1];
        const link = /(https?:\/\/\S+\/invitacion\?\S+)/.exec(text)?.[1];
        found = code && link ? { code, link } : undefined;
        return Boolean(found);
      },
      { message: `the invitation mail to ${email}`, timeout: 25_000 },
    )
    .toBe(true);
  return found as { code: string; link: string };
}

/** The company page's section, as its tab. */
async function openSection(page: Page, name: string): Promise<void> {
  await page.getByRole('tablist', { name: 'Secciones de la empresa' }).getByRole('tab', { name }).click();
  await expect(page.getByRole('heading', { level: 2, name })).toBeVisible();
}

/** 'Invitar' in the company's 'Invitaciones': one address with one role, sent. */
async function invite(page: Page, email: string, role: 'Propietario' | 'Miembro'): Promise<void> {
  await page.getByRole('button', { name: 'Invitar', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Invitar a la empresa' });
  await dialog.getByLabel('Email').fill(email);
  await dialog.getByLabel('Rol').selectOption({ label: role });
  await dialog.getByRole('button', { name: 'Enviar invitación' }).click();
  await expect(page.getByText(`Invitación enviada a ${email}`)).toBeVisible();
}

/** A member's seats dialog in 'Miembros', from their row's 'Puestos'. */
async function seatsDialog(page: Page, email: string) {
  await page.getByRole('button', { name: `Puestos de ${email}` }).click();
  return page.getByRole('dialog', { name: /^Puestos de / });
}

/** Registration through the API with the invitation's code (the code proves the address): an active member at once. */
async function registerWithInvitation(request: APIRequestContext, who: Person): Promise<void> {
  const { code } = await invitationMail(who.email);
  const response = await request.post(`${API_URL}/auth/register`, {
    data: {
      email: who.email,
      password: who.password,
      name: who.name,
      lastName: who.lastName,
      phone: '+51987654321',
      codigoInvitacion: code,
    },
  });
  expect(response.status(), await response.text()).toBe(201);
}

async function freshPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext();
  return context.newPage();
}

/** The person's own plan for Beto Pro, as the API names it (what the app shows once no seat gives PRO). */
async function ownPlanName(request: APIRequestContext, who: Person): Promise<string> {
  const login = await request.post(`${API_URL}/auth/login`, { data: { email: who.email, password: who.password } });
  expect(login.status(), await login.text()).toBe(200);
  const { access_token: token } = (await login.json()) as { access_token: string };
  const user = await request.get(`${API_URL}/auth/user`, { headers: { Authorization: `Bearer ${token}` } });
  const { planesUsuarios } = (await user.json()) as {
    planesUsuarios: { app: { id: number } | null; plan: { nombre: string } }[];
  };
  const own = planesUsuarios.find((entry) => entry.app?.id === APP_ID);
  expect(own, 'a new account holds a plan of Beto Pro').toBeDefined();
  return (own as { plan: { nombre: string } }).plan.nombre;
}

test('a company buys seats, its owner hands them out, a member gets the plan on /apps and in a partner app, and loses it at the next refresh once the seat is taken back', async ({
  page,
  request,
  browser,
}) => {
  test.setTimeout(120_000);
  const owner = person('propietaria');
  const members = [person('miembro-a'), person('miembro-b'), person('miembro-c')] as const;
  const [apiMemberA, apiMemberB, member] = members;

  // 1. The vendor: the company, its licence (3 seats of Beto Pro PRO for a year) and the owner's invitation.
  await signInAsAdmin(page, request);
  await page.goto('/admin');
  await expect(page.getByRole('heading', { name: 'Gestión de Usuarios' })).toBeVisible();
  await page
    .getByRole('navigation', { name: 'Panel de administración' })
    .getByRole('link', { name: 'Empresas' })
    .click();
  await expect(page.getByRole('heading', { level: 1, name: 'Empresas' })).toBeVisible();
  await page.getByRole('button', { name: 'Nueva empresa' }).click();
  const create = page.getByRole('dialog');
  await create.getByLabel('Nombre').fill(COMPANY);
  await create.getByRole('button', { name: 'Guardar' }).click();
  await expect(page.getByText(`Empresa «${COMPANY}» creada`)).toBeVisible();
  await page.getByRole('link', { name: COMPANY }).click();
  await expect(page.getByRole('heading', { level: 1, name: COMPANY })).toBeVisible();

  await openSection(page, 'Licencias');
  await page.getByRole('button', { name: 'Vender licencia' }).click();
  const sell = page.getByRole('dialog', { name: 'Vender licencia' });
  await sell.getByLabel('App').selectOption({ label: APP });
  await sell.getByLabel('Plan').selectOption({ label: 'PRO' });
  await sell.getByLabel('Puestos').fill('3');
  const yearAhead = new Date(Date.now() + 365 * 24 * 3600 * 1000).toISOString().slice(0, 10);
  await sell.getByLabel('Vencimiento').fill(yearAhead);
  await sell.getByRole('button', { name: 'Guardar' }).click();
  await expect(page.getByText('Licencia vendida')).toBeVisible();
  const licences = page.getByRole('table', { name: 'Licencias' });
  await expect(licences.getByRole('row').filter({ hasText: APP })).toContainText('PRO · 0 de 3 en uso · 3 libres');

  await openSection(page, 'Invitaciones');
  await invite(page, owner.email, 'Propietario');

  // 2. The owner, in a browser of their own: the mail's link, 'Crear cuenta', no emailed code, signed in on /apps.
  const ownerPage = await freshPage(browser);
  await ownerPage.goto((await invitationMail(owner.email)).link);
  await expect(ownerPage.getByText(`Esta invitación es para ${owner.email}`)).toBeVisible();
  await ownerPage.getByRole('button', { name: 'Crear cuenta' }).click();
  await expect(ownerPage).toHaveURL(/\/register\?/);
  await expect(ownerPage.getByLabel('Email')).toHaveValue(owner.email);
  await ownerPage.getByLabel('Nombre').fill(owner.name);
  await ownerPage.getByLabel('Apellido').fill(owner.lastName);
  await ownerPage.getByLabel('Teléfono', { exact: true }).fill('987 654 321');
  await ownerPage.getByRole('button', { name: 'Siguiente' }).click();
  await ownerPage.getByLabel('Contraseña', { exact: true }).fill(owner.password);
  await ownerPage.getByLabel('Confirmar contraseña').fill(owner.password);
  await ownerPage.getByRole('button', { name: 'Crear cuenta' }).click();
  // Invited to own it: straight to the company's page, where they run it (docs/decisions/0090).
  await expect(ownerPage).toHaveURL(/\/admin\/empresas\/\d+$/);
  await expect(ownerPage.getByRole('heading', { level: 1, name: COMPANY })).toBeVisible();
  await expect(ownerPage.getByText('Tu rol: Propietario')).toBeVisible();
  // The apps next: a new account's presentation goes first.
  await ownerPage.goto('/apps');
  const presentation = ownerPage.getByRole('dialog');
  await expect(presentation).toBeVisible();
  await ownerPage.keyboard.press('Escape');
  await expect(presentation).toBeHidden();

  // The admin panel from the avatar menu: their company only.
  await ownerPage.getByRole('button', { name: 'Menú de usuario' }).click();
  await ownerPage.getByRole('region', { name: 'Menú de usuario' }).getByRole('link', { name: 'Panel' }).click();
  await expect(ownerPage.getByRole('heading', { level: 1, name: COMPANY })).toBeVisible();
  await expect(ownerPage.getByText('Tu rol: Propietario')).toBeVisible();
  const ownerNav = ownerPage.getByRole('navigation', { name: 'Panel de administración' });
  await expect(ownerNav.getByRole('link')).toHaveText(['Empresa']);

  // 3. Three people invited as members: two register with the mail's code, one accepts from the notice on /apps.
  await openSection(ownerPage, 'Invitaciones');
  for (const invited of members) await invite(ownerPage, invited.email, 'Miembro');
  await registerWithInvitation(request, apiMemberA);
  await registerWithInvitation(request, apiMemberB);
  await registerActive(request, member);
  const freePlan = await ownPlanName(request, member);
  const memberPage = await freshPage(browser);
  await memberPage.goto('/login');
  await signInThroughForm(memberPage, member.email, member.password);
  await expect(memberPage).toHaveURL(/\/apps$/);
  await expect(memberPage.getByRole('dialog')).toBeVisible();
  await memberPage.keyboard.press('Escape');
  await memberPage.getByRole('button', { name: `Aceptar la invitación de ${COMPANY}` }).click();
  await expect(memberPage.getByRole('region', { name: 'Avisos de empresas' })).toContainText(COMPANY);
  await expect(memberPage.getByRole('button', { name: `Aceptar la invitación de ${COMPANY}` })).toBeHidden();

  // The seats, from each member's row.
  await openSection(ownerPage, 'Miembros');
  for (const invited of members) {
    const seats = await seatsDialog(ownerPage, invited.email);
    await seats.getByRole('button', { name: `Asignar puesto de ${APP}` }).click();
    await expect(seats.getByText(`Puesto de ${APP} asignado`)).toBeVisible();
    await seats.getByRole('button', { name: 'Cerrar' }).click();
    await expect(seats).toBeHidden();
  }
  // The fourth (the owner's own): no seat left, 'Asignar' greyed out, saying why and what to do; nothing is sent.
  const ownSeat = await seatsDialog(ownerPage, owner.email);
  await expect(ownSeat).toContainText('3 de 3 en uso · 0 libres');
  const assignOwn = ownSeat.getByRole('button', { name: `Asignar puesto de ${APP}` });
  await expect(assignOwn).toBeDisabled();
  await expect(assignOwn).toHaveAccessibleDescription(
    `No quedan puestos libres de ${APP}: quita el suyo a otra persona o pide más.`,
  );
  await ownSeat.getByRole('button', { name: 'Cerrar' }).click();

  // 4. The member's /apps: Beto Pro's PRO plan, and where it comes from.
  await memberPage.reload();
  const ownPlans = memberPage.getByRole('region', { name: 'Tus Aplicaciones' });
  await expect(ownPlans.getByRole('listitem').filter({ hasText: `${APP}: PRO` })).toContainText(`Puesto de ${COMPANY}`);
  // The company pays for it: the app's card names the seat instead of offering 'Mejorar Plan'.
  const seatCard = memberPage.getByRole('article', { name: APP });
  await expect(seatCard).toContainText(`Tu plan PRO te lo da un puesto de ${COMPANY}`);
  await expect(seatCard.getByRole('button', { name: `Mejorar Plan de ${APP}` })).toHaveCount(0);

  // 5. A partner server app asking for `organization`, signed in through the portal with offline access.
  const admin = await adminToken();
  const appUrl = `http://127.0.0.1:${E2E.companyAppPort}`;
  const scopes = ['openid', 'profile', 'email', 'plan', 'organization', 'offline_access'];
  const registered = await request.post(`${API_URL}/admin/clientes-oidc`, {
    headers: { Authorization: `Bearer ${admin}` },
    data: {
      nombre: PARTNER_APP,
      redirectUris: [serverAppUris(appUrl).redirectUri],
      backchannelLogoutUri: serverAppUris(appUrl).backchannelLogoutUri,
      primeraParte: true,
      appId: APP_ID,
      scopes,
    },
  });
  expect(registered.status(), await registered.text()).toBe(201);
  const client = (await registered.json()) as { clientId: string; clientSecret: string };
  const partner = await startServerApp({
    port: E2E.companyAppPort,
    title: PARTNER_APP,
    issuer: API_URL,
    clientId: client.clientId,
    clientSecret: client.clientSecret,
    scopes,
  });
  try {
    await memberPage.goto(partner.url);
    await memberPage.getByRole('link', { name: 'Entrar con acceso sin conexión' }).click();
    await expect(memberPage.getByText(`Sesión en la app: ${member.email}`)).toBeVisible();
    await expect(memberPage.getByText('Plan: PRO')).toBeVisible();
    await expect(memberPage.getByText(`Empresas: ${COMPANY} (miembro)`)).toBeVisible();

    // 6. The owner takes that member's seat back; the app's next refresh names the member's own plan.
    const seats = await seatsDialog(ownerPage, member.email);
    await seats.getByRole('button', { name: `Quitar puesto de ${APP}` }).click();
    await expect(seats.getByText(`Puesto de ${APP} quitado`)).toBeVisible();
    await seats.getByRole('button', { name: 'Cerrar' }).click();

    await memberPage.getByRole('button', { name: 'Renovar tokens' }).click();
    await expect(memberPage.getByText('Tokens renovados')).toBeVisible();
    await expect(memberPage.getByText(`Plan: ${freePlan}`, { exact: true })).toBeVisible();
    await expect(memberPage.getByText(`Empresas: ${COMPANY} (miembro)`)).toBeVisible();
  } finally {
    await partner.close();
    await request.delete(`${API_URL}/admin/clientes-oidc/${encodeURIComponent(client.clientId)}`, {
      headers: { Authorization: `Bearer ${admin}` },
    });
  }
  // /apps again: every plan of the member is their own free one now, and nothing names the company's seat.
  await memberPage.goto('/apps');
  await expect(memberPage.getByText('Plan gratuito', { exact: true })).toBeVisible();
  await expect(memberPage.getByText(`Puesto de ${COMPANY}`)).toHaveCount(0);
  await expect(memberPage.getByRole('button', { name: `Mejorar Plan de ${APP}` })).toBeVisible();

  // The company page at a phone's width: no serious axe violation.
  await ownerPage.setViewportSize({ width: 390, height: 844 });
  await expect(ownerPage.getByRole('table', { name: 'Tabla de miembros' })).toBeVisible();
  expect(await seriousViolations(ownerPage)).toEqual([]);
});
