// SAML 2.0 both ways, with software this project did not write (e2e/support/saml-programs.ts), each program started
// once for this file. As a service provider: a company connects SimpleSAMLphp (its IdP, on another site) by pasting
// the IdP's metadata, imports the portal's SP metadata there, and a person of its domain types their email on /login,
// takes 'Continuar con el acceso de <empresa>', signs in at SimpleSAMLphp and lands on /apps with an account. What a
// thief or a forger posts to the portal's ACS is refused, each landing on /login with a Spanish message and no session:
// the person's own response posted again (replay), a response SimpleSAMLphp signed for another app (audience), and an
// unsigned response written by hand. The metadata's address works as well as its text. As an identity provider: Apache
// with mod_auth_mellon, registered by a platform administrator from its SP metadata and tied to an app, trusts
// GET /saml/idp/metadata; the person opens the app, signs in at the portal, allows it, and the app's page shows their
// email and plan; signing out of the portal ends the app's session too (a SOAP LogoutRequest, the SOAP line added to
// mellon's metadata by hand); a mellon SP registered with its own generated metadata (logout by HTTP-Redirect only)
// is signed out through the browser, its signed LogoutResponse checked by the portal. A mellon SP the portal does not
// know is sent a Spanish page at the portal and nothing else.
import { randomUUID } from 'node:crypto';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { BrowserContext, Page } from '@playwright/test';
import { expect, expectSignedInAs, person, portalReady, registerActive, test } from '../support/auth';
import { call as api } from '../support/api';
import { API_URL, E2E, HOST_URL } from '../support/env';
import { adminToken } from '../support/oidc';
import { type MellonApache, type SimpleSamlIdp, startMellon, startSimpleSamlIdp } from '../support/saml-programs';

/** Beto Pro, the catalogue's app 2: the partner app mellon stands for, and its PRO plan. */
const APP_ID = 2;
const COMPANY_AUTH_FAILED = 'No se pudo iniciar sesión con el acceso de tu empresa. Inténtalo de nuevo.';

/** The AuthnRequest of an HTTP-Redirect address (SAMLRequest: deflated, base64), as XML. */
function requestOf(address: string): string {
  const encoded = new URL(address).searchParams.get('SAMLRequest');
  if (!encoded) throw new Error(`no SAMLRequest in ${address}`);
  return inflateRawSync(Buffer.from(encoded, 'base64')).toString('utf8');
}

/** The same HTTP-Redirect address carrying another AuthnRequest (unsigned, as the portal sends its own). */
function withRequest(address: string, xml: string): string {
  const url = new URL(address);
  url.searchParams.set('SAMLRequest', deflateRawSync(Buffer.from(xml, 'utf8')).toString('base64'));
  return url.toString();
}

function attribute(xml: string, element: string, name: string): string {
  const found = new RegExp(`<(?:\\w+:)?${element}\\b[^>]*\\s${name}="([^"]*)"`).exec(xml);
  if (!found?.[1]) throw new Error(`no ${element}/@${name} in ${xml.slice(0, 400)}`);
  return found[1];
}

/**
 * A Response as an IdP would write it, every field right for this sign-in (the request it answers, the ACS, the
 * portal's entity ID, the IdP's entity ID, a time window around now) but with no signature at all.
 */
function unsignedResponse(fields: {
  inResponseTo: string;
  acsUrl: string;
  audience: string;
  issuer: string;
  email: string;
}): string {
  const now = new Date();
  const at = (ms: number) => new Date(now.getTime() + ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
  const id = () => `_${randomUUID().replace(/-/g, '')}`;
  return `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${id()}" Version="2.0" IssueInstant="${at(0)}" Destination="${fields.acsUrl}" InResponseTo="${fields.inResponseTo}"><saml:Issuer>${fields.issuer}</saml:Issuer><samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status><saml:Assertion ID="${id()}" Version="2.0" IssueInstant="${at(0)}"><saml:Issuer>${fields.issuer}</saml:Issuer><saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress">${fields.email}</saml:NameID><saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData NotOnOrAfter="${at(300_000)}" Recipient="${fields.acsUrl}" InResponseTo="${fields.inResponseTo}"/></saml:SubjectConfirmation></saml:Subject><saml:Conditions NotBefore="${at(-30_000)}" NotOnOrAfter="${at(300_000)}"><saml:AudienceRestriction><saml:Audience>${fields.audience}</saml:Audience></saml:AudienceRestriction></saml:Conditions><saml:AuthnStatement AuthnInstant="${at(0)}" SessionIndex="${id()}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:Password</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement><saml:AttributeStatement><saml:Attribute Name="email"><saml:AttributeValue>${fields.email}</saml:AttributeValue></saml:Attribute></saml:AttributeStatement></saml:Assertion></samlp:Response>`;
}

/** Whether the page holds a portal session. */
function tokenIn(page: Page): Promise<string | null> {
  return page.evaluate(() => window.localStorage.getItem('token'));
}

/**
 * A refused post to the ACS: the portal answers with /login and an error, and no return code a tab could redeem; that
 * page, opened, says why in Spanish and holds no session.
 */
async function expectRefused(context: BrowserContext, acsUrl: string, form: Record<string, string>, what: string) {
  const answer = await context.request.post(acsUrl, { form, maxRedirects: 0 });
  expect(answer.status(), `${what}: ${await answer.text()}`).toBeGreaterThanOrEqual(300);
  expect(answer.status(), what).toBeLessThan(400);
  const location = answer.headers().location ?? '';
  expect(location, what).toMatch(new RegExp(`^${HOST_URL}/login\\?error=`));
  const page = await context.newPage();
  try {
    await page.goto(location);
    await portalReady(page);
    await expect(page.getByText(COMPANY_AUTH_FAILED), what).toBeVisible();
    expect(await tokenIn(page), what).toBeNull();
  } finally {
    await page.close();
  }
}

test.describe("a company's SAML identity provider (SimpleSAMLphp) at /login", () => {
  let idp: SimpleSamlIdp;
  let failed = false;
  const id = randomUUID().slice(0, 6);
  // A registrable domain (decision 0076: `.test` is none), new each run.
  const domain = `acme-${id}.pe`;
  const ana = { email: `ana@${domain}`, password: 'Clave-de-Ana-1', givenName: 'Ana', familyName: 'Quispe' };

  test.beforeAll(async () => {
    // SimpleSAMLphp and Apache start here: past the default bound on a loaded machine.
    test.setTimeout(90_000);
    idp = await startSimpleSamlIdp({
      port: E2E.samlIdpPort,
      users: [
        {
          username: ana.email,
          password: ana.password,
          attributes: { email: [ana.email], mail: [ana.email], givenName: [ana.givenName], sn: [ana.familyName] },
        },
      ],
    });
  });
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a hook's fixtures from this pattern; it needs none.
  test.afterEach(async ({}, testInfo) => {
    if (testInfo.status === testInfo.expectedStatus) return;
    failed = true;
    for (const [name, text] of Object.entries(idp?.logs() ?? {}))
      await testInfo.attach(`simplesamlphp-${name}`, { body: text, contentType: 'text/plain' });
  });
  test.afterAll(async () => {
    await idp?.close(failed);
  });

  test("a person signs in with the company's SimpleSAMLphp and lands on /apps; a replayed, a foreign-audience and an unsigned response are refused", async ({
    browser,
    request,
  }) => {
    test.setTimeout(60_000);
    const company = `Acme Andina ${id}`;
    const admin = await adminToken();
    const { id: companyId } = await api<{ id: number }>(request, admin, 'POST', 'admin/empresas', 201, {
      nombre: company,
    });
    // The company's IT pastes the IdP's metadata; the portal answers its own SP for them to import.
    const sp = await api<{ entityId: string; acsUrl: string; metadataUrl: string }>(
      request,
      admin,
      'PUT',
      `admin/empresas/${companyId}/proveedor`,
      200,
      { tipo: 'saml', metadata: await idp.metadata(), dominios: [domain], permitirContrasena: false },
    );
    const lastError = async () =>
      (await api<{ ultimoError: string | null }>(request, admin, 'GET', `empresas/${companyId}/proveedor`, 200))
        .ultimoError;
    const spMetadata = await request.get(sp.metadataUrl);
    expect(spMetadata.status()).toBe(200);
    const spXml = await spMetadata.text();
    expect(attribute(spXml, 'EntityDescriptor', 'entityID')).toBe(sp.entityId);
    expect(attribute(spXml, 'AssertionConsumerService', 'Location')).toBe(sp.acsUrl);
    idp.trustServiceProvider(`portal-${companyId}`, spXml);
    // Another app of the company's IdP, whose ACS someone set to the portal's: its responses name another audience.
    const otherApp = `https://historiador-${id}.example/saml`;
    idp.trustServiceProvider(
      'otra-app',
      `<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="${otherApp}"><md:SPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol"><md:AssertionConsumerService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="${sp.acsUrl}" index="0"/></md:SPSSODescriptor></md:EntityDescriptor>`,
    );

    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      const posted: Record<string, string>[] = [];
      page.on('request', (sent) => {
        if (sent.method() === 'POST' && sent.url() === sp.acsUrl)
          posted.push(Object.fromEntries(new URLSearchParams(sent.postData() ?? '')));
      });
      const companyButton = page.getByRole('button', { name: `Continuar con el acceso de ${company}` });
      const startAt = async () => {
        await page.goto('/login');
        await portalReady(page);
        await page.getByLabel('Email').fill(ana.email);
        await companyButton.click();
      };

      // 1. The person: their work email, the company's button, SimpleSAMLphp's own form, /apps.
      const toIdp = page.waitForRequest((sent) => sent.url().startsWith(`${idp.url}/saml2/idp/SSOService.php`));
      await startAt();
      const authnRequest = requestOf((await toIdp).url());
      expect(attribute(authnRequest, 'AuthnRequest', 'AssertionConsumerServiceURL')).toBe(sp.acsUrl);
      await page.locator('#username').fill(ana.email);
      await page.locator('#password').fill(ana.password);
      await page.locator('#submit_button').click();
      await expect(page).toHaveURL(/\/apps$/);
      const presentation = page.getByRole('dialog');
      await expect(presentation).toBeVisible();
      await page.keyboard.press('Escape');
      await expect(page.getByRole('heading', { name: `¡Hola, ${ana.givenName} ${ana.familyName}!` })).toBeVisible();
      await expectSignedInAs(page, request, ana.email);
      expect(posted).toHaveLength(1);
      const [good] = posted as [Record<string, string>];
      expect(good.SAMLResponse).toBeTruthy();

      // 2. The person signs out of the portal (not of SimpleSAMLphp), so that what is checked next is that a refusal
      //    gives no session. The same response posted again, from the same browser: used once, refused now.
      await page.goto('/logout');
      await page.getByRole('button', { name: 'Cerrar sesión' }).click();
      await expect(page).toHaveURL(/\/login$/);
      expect(await tokenIn(page)).toBeNull();
      await expectRefused(context, sp.acsUrl, good, 'a replayed response');

      // 3. SimpleSAMLphp (the person is still signed in there) answering this browser's own request, but for the
      //    other app: signed by the company's IdP, addressed to the portal's ACS, the audience another app's. The
      //    portal's redirect to the IdP is taken as it comes (its cookies too) and sent on with that one change.
      const start = (url: URL) => url.href.startsWith(`${API_URL}/auth/empresa?`);
      await page.route(start, async (route) => {
        const answer = await route.fetch({ maxRedirects: 0 });
        const address = answer.headers().location ?? '';
        const xml = requestOf(address).replace(/(<(?:\w+:)?Issuer\b[^>]*>)[^<]*(<\/)/, `$1${otherApp}$2`);
        return route.fulfill({
          response: answer,
          headers: { ...answer.headers(), location: withRequest(address, xml) },
        });
      });
      await startAt();
      await expect(page).toHaveURL(/\/login\?error=/);
      await portalReady(page);
      await expect(page.getByText(COMPANY_AUTH_FAILED)).toBeVisible();
      expect(await tokenIn(page)).toBeNull();
      expect(posted, 'SimpleSAMLphp posted the foreign-audience response to the ACS').toHaveLength(2);
      // What the company's administrators read about it: the audience, and what to set at their IdP.
      expect(await lastError()).toBe(
        `La respuesta SAML iba dirigida a otra aplicación: el identificador (entity ID) de la aplicación en el proveedor debe ser ${sp.entityId}`,
      );
      await page.unroute(start);

      // 4. A response written by hand for this browser's pending request, right in every field but unsigned: the
      //    portal's redirect to the IdP is kept (its cookies too) and not followed.
      let started = '';
      await page.route(start, async (route) => {
        const answer = await route.fetch({ maxRedirects: 0 });
        started = answer.headers().location ?? '';
        const { location: _, ...headers } = answer.headers();
        return route.fulfill({ status: 204, headers });
      });
      await startAt();
      await expect.poll(() => started).not.toBe('');
      const pending = requestOf(started);
      await expectRefused(
        context,
        sp.acsUrl,
        {
          SAMLResponse: Buffer.from(
            unsignedResponse({
              inResponseTo: attribute(pending, 'AuthnRequest', 'ID'),
              acsUrl: sp.acsUrl,
              audience: sp.entityId,
              issuer: idp.entityId,
              email: ana.email,
            }),
          ).toString('base64'),
          ...(new URL(started).searchParams.get('RelayState')
            ? { RelayState: new URL(started).searchParams.get('RelayState') as string }
            : {}),
        },
        'an unsigned response',
      );
      expect(await lastError()).toBe(
        'La respuesta SAML no venía firmada con un certificado de los metadatos del proveedor: si el proveedor cambió de certificado, vuelve a pegar sus metadatos',
      );

      // 5. The company's IT may give the metadata's address instead of its text: SimpleSAMLphp's, read when saved.
      const byAddress = await api<{ entityId: string }>(
        request,
        admin,
        'PUT',
        `admin/empresas/${companyId}/proveedor`,
        200,
        { tipo: 'saml', urlMetadatos: idp.metadataUrl, dominios: [domain], permitirContrasena: false },
      );
      expect(byAddress.entityId).toBe(sp.entityId);
      const connection = await api<{ idp: { entityId: string; urlMetadatos: string | null } }>(
        request,
        admin,
        'GET',
        `empresas/${companyId}/proveedor`,
        200,
      );
      expect([connection.idp.urlMetadatos, connection.idp.entityId]).toEqual([idp.metadataUrl, idp.entityId]);
    } finally {
      await context.close();
    }
  });
});

test.describe('the portal as the SAML identity provider of a partner app (Apache with mod_auth_mellon)', () => {
  let mellon: MellonApache;
  let failed = false;

  test.beforeAll(async () => {
    // Apache with mellon starts here: past the default bound on a loaded machine.
    test.setTimeout(90_000);
    const metadata = await fetch(`${API_URL}/saml/idp/metadata`);
    if (!metadata.ok) throw new Error(`GET /saml/idp/metadata: ${metadata.status} ${await metadata.text()}`);
    mellon = await startMellon({
      port: E2E.mellonPort,
      idpMetadata: await metadata.text(),
      // `socio` and `navegador` are registered at the portal, `intruso` is not; `navegador` keeps mellon's own
      // metadata (its logout by HTTP-Redirect only), the others get the SOAP line.
      apps: ['socio', 'intruso', 'navegador'],
      attributes: ['email', 'nombre', 'apellido', 'plan', 'empresas'],
      soapLogout: ['socio', 'intruso'],
    });
  });
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a hook's fixtures from this pattern; it needs none.
  test.afterEach(async ({}, testInfo) => {
    if (testInfo.status === testInfo.expectedStatus) return;
    failed = true;
    for (const [name, text] of Object.entries(mellon?.logs() ?? {}))
      await testInfo.attach(`mellon-${name.replace('/', '-')}`, { body: text, contentType: 'text/plain' });
  });
  test.afterAll(async () => {
    await mellon?.close(failed);
  });

  test("a person opens mellon's app, signs in at the portal, allows it, and the app shows their email and plan; signing out of the portal signs them out of the app; an unregistered mellon gets a Spanish page and nothing", async ({
    page,
    request,
  }) => {
    test.setTimeout(60_000);
    const socio = mellon.sp('socio');
    const admin = await adminToken();
    const name = `Historiador de planta ${randomUUID().slice(0, 6)}`;
    const registered = await api<{ id: number; entityId: string }>(
      request,
      admin,
      'POST',
      'admin/aplicaciones-saml',
      201,
      {
        nombre: name,
        metadata: socio.metadata,
        appId: APP_ID,
      },
    );
    expect(registered.entityId).toBe(socio.entityId);

    // A person whose Beto Pro plan the administrator set to PRO.
    const who = person('saml-idp');
    await registerActive(request, who);
    const login = await request.post(`${API_URL}/auth/login`, { data: { email: who.email, password: who.password } });
    const { access_token: token } = (await login.json()) as { access_token: string };
    const me = (await (
      await request.get(`${API_URL}/auth/user`, { headers: { authorization: `Bearer ${token}` } })
    ).json()) as { id: number };
    const catalogue = await api<{ id: number; planes: { id: number; nombre: string }[] }[]>(
      request,
      admin,
      'GET',
      'apps/listar-con-planes',
      200,
    );
    const pro = catalogue.find((app) => app.id === APP_ID)?.planes.find((plan) => plan.nombre === 'PRO');
    expect(pro, 'the catalogue has Beto Pro PRO').toBeDefined();
    await api(request, admin, 'POST', 'plan-usuario/cambiar-plan-app', 200, {
      idUsuario: me.id,
      idApp: APP_ID,
      idPlan: pro?.id,
      fechaVencimiento: '2099-01-01T00:00:00.000Z',
    });

    // The app sends the browser to the portal (mellon's AuthnRequest, HTTP-Redirect); the person signs in there.
    await page.goto(socio.pageUrl);
    await expect(page).toHaveURL(new RegExp(`^${HOST_URL}/`));
    await portalReady(page);
    await page.getByLabel('Email').fill(who.email);
    await page.getByLabel('Contraseña', { exact: true }).fill(who.password);
    await page.getByRole('button', { name: 'Iniciar Sesión', exact: true }).click();
    // Not first-party: the same consent as an OpenID Connect app.
    await expect(page.getByRole('heading', { name: `${name} quiere acceder a tu cuenta` })).toBeVisible();
    await page.getByRole('button', { name: 'Permitir' }).click();
    await expect(page).toHaveURL(socio.pageUrl);
    await expect(page.locator('#email')).toHaveText(who.email.toLowerCase());
    await expect(page.locator('#plan')).toHaveText('PRO');
    await expect(page.locator('#nombre')).toHaveText(who.name);
    await expect(page.locator('#apellido')).toHaveText(who.lastName);
    expect(mellon.requests()).toContain('POST /socio/mellon/postResponse 303');

    // Signing out of the portal ends the app's session too: the portal posts mellon a LogoutRequest (SOAP).
    const signedInAtApp = await page.context().request.get(socio.pageUrl, { maxRedirects: 0 });
    expect(signedInAtApp.status()).toBe(200);
    await page.goto(`${HOST_URL}/logout`);
    await page.getByRole('button', { name: 'Cerrar sesión' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect
      .poll(async () => (await page.context().request.get(socio.pageUrl, { maxRedirects: 0 })).status(), {
        message: "mellon's session, once the person signed out of the portal",
        timeout: 20_000,
      })
      .toBe(303);
    expect(mellon.requests()).toContain('POST /socio/mellon/logout 200');

    // An app the portal does not know: a Spanish page at the portal, and no response to it at all.
    await page.goto(mellon.sp('intruso').pageUrl);
    await expect(page).toHaveURL(new RegExp(`^${API_URL}/saml/idp/sso\\?`));
    await expect(page.getByText('La aplicación que te envió aquí no está registrada en el portal.')).toBeVisible();
    expect(mellon.requests().filter((line) => line.startsWith('POST /intruso/'))).toEqual([]);
  });

  test("an app whose metadata is mellon's own (logout by HTTP-Redirect only): signing out of the portal takes the browser through mellon's logout, whose signed answer the portal checks, and on to /login", async ({
    page,
    request,
  }) => {
    test.setTimeout(60_000);
    const navegador = mellon.sp('navegador');
    expect(navegador.metadata).not.toContain('bindings:SOAP');
    const admin = await adminToken();
    const name = `Control de calidad ${randomUUID().slice(0, 6)}`;
    const registered = await api<{ id: number }>(request, admin, 'POST', 'admin/aplicaciones-saml', 201, {
      nombre: name,
      metadata: navegador.metadata,
    });
    const view = () =>
      api<{
        urlCierreSesion: string | null;
        urlCierreSesionNavegador: string | null;
        cierresPendientes: number;
        ultimoErrorCierre: string | null;
      }>(request, admin, 'GET', `admin/aplicaciones-saml/${registered.id}`, 200);
    expect(await view()).toMatchObject({
      urlCierreSesion: null,
      urlCierreSesionNavegador: `${mellon.url}/navegador/mellon/logout`,
    });

    const who = person('saml-navegador');
    await registerActive(request, who);
    await page.goto(navegador.pageUrl);
    await expect(page).toHaveURL(new RegExp(`^${HOST_URL}/`));
    await portalReady(page);
    await page.getByLabel('Email').fill(who.email);
    await page.getByLabel('Contraseña', { exact: true }).fill(who.password);
    await page.getByRole('button', { name: 'Iniciar Sesión', exact: true }).click();
    await expect(page.getByRole('heading', { name: `${name} quiere acceder a tu cuenta` })).toBeVisible();
    await page.getByRole('button', { name: 'Permitir' }).click();
    await expect(page).toHaveURL(navegador.pageUrl);
    await expect(page.locator('#email')).toHaveText(who.email.toLowerCase());
    expect((await page.context().request.get(navegador.pageUrl, { maxRedirects: 0 })).status()).toBe(200);

    // Every hop of the sign-out, as the browser takes it.
    const hops: string[] = [];
    page.on('response', (response) => {
      const url = new URL(response.url());
      hops.push(
        `${response.status()} ${url.origin}${url.pathname}${url.searchParams.has('SAMLResponse') ? '?SAMLResponse' : ''}`,
      );
    });
    await page.goto(`${HOST_URL}/logout`);
    await page.getByRole('button', { name: 'Cerrar sesión' }).click();
    await expect(page).toHaveURL(`${HOST_URL}/login`);
    await portalReady(page);
    expect(await tokenIn(page)).toBeNull();
    // Out through the chain, mellon's logout, mellon's LogoutResponse back to the portal (taken: a 303 on), /login.
    expect(hops).toEqual(
      expect.arrayContaining([`303 ${API_URL}/saml/idp/cierre`, `303 ${API_URL}/saml/idp/slo?SAMLResponse`]),
    );
    expect(mellon.requests().some((line) => /^GET \/navegador\/mellon\/logout 30[23]$/.test(line))).toBe(true);
    // mellon's session is gone: its page asks to sign in again.
    expect((await page.context().request.get(navegador.pageUrl, { maxRedirects: 0 })).status()).toBe(303);
    // The answer was verified and the logout counted as delivered.
    expect(await view()).toMatchObject({ cierresPendientes: 0, ultimoErrorCierre: null });
  });
});
