// A company's own sign-in, as its owners and platform administrators connect it (PUT/GET/DELETE
// /empresas/:id/proveedor, PUT/DELETE /admin/empresas/:id/proveedor): who may, which domains, the sealed secret, the
// discovery read before saving, and the last failure shown to the company's administrators.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { and, eq } from 'drizzle-orm';
import { auditLog, companyDomains, companyIdentities, companyIdentityProviders } from '../src/db/schema.js';
import { openSecret, connectionSecretKey } from '../src/domain/companies/sso/secret.js';
import { buildTestApp, forEachBackend, login, type TestApp } from './helpers/app.js';
import { call, insertCompany, insertMember } from './helpers/company-fixtures.js';
import { companySignIn, OAuthBrowser } from './helpers/company-sso.js';
import { startIdentityProvider, type IdentityProvider } from './helpers/identity-provider.js';
import { collectingLogs, textsOf } from './helpers/logs.js';

const apiUrl = 'http://api.portal.test';
const portalUrl = 'http://portal.test';
const secret = 'secreto-del-cliente-que-nadie-debe-leer';
const otherSecret = 'otro-secreto-del-cliente-nadie-lo-lee';

let idp: IdentityProvider;
describe('company-sso-connection.test.ts', () => {
  before(async () => {
    idp = await startIdentityProvider({
      kind: 'company',
      clientId: 'portal-empresa',
      clientSecret: secret,
      redirectUris: [`${apiUrl}/auth/empresa/callback`],
    });
  });
  after(() => idp.close());

  forEachBackend((backend) => {
    let t: TestApp;
    let admin: string;
    const logs = collectingLogs();
    const answers: string[] = [];
    before(async () => {
      t = await buildTestApp(backend, { apiPublicUrl: apiUrl, portalUrl, logLevel: 'info' }, { logStream: logs });
      admin = await login(t.app);
    });
    after(() => t.close());

    const body = (overrides: Record<string, unknown> = {}) => ({
      issuer: idp.issuer,
      clientId: 'portal-empresa',
      clientSecret: secret,
      dominios: ['constructora-lima.pe'],
      permitirContrasena: true,
      ...overrides,
    });
    const send = async (method: string, url: string, token: string | undefined, payload?: unknown) => {
      const response = await call(t.app, method, url, token, payload);
      answers.push(response.body);
      return response;
    };
    const refused = (response: { statusCode: number; json(): { code?: string } }, status: number, code: string) => {
      assert.equal(response.statusCode, status, JSON.stringify(response.json()));
      assert.equal(response.json().code, code);
    };
    const proveDomain = (companyId: number, domain: string, proved = true) =>
      t.app.db.insert(companyDomains).values({
        companyId,
        domain,
        verificationToken: `token-${domain}`,
        ...(proved && { verifiedAt: new Date(), verifiedBy: 'dns' as const }),
      });

    it('a platform administrator connects a company: proves its domains, seals the secret, never answers it', async () => {
      const company = await insertCompany(t.app, 'Constructora Lima');
      const saved = await send('PUT', `/admin/empresas/${company}/proveedor`, admin, body());
      assert.equal(saved.statusCode, 200, saved.body);
      assert.deepEqual(saved.json(), { redirectUri: `${apiUrl}/auth/empresa/callback` });
      const [domain] = await t.app.db.select().from(companyDomains).where(eq(companyDomains.companyId, company));
      assert.equal(domain?.domain, 'constructora-lima.pe');
      assert.equal(domain?.verifiedBy, 'admin');
      assert.ok(domain?.verifiedAt);

      const [row] = await t.app.db
        .select()
        .from(companyIdentityProviders)
        .where(eq(companyIdentityProviders.companyId, company));
      assert.ok(row?.clientSecretSealed);
      const sealed = row.clientSecretSealed;
      assert.ok(!sealed.includes(secret), 'the sealed value is not the secret');
      assert.ok(
        !Buffer.from(sealed.split('.').at(-1) ?? '', 'base64url')
          .toString()
          .includes(secret),
      );
      const key = connectionSecretKey(t.signingKey.privateKey);
      assert.equal(openSecret(key, company, sealed), secret);
      assert.throws(() => openSecret(key, company + 1, sealed), 'bound to its company');

      const read = await send('GET', `/empresas/${company}/proveedor`, admin);
      assert.equal(read.statusCode, 200);
      const view = read.json();
      assert.deepEqual(
        { ...view, actualizado: undefined },
        {
          tipo: 'oidc',
          issuer: idp.issuer,
          clientId: 'portal-empresa',
          dominios: ['constructora-lima.pe'],
          permitirContrasena: true,
          redirectUri: `${apiUrl}/auth/empresa/callback`,
          ultimoError: null,
          ultimoErrorEn: null,
          ultimoAcceso: null,
          actualizado: undefined,
        },
      );
      const [audit] = await t.app.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.companyId, company), eq(auditLog.action, 'company.provider_update')));
      assert.deepEqual(audit?.details, {
        issuer: idp.issuer,
        clientId: 'portal-empresa',
        dominios: ['constructora-lima.pe'],
        permitirContrasena: true,
        secretoCambiado: true,
        fuente: 'administrador',
      });

      // An update without the secret keeps it; with one, replaces it.
      const kept = await send(
        'PUT',
        `/admin/empresas/${company}/proveedor`,
        admin,
        body({ clientSecret: undefined, permitirContrasena: false }),
      );
      assert.equal(kept.statusCode, 200, kept.body);
      const [after1] = await t.app.db
        .select()
        .from(companyIdentityProviders)
        .where(eq(companyIdentityProviders.companyId, company));
      assert.equal(openSecret(key, company, after1?.clientSecretSealed ?? ''), secret);
      assert.equal(after1?.allowPassword, false);
      assert.equal(
        (await send('PUT', `/admin/empresas/${company}/proveedor`, admin, body({ clientSecret: otherSecret })))
          .statusCode,
        200,
      );
      const [after2] = await t.app.db
        .select()
        .from(companyIdentityProviders)
        .where(eq(companyIdentityProviders.companyId, company));
      assert.equal(openSecret(key, company, after2?.clientSecretSealed ?? ''), otherSecret);
    });

    it('a new connection needs its secret; bad issuers, domains and unreachable providers are 400, nothing saved', async () => {
      const company = await insertCompany(t.app, 'Agrícola Ica');
      const url = `/admin/empresas/${company}/proveedor`;
      refused(
        await send('PUT', url, admin, body({ clientSecret: undefined, dominios: ['agricola-ica.pe'] })),
        400,
        'SECRETO_OBLIGATORIO',
      );
      refused(
        await send('PUT', url, admin, body({ issuer: 'http://idp.example.com', dominios: ['agricola-ica.pe'] })),
        400,
        'EMISOR_INVALIDO',
      );
      refused(
        await send('PUT', url, admin, body({ issuer: 'no es una url', dominios: ['agricola-ica.pe'] })),
        400,
        'EMISOR_INVALIDO',
      );
      refused(await send('PUT', url, admin, body({ dominios: [] })), 400, 'VALIDATION_ERROR');
      refused(
        await send('PUT', url, admin, body({ dominios: Array.from({ length: 21 }, (_, i) => `d${i}.pe`) })),
        400,
        'VALIDATION_ERROR',
      );
      refused(await send('PUT', url, admin, body({ dominios: ['gmail.com'] })), 400, 'DOMINIO_PUBLICO');
      // A provider's parent shared by its tenants: a platform administrator's call cannot name it either.
      refused(await send('PUT', url, admin, body({ dominios: ['onmicrosoft.com'] })), 400, 'DOMINIO_PUBLICO');
      const closed = await startIdentityProvider({
        kind: 'company',
        clientId: 'x',
        clientSecret: 'y',
        redirectUris: [],
      });
      const gone = closed.issuer;
      await closed.close();
      const unreachable = await send('PUT', url, admin, body({ issuer: gone, dominios: ['agricola-ica.pe'] }));
      refused(unreachable, 400, 'PROVEEDOR_INALCANZABLE');
      assert.ok(
        unreachable.json().message.includes(`${gone}/.well-known/openid-configuration`),
        unreachable.json().message,
      );
      assert.equal(
        (await t.app.db.select().from(companyDomains).where(eq(companyDomains.companyId, company))).length,
        0,
      );
      refused(await send('GET', `/empresas/${company}/proveedor`, admin), 404, 'SIN_PROVEEDOR');
    });

    it('an owner connects only domains the company proved; an owner of another company, an administrador or a miembro cannot', async () => {
      const a = await insertCompany(t.app, 'Pesquera Norte');
      const b = await insertCompany(t.app, 'Pesquera Sur');
      const ownerA = await insertMember(t.app, a, 'duena@pesquera-norte.pe', 'propietario');
      const managerA = await insertMember(t.app, a, 'admin@pesquera-norte.pe', 'administrador');
      const memberA = await insertMember(t.app, a, 'miembro@pesquera-norte.pe', 'miembro');
      const ownerB = await insertMember(t.app, b, 'dueno@pesquera-sur.pe', 'propietario');
      await proveDomain(a, 'pesquera-norte.pe');
      await proveDomain(a, 'pesquera-norte.com', false);
      const url = `/empresas/${a}/proveedor`;
      const input = body({ dominios: ['Pesquera-Norte.PE'] });

      refused(await send('PUT', url, await ownerB.token(), input), 403, 'FORBIDDEN');
      refused(await send('PUT', url, await managerA.token(), input), 403, 'FORBIDDEN');
      refused(await send('PUT', url, await memberA.token(), input), 403, 'FORBIDDEN');
      refused(await send('PUT', url, undefined, input), 401, 'UNAUTHENTICATED');
      refused(await send('GET', url, await ownerB.token()), 403, 'FORBIDDEN');
      refused(await send('GET', url, await memberA.token()), 403, 'FORBIDDEN');
      // The address to register with the provider is there before anything is connected, for the company's
      // administrators only.
      const redirect = await send('GET', `${url}/redireccion`, await managerA.token());
      assert.equal(redirect.statusCode, 200, redirect.body);
      const samlBase = `${t.app.config.apiPublicUrl}/auth/empresa/saml/${a}`;
      assert.deepEqual(redirect.json(), {
        redirectUri: `${t.app.config.apiPublicUrl}/auth/empresa/callback`,
        saml: { entityId: `${samlBase}/metadata`, acsUrl: `${samlBase}/acs`, metadataUrl: `${samlBase}/metadata` },
      });
      refused(await send('GET', `${url}/redireccion`, await memberA.token()), 403, 'FORBIDDEN');
      refused(await send('GET', `${url}/redireccion`, await ownerB.token()), 403, 'FORBIDDEN');
      refused(await send('GET', `${url}/redireccion`, undefined), 401, 'UNAUTHENTICATED');
      refused(
        await send('PUT', url, await ownerA.token(), body({ dominios: ['pesquera-norte.pe', 'pesquera-norte.com'] })),
        409,
        'DOMINIO_NO_VERIFICADO',
      );
      refused(
        await send('PUT', url, await ownerA.token(), body({ dominios: ['pesquera-sur.pe'] })),
        409,
        'DOMINIO_NO_VERIFICADO',
      );
      assert.equal(
        (await t.app.db.select().from(companyIdentityProviders).where(eq(companyIdentityProviders.companyId, a)))
          .length,
        0,
      );

      const saved = await send('PUT', url, await ownerA.token(), input);
      assert.equal(saved.statusCode, 200, saved.body);
      const read = await send('GET', url, await managerA.token());
      assert.equal(read.statusCode, 200);
      assert.deepEqual(read.json().dominios, ['pesquera-norte.pe']);
      // Unproved domains stay unproved: the owner's call proves nothing.
      const [unproved] = await t.app.db
        .select()
        .from(companyDomains)
        .where(and(eq(companyDomains.companyId, a), eq(companyDomains.domain, 'pesquera-norte.com')));
      assert.equal(unproved?.verifiedAt, null);

      // Removing: an administrador cannot, the owner can; links are kept.
      await t.app.db
        .insert(companyIdentities)
        .values({ companyId: a, subject: 'sujeto-1', userId: memberA.id, email: memberA.email });
      refused(await send('DELETE', url, await managerA.token()), 403, 'FORBIDDEN');
      assert.equal((await send('DELETE', url, await ownerA.token())).statusCode, 204);
      refused(await send('DELETE', url, await ownerA.token()), 404, 'SIN_PROVEEDOR');
      refused(await send('GET', url, await ownerA.token()), 404, 'SIN_PROVEEDOR');
      assert.equal(
        (await t.app.db.select().from(companyIdentities).where(eq(companyIdentities.companyId, a))).length,
        1,
      );
      const removals = await t.app.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.companyId, a), eq(auditLog.action, 'company.provider_remove')));
      assert.equal(removals.length, 1);
    });

    it('a platform administrator cannot take a domain another company proved (409 DOMINIO_DE_OTRA_EMPRESA)', async () => {
      const holder = await insertCompany(t.app, 'Minera Sur');
      const taker = await insertCompany(t.app, 'Minera Falsa');
      await proveDomain(holder, 'minera-sur.pe');
      refused(
        await send('PUT', `/admin/empresas/${taker}/proveedor`, admin, body({ dominios: ['minera-sur.pe'] })),
        409,
        'DOMINIO_DE_OTRA_EMPRESA',
      );
      assert.equal((await t.app.db.select().from(companyDomains).where(eq(companyDomains.companyId, taker))).length, 0);
      refused(
        await send('PUT', '/admin/empresas/999999/proveedor', admin, body({ dominios: ['nadie.pe'] })),
        404,
        'EMPRESA_NO_ENCONTRADA',
      );
      refused(await send('DELETE', `/admin/empresas/${taker}/proveedor`, admin), 404, 'SIN_PROVEEDOR');
      // Not a platform administrator: the admin routes refuse.
      const owner = await insertMember(t.app, taker, 'dueno@minera-falsa.pe', 'propietario');
      refused(
        await send(
          'PUT',
          `/admin/empresas/${taker}/proveedor`,
          await owner.token(),
          body({ dominios: ['minera-falsa.pe'] }),
        ),
        403,
        'FORBIDDEN',
      );
    });

    it('a discovery failure at a sign-in is recorded in Spanish and shown in GET /empresas/:id/proveedor', async () => {
      const company = await insertCompany(t.app, 'Textil Arequipa');
      const temporary = await startIdentityProvider({
        kind: 'company',
        clientId: 'portal-empresa',
        clientSecret: secret,
        redirectUris: [`${apiUrl}/auth/empresa/callback`],
      });
      const saved = await send(
        'PUT',
        `/admin/empresas/${company}/proveedor`,
        admin,
        body({ issuer: temporary.issuer, dominios: ['textil-arequipa.pe'] }),
      );
      assert.equal(saved.statusCode, 200, saved.body);
      await temporary.close();
      const who = new OAuthBrowser({ app: t.app, apiUrl, portalUrl });
      const end = await companySignIn(who, apiUrl, 'ana@textil-arequipa.pe', 'nadie');
      assert.equal(end.pathname, '/login');
      assert.equal(end.searchParams.get('error'), 'company_unavailable');
      assert.equal(end.searchParams.get('provider'), 'empresa');
      const view = (await send('GET', `/empresas/${company}/proveedor`, admin)).json();
      assert.match(
        view.ultimoError,
        /^No se pudo leer la configuración del proveedor en .+\/\.well-known\/openid-configuration/,
      );
      assert.ok(view.ultimoErrorEn);
    });

    it('a secret the provider refuses at a sign-in → company_unavailable, recorded for the administrators; a new save clears it', async () => {
      const company = await insertCompany(t.app, 'Lácteos Cusco');
      const wrong = { issuer: idp.issuer, dominios: ['lacteos-cusco.pe'], clientSecret: 'un-secreto-equivocado-1' };
      assert.equal((await send('PUT', `/admin/empresas/${company}/proveedor`, admin, body(wrong))).statusCode, 200);
      idp.setAccount({ sub: 'empleada-cusco', email: 'ana@lacteos-cusco.pe' });
      const who = new OAuthBrowser({ app: t.app, apiUrl, portalUrl });
      const end = await companySignIn(who, apiUrl, 'ana@lacteos-cusco.pe', 'empleada-cusco');
      assert.equal(end.pathname, '/login');
      assert.equal(end.searchParams.get('error'), 'company_unavailable');
      const view = (await send('GET', `/empresas/${company}/proveedor`, admin)).json();
      assert.match(
        view.ultimoError,
        /^El proveedor rechazó las credenciales del portal \(respondió 401 invalid_client\)/,
      );
      assert.equal(
        (await t.app.db.select().from(companyIdentities).where(eq(companyIdentities.companyId, company))).length,
        0,
      );
      // The right secret: the error is cleared and the person gets in.
      const fixed = await send(
        'PUT',
        `/admin/empresas/${company}/proveedor`,
        admin,
        body({ ...wrong, clientSecret: secret }),
      );
      assert.equal(fixed.statusCode, 200);
      assert.equal((await send('GET', `/empresas/${company}/proveedor`, admin)).json().ultimoError, null);
      const again = await companySignIn(
        new OAuthBrowser({ app: t.app, apiUrl, portalUrl }),
        apiUrl,
        'ana@lacteos-cusco.pe',
        'empleada-cusco',
      );
      assert.equal(again.pathname, '/auth/google/callback', again.href);
      assert.ok(again.searchParams.get('code'));
      const read = (await send('GET', `/empresas/${company}/proveedor`, admin)).json();
      assert.ok(read.ultimoAcceso);
    });

    it('the client secret is in no answer and no log line', () => {
      for (const value of [secret, otherSecret, 'un-secreto-equivocado-1']) {
        assert.equal(
          answers.find((answer) => answer.includes(value)),
          undefined,
          'answer',
        );
        assert.equal(
          logs.lines.flatMap((line) => textsOf(line)).find((text) => text.includes(value)),
          undefined,
          'log',
        );
      }
    });
  });
});
