// An app's roles enforced by software this project did not write (e2e/support/apache-programs.ts), each program started
// once for this file. The platform administrator defines 'supervisor' and 'operador' on TX30, a paid app of the
// catalogue, and sells a company a licence of it; the company's owner gives a supervisor and an operator a seat each
// and their role, through the routes the company panel uses (a member without a seat: 409 SIN_PUESTO; a role TX30 does
// not have: 400 ROL_DESCONOCIDO). Apache guards `/supervision/` by that role twice over: mod_auth_openidc, a client of
// the portal with the scope `roles`, by `Require claim roles:supervisor`; mod_auth_mellon, an SP tied to TX30, by
// `MellonCond "roles" "supervisor"`. In Chromium the supervisor signs in at the portal and sees the page, the
// operator is kept out with Apache's 403; each sees their own key in `roles` on the app's page.
// mellon's `/consignas/` also asks for the REFEDS MFA profile (RequestedAuthnContext): a person with an authenticator
// app but a password-only session is asked the code at the portal first; one with no second factor who cancels sends
// mellon Responder/NoAuthnContext, and stays out (docs/decisions/0137-step-up.md).
import type { APIRequestContext, Browser } from '@playwright/test';
import { expect, person, type Person, registerActive, signInThroughForm, test } from '../support/auth';
import { openidcRedirectUri, type RoleApp, startMellonRoleApp, startOpenidcRoleApp } from '../support/apache-programs';
import { call } from '../support/api';
import { API_URL, E2E, HOST_URL } from '../support/env';
import { adminToken } from '../support/oidc';
import { codeAt, totpElsewhere } from '../support/totp';

/** TX30, the catalogue's app 3: paid (its PRO plan), and tied to no other spec's partner apps. */
const APP_ID = 3;
const ROLES = [
  { clave: 'supervisor', nombre: 'Supervisor', descripcion: 'Cambia las consignas' },
  { clave: 'operador', nombre: 'Operador', descripcion: 'Reconoce las alarmas' },
];

/** A person with an active account: their token and id. */
async function account(request: APIRequestContext, label: string): Promise<Person & { token: string; id: number }> {
  const who = person(label);
  await registerActive(request, who);
  const login = await request.post(`${API_URL}/auth/login`, { data: { email: who.email, password: who.password } });
  expect(login.status(), await login.text()).toBe(200);
  const { access_token: token } = (await login.json()) as { access_token: string };
  const { id } = await call<{ id: number }>(request, token, 'GET', 'auth/user', 200);
  return { ...who, token, id };
}

/**
 * The person opens the app's page in a browser of their own, signs in at the portal, and lands back on the app: the
 * page's answer (its status, the `roles` it shows), then the app's other page in the same session.
 */
async function visit(browser: Browser, who: Person, first: string, then: string) {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(first);
    await expect(page).toHaveURL(new RegExp(`^${HOST_URL}/login`));
    await signInThroughForm(page, who.email, who.password);
    await expect(page).toHaveURL(first);
    const firstRoles = await page.locator('#roles').textContent();
    const firstEmail = await page.locator('#email').textContent();
    const second = await page.goto(then);
    return {
      first: { email: firstEmail, roles: firstRoles },
      second: { status: second?.status(), roles: second?.ok() ? await page.locator('#roles').textContent() : null },
    };
  } finally {
    await context.close();
  }
}

test.describe("an app's roles enforced by Apache: mod_auth_openidc and mod_auth_mellon", () => {
  let openidc: RoleApp;
  let mellon: Awaited<ReturnType<typeof startMellonRoleApp>>;
  let clientId = '';
  let samlAppId = 0;
  let setpointsAppId = 0;
  let supervisor: Person;
  let operator: Person;
  let failed = false;

  test.beforeAll(async ({ playwright }) => {
    test.setTimeout(90_000);
    const request = await playwright.request.newContext();
    try {
      const admin = await adminToken();
      for (const role of ROLES) await call(request, admin, 'POST', `admin/apps/${APP_ID}/roles`, 201, role);
      const catalogue = await call<{ id: number; planes: { id: number; nombre: string }[] }[]>(
        request,
        admin,
        'GET',
        'apps/listar-con-planes',
        200,
      );
      const pro = catalogue.find((app) => app.id === APP_ID)?.planes.find((plan) => plan.nombre === 'PRO');
      if (!pro) throw new Error('el catálogo no tiene TX30 PRO');
      const { id: companyId } = await call<{ id: number }>(request, admin, 'POST', 'admin/empresas', 201, {
        nombre: `Minera Los Andes ${Date.now().toString(36)} S.A.`,
      });
      await call(request, admin, 'POST', `admin/empresas/${companyId}/licencias`, 201, {
        idApp: APP_ID,
        idPlan: pro.id,
        puestos: 3,
        fechaVencimiento: '2099-01-01T00:00:00.000Z',
      });
      const [owner, sup, op, seatless] = await Promise.all(
        ['duena-roles', 'supervisora', 'operador', 'sin-puesto'].map((label) => account(request, label)),
      );
      if (!owner || !sup || !op || !seatless) throw new Error('faltan cuentas');
      supervisor = sup;
      operator = op;
      // The owner, invited by the platform administrator, invites the others; each accepts with their own account.
      const join = async (inviter: string, who: { email: string; token: string }, rol: string) => {
        const invited = await call<{ id: number }>(
          request,
          inviter,
          'POST',
          `empresas/${companyId}/invitaciones`,
          201,
          {
            email: who.email,
            rol,
          },
        );
        await call(request, who.token, 'POST', 'empresas/invitaciones/aceptar', 200, { idInvitacion: invited.id });
      };
      await join(admin, owner, 'propietario');
      for (const who of [sup, op, seatless]) await join(owner.token, who, 'miembro');
      const roles = (who: { id: number }, body: unknown, expected: number) =>
        call<{ code?: string; idApp?: number; roles?: string[] }>(
          request,
          owner.token,
          'PUT',
          `empresas/${companyId}/miembros/${who.id}/roles-app/${APP_ID}`,
          expected,
          body,
        );
      for (const [who, role] of [
        [sup, 'supervisor'],
        [op, 'operador'],
      ] as const) {
        await call(request, owner.token, 'POST', `empresas/${companyId}/puestos`, 201, {
          idUsuario: who.id,
          idApp: APP_ID,
        });
        expect(await roles(who, { roles: [role] }, 200)).toEqual({ idApp: APP_ID, roles: [role] });
      }
      // Refused, nothing changed: a member with no seat of TX30, and a role TX30 does not have.
      expect((await roles(seatless, { roles: ['operador'] }, 409)).code).toBe('SIN_PUESTO');
      expect((await roles(op, { roles: ['ingeniero'] }, 400)).code).toBe('ROL_DESCONOCIDO');
      const held = await call<{ data: { idApp: number; roles: string[] }[] }>(
        request,
        owner.token,
        'GET',
        `empresas/${companyId}/miembros/${op.id}/roles-app`,
        200,
      );
      expect(held.data.map(({ idApp, roles }) => ({ idApp, roles }))).toEqual([{ idApp: APP_ID, roles: ['operador'] }]);

      // The partner app, registered as an administrator does: an OpenID Connect client with the scope `roles`…
      const client = await call<{ clientId: string; clientSecret: string }>(
        request,
        admin,
        'POST',
        'admin/clientes-oidc',
        201,
        {
          nombre: 'TX30 Supervisión (Apache)',
          redirectUris: [openidcRedirectUri(E2E.roleOpenidcPort)],
          primeraParte: true,
          appId: APP_ID,
          scopes: ['openid', 'email', 'roles'],
        },
      );
      clientId = client.clientId;
      const metadata = await request.get(`${API_URL}/saml/idp/metadata`);
      expect(metadata.status()).toBe(200);
      [openidc, mellon] = await Promise.all([
        startOpenidcRoleApp({
          port: E2E.roleOpenidcPort,
          issuer: API_URL,
          clientId: client.clientId,
          clientSecret: client.clientSecret,
          scope: 'openid email roles',
          role: 'supervisor',
        }),
        startMellonRoleApp({ port: E2E.roleMellonPort, idpMetadata: await metadata.text(), role: 'supervisor' }),
      ]);
      // …and a SAML service provider tied to TX30.
      ({ id: samlAppId } = await call<{ id: number }>(request, admin, 'POST', 'admin/aplicaciones-saml', 201, {
        nombre: 'TX30 Supervisión (mellon)',
        metadata: mellon.sp.metadata,
        appId: APP_ID,
        primeraParte: true,
      }));
      // The setpoints page is an SP of its own, asking for the REFEDS MFA profile.
      ({ id: setpointsAppId } = await call<{ id: number }>(request, admin, 'POST', 'admin/aplicaciones-saml', 201, {
        nombre: 'TX30 Consignas (mellon)',
        metadata: mellon.setpointsSp.metadata,
        appId: APP_ID,
        primeraParte: true,
      }));
    } finally {
      await request.dispose();
    }
  });
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a hook's fixtures from this pattern; it needs none.
  test.afterEach(async ({}, testInfo) => {
    if (testInfo.status === testInfo.expectedStatus) return;
    failed = true;
    for (const [program, app] of [
      ['openidc', openidc],
      ['mellon', mellon],
    ] as const)
      for (const [name, text] of Object.entries(app?.logs() ?? {}))
        await testInfo.attach(`${program}-${name.replace('/', '-')}`, { body: text, contentType: 'text/plain' });
  });
  test.afterAll(async ({ playwright }) => {
    await Promise.all([openidc?.close(failed), mellon?.close(failed)]);
    // The product is shared with the specs that run after this one (and with this file's second try, after a failure
    // restarts the worker): TX30 without roles, the client and the SAML app gone.
    const request = await playwright.request.newContext();
    const admin = await adminToken();
    const gone = [
      ...ROLES.map(({ clave }) => `admin/apps/${APP_ID}/roles/${clave}`),
      ...(clientId ? [`admin/clientes-oidc/${encodeURIComponent(clientId)}`] : []),
      ...(samlAppId ? [`admin/aplicaciones-saml/${samlAppId}`] : []),
      ...(setpointsAppId ? [`admin/aplicaciones-saml/${setpointsAppId}`] : []),
    ];
    for (const url of gone)
      await request.delete(`${API_URL}/${url}`, { headers: { authorization: `Bearer ${admin}` } });
    await request.dispose();
  });

  for (const [software, app] of [
    ['mod_auth_openidc (Require claim roles:supervisor)', () => openidc],
    ['mod_auth_mellon (MellonCond "roles" "supervisor")', () => mellon],
  ] as const)
    test(`Apache with ${software}: the supervisor sees /supervision, the operator gets 403; each sees their own key in roles`, async ({
      browser,
    }) => {
      test.setTimeout(60_000);
      const { supervisionUrl, accountUrl } = app();
      const sup = await visit(browser, supervisor, supervisionUrl, accountUrl);
      expect(sup).toEqual({
        first: { email: supervisor.email.toLowerCase(), roles: 'supervisor' },
        second: { status: 200, roles: 'supervisor' },
      });
      const op = await visit(browser, operator, accountUrl, supervisionUrl);
      expect(op).toEqual({
        first: { email: operator.email.toLowerCase(), roles: 'operador' },
        second: { status: 403, roles: null },
      });
    });

  test('Apache with mod_auth_mellon asking the REFEDS MFA profile: the portal asks the second factor; without one, mellon lets nobody in', async ({
    browser,
    request,
  }) => {
    test.setTimeout(90_000);
    // Each signs in at the portal with the password only; the operator then sets up an authenticator app elsewhere.
    const signedIn = async (who: Person) => {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(`${HOST_URL}/login`);
      await signInThroughForm(page, who.email, who.password);
      await expect(page).toHaveURL(/\/apps$/);
      return { context, page };
    };
    const op = await signedIn(operator);
    try {
      const secret = await totpElsewhere(request, operator);
      await op.page.goto(mellon.setpointsUrl);
      await expect(op.page.getByRole('heading', { name: 'Confirma tu identidad' })).toBeVisible();
      await expect(
        op.page.getByText('TX30 Consignas (mellon) pide que confirmes tu identidad con tu segundo factor.'),
      ).toBeVisible();
      await op.page.getByLabel('Código de verificación').fill(await codeAt(secret, 1));
      await op.page.getByRole('button', { name: 'Verificar' }).click();
      // mellon checked the assertion's class itself: https://refeds.org/profile/mfa, or Apache's 403.
      await expect(op.page).toHaveURL(mellon.setpointsUrl);
      await expect(op.page.locator('#email')).toHaveText(operator.email.toLowerCase());
    } finally {
      await op.context.close();
    }

    const sup = await signedIn(supervisor);
    try {
      await sup.page.goto(mellon.setpointsUrl);
      await expect(sup.page.getByText(/pide un segundo factor y aún no tienes uno/)).toBeVisible();
      const answered = sup.page.waitForResponse((response) =>
        response.url().includes('/consignas/mellon/postResponse'),
      );
      await sup.page.getByRole('button', { name: 'Cancelar' }).click();
      // Responder/NoAuthnContext: mellon refuses the sign-in, and the page stays closed.
      expect((await answered).status()).toBe(401);
      await expect(sup.page.locator('#email')).toHaveCount(0);
    } finally {
      await sup.context.close();
    }
  });
});
