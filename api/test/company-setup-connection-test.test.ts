// 'Probar conexión' from a company's setup link: a real sign-in at the company's OpenID Connect provider, in test
// mode, that tells the setup page who came back and what is wrong, and creates no session, no account, no link. The
// attacks: a result read without the link, with another company's link, and a start forged or replayed for another.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { and, count, eq } from 'drizzle-orm';
import { auditLog, companyIdentities, companyLinkReturns, sessions, signInReturns, users } from '../src/db/schema.js';
import { buildTestApp, forEachBackend, login, type TestApp } from './helpers/app.js';
import { insertCompany, insertMember } from './helpers/company-fixtures.js';
import { OAuthBrowser } from './helpers/oauth-browser.js';
import { startIdentityProvider, type IdentityProvider } from './helpers/identity-provider.js';
import {
  base64,
  idpMetadata,
  readAuthnRequest,
  rsaSha1,
  type SigningAlgorithms,
  type SigningKey,
  signedResponse,
  signingKey,
} from './helpers/saml-idp.js';

const apiUrl = 'http://api.portal.test';
const portalUrl = 'http://portal.test';
const domain = 'prueba-andina.pe';
const clientSecret = 'secreto-de-la-prueba-de-conexion';

const samlEntity = 'http://adfs.prueba-andina.pe/adfs/services/trust';
const samlSso = 'https://adfs.prueba-andina.pe/adfs/ls/';

let idp: IdentityProvider;
let samlKey: SigningKey;
describe('company-setup-connection-test.test.ts', () => {
  before(async () => {
    samlKey = await signingKey('adfs.prueba-andina.pe');
    idp = await startIdentityProvider({
      kind: 'company',
      clientId: 'portal-prueba',
      clientSecret,
      redirectUris: [`${apiUrl}/auth/empresa/callback`],
    });
  });
  after(() => idp.close());

  forEachBackend((backend) => {
    let t: TestApp;
    let admin: string;
    let counter = 0;

    before(async () => {
      t = await buildTestApp(backend, {
        apiPublicUrl: apiUrl,
        portalUrl,
        authRateLimitPerMinute: 10_000,
        loginRateLimitPerMinute: 10_000,
      });
      admin = await login(t.app);
    });
    after(() => t.close());

    const bearer = (secret: string) => ({ authorization: `Bearer ${secret}` });

    /** A company with an owner's setup link (its secret) and, unless told, its provider connected for `domain`. */
    async function company(connect = true) {
      const companyId = await insertCompany(t.app, `Prueba Andina ${++counter}`);
      const owner = await insertMember(
        t.app,
        companyId,
        `duena${counter}-${randomUUID().slice(0, 6)}@otra.pe`,
        'propietario',
      );
      const made = await t.app.inject({
        method: 'POST',
        url: `/empresas/${companyId}/enlaces-configuracion`,
        headers: { authorization: `Bearer ${await owner.token()}` },
        payload: {},
      });
      assert.equal(made.statusCode, 201, made.body);
      const link = made.json<{ id: number; url: string }>();
      if (connect) {
        const saved = await t.app.inject({
          method: 'PUT',
          url: `/admin/empresas/${companyId}/proveedor`,
          headers: { authorization: `Bearer ${admin}` },
          payload: {
            issuer: idp.issuer,
            clientId: 'portal-prueba',
            clientSecret,
            dominios: [`${counter}-${domain}`],
            permitirContrasena: true,
          },
        });
        assert.equal(saved.statusCode, 200, saved.body);
      }
      return { companyId, linkId: link.id, secret: link.url.split('#')[1] ?? '', domain: `${counter}-${domain}` };
    }

    /** The test walked by a browser: started through the link, signed in at the provider, back on the setup page. */
    async function runTest(secret: string, account: string): Promise<URL> {
      const started = await t.app.inject({
        method: 'POST',
        url: '/configuracion-empresa/prueba',
        headers: bearer(secret),
      });
      assert.equal(started.statusCode, 201, started.body);
      const { url } = started.json<{ url: string }>();
      assert.ok(!url.includes('cfg_'), 'the start carries no link secret');
      const browser = new OAuthBrowser({ app: t.app, apiUrl, portalUrl });
      const provider = await browser.walk({ method: 'GET', url: new URL(url) });
      assert.ok('page' in provider, 'the provider asks the person to sign in');
      const back = await browser.walk({
        method: 'POST',
        url: provider.url,
        form: new URLSearchParams({ action: 'login', account }),
      });
      assert.ok('portal' in back, 'the provider sends the browser back');
      return back.portal;
    }

    const read = (secret: string, resultado: string) =>
      t.app.inject({
        method: 'POST',
        url: '/configuracion-empresa/prueba/resultado',
        headers: bearer(secret),
        payload: { resultado },
      });

    const rows = async () => ({
      users: (await t.app.db.select({ n: count() }).from(users))[0]?.n,
      sessions: (await t.app.db.select({ n: count() }).from(sessions))[0]?.n,
      identities: (await t.app.db.select({ n: count() }).from(companyIdentities))[0]?.n,
      returns: (await t.app.db.select({ n: count() }).from(signInReturns))[0]?.n,
      linkReturns: (await t.app.db.select({ n: count() }).from(companyLinkReturns))[0]?.n,
    });

    it('answers on the setup page who came back, with nothing wrong, and creates no account, session or link', async () => {
      const a = await company();
      const sub = `empleada-${randomUUID().slice(0, 8)}`;
      const email = `rosa.${sub}@${a.domain}`;
      idp.setAccount({ sub, email, givenName: 'Rosa', familyName: 'Huamán' });
      const before = await rows();
      const back = await runTest(a.secret, sub);
      assert.equal(back.pathname, '/configurar-empresa', back.href);
      const resultado = back.searchParams.get('prueba');
      assert.ok(resultado, back.href);
      assert.ok(!back.href.includes(email) && !back.href.includes('Rosa'), 'the address names no one');
      const answer = await read(a.secret, resultado);
      assert.equal(answer.statusCode, 200, answer.body);
      assert.deepEqual(answer.json(), {
        ok: true,
        protocolo: 'oidc',
        email,
        nombre: 'Rosa',
        apellido: 'Huamán',
        problemas: [],
      });
      assert.deepEqual(await rows(), before, 'no account, session, identity or return was made');
      const audit = await t.app.db
        .select({ details: auditLog.details })
        .from(auditLog)
        .where(and(eq(auditLog.action, 'company.setup_link_use'), eq(auditLog.companyId, a.companyId)));
      assert.ok(audit.some((row) => (row.details as { accion?: string }).accion === 'prueba_conexion'));
    });

    it("says what is wrong: an address outside the company's domains", async () => {
      const a = await company();
      const sub = `externo-${randomUUID().slice(0, 8)}`;
      idp.setAccount({ sub, email: `${sub}@gmail.com`, givenName: 'Ana', familyName: 'Quispe' });
      const back = await runTest(a.secret, sub);
      const answer = await read(a.secret, back.searchParams.get('prueba') ?? '');
      assert.equal(answer.statusCode, 200, answer.body);
      const result = answer.json<{ ok: boolean; email: string; problemas: string[] }>();
      assert.equal(result.ok, false);
      assert.equal(result.email, `${sub}@gmail.com`);
      assert.match(result.problemas[0] ?? '', /El dominio gmail\.com no está entre los de la empresa/);
    });

    it("refuses the result without the link, with another company's link, or altered", async () => {
      const a = await company();
      const b = await company();
      const sub = `rosa-${randomUUID().slice(0, 8)}`;
      idp.setAccount({ sub, email: `${sub}@${a.domain}`, givenName: 'Rosa', familyName: 'Huamán' });
      const resultado = (await runTest(a.secret, sub)).searchParams.get('prueba') ?? '';
      const none = await t.app.inject({
        method: 'POST',
        url: '/configuracion-empresa/prueba/resultado',
        payload: { resultado },
      });
      assert.equal(none.statusCode, 401, none.body);
      const other = await read(b.secret, resultado);
      assert.equal(other.statusCode, 404, other.body);
      assert.equal(other.json<{ code: string }>().code, 'PRUEBA_NO_ENCONTRADA');
      assert.ok(!other.body.includes(sub));
      const altered = await read(a.secret, `${resultado.slice(0, -2)}AA`);
      assert.equal(altered.statusCode, 404, altered.body);
    });

    it('starts nothing from a forged, altered or revoked start, and refuses a test without a provider', async () => {
      const a = await company();
      const started = await t.app.inject({
        method: 'POST',
        url: '/configuracion-empresa/prueba',
        headers: bearer(a.secret),
      });
      const url = new URL(started.json<{ url: string }>().url);
      const inicio = url.searchParams.get('inicio') ?? '';
      // Another link's number in front of this link's seal: does not open.
      const forged = `${a.linkId + 1000}${inicio.slice(inicio.indexOf('.'))}`;
      for (const value of [forged, `${inicio}x`, 'cualquier-cosa']) {
        const answer = await t.app.inject({
          method: 'GET',
          url: `/auth/empresa/prueba?inicio=${encodeURIComponent(value)}`,
        });
        assert.equal(answer.statusCode, 302);
        assert.equal(answer.headers.location, `${portalUrl}/configurar-empresa`);
      }
      const revoked = await t.app.inject({
        method: 'DELETE',
        url: `/empresas/${a.companyId}/enlaces-configuracion/${a.linkId}`,
        headers: { authorization: `Bearer ${admin}` },
      });
      assert.equal(revoked.statusCode, 204, revoked.body);
      const afterRevoke = await t.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` });
      assert.equal(afterRevoke.headers.location, `${portalUrl}/configurar-empresa`);

      const bare = await company(false);
      const refused = await t.app.inject({
        method: 'POST',
        url: '/configuracion-empresa/prueba',
        headers: bearer(bare.secret),
      });
      assert.equal(refused.statusCode, 409, refused.body);
      assert.equal(refused.json<{ code: string }>().code, 'SIN_PROVEEDOR');
    });

    it('tests a SAML provider the same way: a signed answer tells who came back, an unsigned or SHA-1 one what is wrong', async () => {
      const a = await company(false);
      const saved = await t.app.inject({
        method: 'PUT',
        url: `/admin/empresas/${a.companyId}/proveedor`,
        headers: { authorization: `Bearer ${admin}` },
        payload: {
          tipo: 'saml',
          metadata: idpMetadata({ entityId: samlEntity, ssoUrl: samlSso, certificates: [samlKey.certificate] }),
          dominios: [a.domain],
          permitirContrasena: true,
        },
      });
      assert.equal(saved.statusCode, 200, saved.body);
      const sp = {
        entityId: `${apiUrl}/auth/empresa/saml/${a.companyId}/metadata`,
        acsUrl: `${apiUrl}/auth/empresa/saml/${a.companyId}/acs`,
      };
      const email = `lucia.${randomUUID().slice(0, 6)}@${a.domain}`;
      /** The test started through the link, answered by the IdP with `signed`, back on the setup page. */
      const samlTest = async (signed: 'assertion' | 'none', algorithms?: SigningAlgorithms) => {
        const started = await t.app.inject({
          method: 'POST',
          url: '/configuracion-empresa/prueba',
          headers: bearer(a.secret),
        });
        assert.equal(started.statusCode, 201, started.body);
        const url = new URL(started.json<{ url: string }>().url);
        const toIdp = await t.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` });
        assert.equal(toIdp.statusCode, 302, toIdp.body);
        const request = readAuthnRequest(String(toIdp.headers.location));
        const xml = signedResponse(
          { issuer: samlEntity, ...sp, audience: sp.entityId, inResponseTo: request.id, nameId: email },
          samlKey,
          signed,
          algorithms,
        );
        const back = await t.app.inject({
          method: 'POST',
          url: `/auth/empresa/saml/${a.companyId}/acs`,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          payload: new URLSearchParams({ SAMLResponse: base64(xml), RelayState: '' }).toString(),
        });
        assert.equal(back.statusCode, 302, back.body);
        const landed = new URL(String(back.headers.location));
        assert.equal(landed.origin + landed.pathname, `${portalUrl}/configurar-empresa`, landed.href);
        const answer = await read(a.secret, landed.searchParams.get('prueba') ?? '');
        assert.equal(answer.statusCode, 200, answer.body);
        return answer.json<{ ok: boolean; protocolo: string; email: string | null; problemas: string[] }>();
      };
      const before = await rows();
      const good = await samlTest('assertion');
      assert.deepEqual(
        { ok: good.ok, protocolo: good.protocolo, email: good.email, problemas: good.problemas },
        { ok: true, protocolo: 'saml', email, problemas: [] },
      );
      const unsigned = await samlTest('none');
      assert.equal(unsigned.ok, false);
      assert.equal(unsigned.email, null);
      assert.match(unsigned.problemas[0] ?? '', /^El proveedor no completó el inicio de sesión: /);
      const sha1 = await samlTest('assertion', rsaSha1);
      assert.deepEqual({ ok: sha1.ok, email: sha1.email }, { ok: false, email: null });
      assert.equal(
        sha1.problemas[0],
        'El proveedor no completó el inicio de sesión: El proveedor firma con SHA-1, que ya no es seguro. Configúralo para firmar con RSA-SHA256.',
      );
      assert.deepEqual(await rows(), before, 'no account, session, identity or return was made');
    });
  });
});
