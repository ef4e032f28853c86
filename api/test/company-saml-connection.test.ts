// A company's SAML identity provider as its owners and platform administrators connect it (PUT
// /empresas/:id/proveedor and /admin/empresas/:id/proveedor with `tipo: 'saml'`): the metadata read before anything is
// saved (a clear Spanish 400 otherwise) and kept when a change leaves it out, who may, what GET …/proveedor shows (the
// IdP, its certificates' fingerprints and expiry), and the portal's service provider metadata the company's IT imports.
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { count, desc, eq } from 'drizzle-orm';
import * as samlify from 'samlify';
import { auditLog, companyDomains, companyIdentityProviders, companySignInDomains } from '../src/db/schema.js';
import { installSamlGuard } from '../src/lib/saml/xml.js';
import { buildTestApp, forEachBackend, login, type TestApp } from './helpers/app.js';
import { call, insertCompany, insertMember } from './helpers/company-fixtures.js';
import { waitFor } from './helpers/processes.js';
import { idpMetadata, type SigningKey, signingKey } from './helpers/saml-idp.js';

const apiUrl = 'http://api.portal.test';
const portalUrl = 'http://portal.test';
const idpEntity = 'http://adfs.minera-andina.cl/adfs/services/trust';
const ssoUrl = 'https://adfs.minera-andina.cl/adfs/ls/';

let key: SigningKey;
let nextKey: SigningKey;
describe('company-saml-connection.test.ts', () => {
  before(async () => {
    key = await signingKey('adfs.minera-andina.cl');
    nextKey = await signingKey('adfs-nuevo.minera-andina.cl', new Date('2031-06-30T12:00:00Z'));
  });

  forEachBackend((backend) => {
    let t: TestApp;
    let admin: string;
    before(async () => {
      // The metadata server of these tests listens on 127.0.0.1.
      t = await buildTestApp(backend, { apiPublicUrl: apiUrl, portalUrl, companyProviderPrivateNetwork: true });
      admin = await login(t.app);
    });
    after(() => t.close());

    const metadata = (overrides: Partial<Parameters<typeof idpMetadata>[0]> = {}) =>
      idpMetadata({ entityId: idpEntity, ssoUrl, certificates: [key.certificate], ...overrides });
    const body = (overrides: Record<string, unknown> = {}) => ({
      tipo: 'saml',
      metadata: metadata(),
      dominios: ['minera-andina.cl'],
      permitirContrasena: false,
      ...overrides,
    });
    const sp = (companyId: number) => ({
      entityId: `${apiUrl}/auth/empresa/saml/${companyId}/metadata`,
      acsUrl: `${apiUrl}/auth/empresa/saml/${companyId}/acs`,
      metadataUrl: `${apiUrl}/auth/empresa/saml/${companyId}/metadata`,
    });
    const refused = (response: { statusCode: number; body: string }, status: number, code: string) => {
      assert.equal(response.statusCode, status, response.body);
      const answer = JSON.parse(response.body) as { code?: string; message?: string };
      assert.equal(answer.code, code, response.body);
      return answer.message ?? '';
    };
    const rows = async () => (await t.app.db.select({ n: count() }).from(companyIdentityProviders))[0]?.n;
    const audits = async () => (await t.app.db.select({ n: count() }).from(auditLog))[0]?.n;

    it('a platform administrator connects a SAML IdP: the answer is the service provider; GET shows the IdP and its certificates', async () => {
      const company = await insertCompany(t.app, 'Minera Andina');
      const saved = await call(
        t.app,
        'PUT',
        `/admin/empresas/${company}/proveedor`,
        admin,
        body({ metadata: metadata({ certificates: [key.certificate, nextKey.certificate] }) }),
      );
      assert.equal(saved.statusCode, 200, saved.body);
      assert.deepEqual(saved.json(), sp(company));

      const shown = await call(t.app, 'GET', `/empresas/${company}/proveedor`, admin);
      assert.equal(shown.statusCode, 200, shown.body);
      const view = shown.json();
      const expected = (certificate: SigningKey) => {
        const x509 = new X509Certificate(certificate.certificatePem);
        return { huella: x509.fingerprint256, venceEn: new Date(x509.validTo).toISOString() };
      };
      assert.deepEqual(
        { ...view, actualizado: undefined },
        {
          tipo: 'saml',
          dominios: ['minera-andina.cl'],
          permitirContrasena: false,
          ...sp(company),
          idp: { entityId: idpEntity, ssoUrl, certificados: [expected(key), expected(nextKey)], urlMetadatos: null },
          ultimoError: null,
          ultimoErrorEn: null,
          ultimoAcceso: null,
          actualizado: undefined,
        },
      );
      assert.match(view.idp.certificados[0].huella, /^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
      assert.equal(view.idp.certificados[1].venceEn, '2031-06-30T12:00:00.000Z');
      // The domain is proved for the company by the administrator's call, as for OpenID Connect.
      const [domain] = await t.app.db.select().from(companyDomains).where(eq(companyDomains.companyId, company));
      assert.equal(domain?.verifiedBy, 'admin');
      const [row] = await t.app.db
        .select()
        .from(companyIdentityProviders)
        .where(eq(companyIdentityProviders.companyId, company));
      assert.equal(row?.protocol, 'saml');
      assert.equal(row?.issuer, idpEntity);
      assert.equal(row?.clientSecretSealed, null);

      // Going back to OpenID Connect needs the client's secret: the SAML connection has none.
      const back = await call(t.app, 'PUT', `/admin/empresas/${company}/proveedor`, admin, {
        issuer: 'https://login.example.com',
        clientId: 'portal',
        dominios: ['minera-andina.cl'],
        permitirContrasena: true,
      });
      refused(back, 400, 'SECRETO_OBLIGATORIO');
    });

    it("metadata that is not an IdP's, or unsafe XML, is a 400 in Spanish and nothing is saved", async () => {
      const company = await insertCompany(t.app, 'Textiles Sur');
      const before = { rows: await rows(), audits: await audits() };
      const spMetadata = (await t.app.inject({ method: 'GET', url: `/auth/empresa/saml/${company}/metadata` })).body;
      const cases: [string, string, RegExp][] = [
        [
          '<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><r>&x;</r>',
          'METADATOS_SAML_INVALIDOS',
          /no son un documento XML aceptable \(sin DOCTYPE ni entidades/,
        ],
        ['esto no es XML', 'METADATOS_SAML_INVALIDOS', /no son un documento XML aceptable/],
        [spMetadata, 'METADATOS_SAML_INVALIDOS', /falta el IDPSSODescriptor/],
        [
          metadata({ redirect: false }),
          'METADATOS_SAML_INVALIDOS',
          /SingleSignOnService https:\/\/ con el binding HTTP-Redirect/,
        ],
        [metadata({ certificates: [] }), 'METADATOS_SAML_INVALIDOS', /falta el certificado de firma/],
        [
          metadata({ certificates: ['bm8gZXMgdW4gY2VydGlmaWNhZG8='] }),
          'METADATOS_SAML_INVALIDOS',
          /certificados no se puede leer/,
        ],
        [metadata({ wantAuthnRequestsSigned: true }), 'SOLICITUDES_FIRMADAS', /WantAuthnRequestsSigned="true"/],
        [`<r>${'a'.repeat(1024 * 1024)}</r>`, 'METADATOS_SAML_INVALIDOS', /de 1 MiB como mucho/],
      ];
      for (const [xml, code, message] of cases) {
        const answer = await call(t.app, 'PUT', `/admin/empresas/${company}/proveedor`, admin, body({ metadata: xml }));
        if (xml.length > 1024 * 1024) {
          // The schema's bound answers first, in Spanish too.
          assert.equal(answer.statusCode, 400, answer.body);
          continue;
        }
        assert.match(refused(answer, 400, code), message);
        assert.match(
          refused(answer, 400, code),
          /^(Los metadatos SAML del proveedor no son válidos: |El proveedor pide)/,
        );
      }
      assert.deepEqual({ rows: await rows(), audits: await audits() }, before);
      const domains = await t.app.db.select().from(companyDomains).where(eq(companyDomains.companyId, company));
      assert.deepEqual(domains, []);
      refused(await call(t.app, 'GET', `/empresas/${company}/proveedor`, admin), 404, 'SIN_PROVEEDOR');
    });

    it("an owner connects SAML for proved domains only; an administrador or another company's owner cannot", async () => {
      const a = await insertCompany(t.app, 'Pesquera Norte');
      const b = await insertCompany(t.app, 'Pesquera Sur');
      const ownerA = await insertMember(t.app, a, 'duena@pesquera-norte.pe', 'propietario');
      const managerA = await insertMember(t.app, a, 'admin@pesquera-norte.pe', 'administrador');
      const ownerB = await insertMember(t.app, b, 'dueno@pesquera-sur.pe', 'propietario');
      await t.app.db.insert(companyDomains).values({
        companyId: a,
        domain: 'pesquera-norte.pe',
        verificationToken: 'token-pesquera-norte',
        verifiedAt: new Date(),
        verifiedBy: 'dns',
      });
      const url = `/empresas/${a}/proveedor`;
      const input = body({ dominios: ['pesquera-norte.pe'] });
      refused(await call(t.app, 'PUT', url, await managerA.token(), input), 403, 'FORBIDDEN');
      refused(await call(t.app, 'PUT', url, await ownerB.token(), input), 403, 'FORBIDDEN');
      refused(await call(t.app, 'PUT', url, undefined, input), 401, 'UNAUTHENTICATED');
      refused(
        await call(t.app, 'PUT', url, await ownerA.token(), body({ dominios: ['pesquera-norte.com'] })),
        409,
        'DOMINIO_NO_VERIFICADO',
      );
      // Before connecting, the company's administrators read the service provider's addresses.
      const addresses = await call(t.app, 'GET', `${url}/redireccion`, await managerA.token());
      assert.equal(addresses.statusCode, 200, addresses.body);
      assert.deepEqual(addresses.json(), { redirectUri: `${apiUrl}/auth/empresa/callback`, saml: sp(a) });

      const saved = await call(t.app, 'PUT', url, await ownerA.token(), input);
      assert.equal(saved.statusCode, 200, saved.body);
      assert.deepEqual(saved.json(), sp(a));
      const shown = await call(t.app, 'GET', url, await managerA.token());
      assert.equal(shown.statusCode, 200, shown.body);
      assert.equal(shown.json().tipo, 'saml');
      const domains = await t.app.db.select().from(companySignInDomains).where(eq(companySignInDomains.companyId, a));
      assert.deepEqual(
        domains.map((row) => row.domain),
        ['pesquera-norte.pe'],
      );
    });

    it('the service provider metadata parses and names the ACS (HTTP-POST), for any company; 404 in Spanish otherwise', async () => {
      const company = await insertCompany(t.app, 'Eléctrica Central');
      const answer = await t.app.inject({ method: 'GET', url: `/auth/empresa/saml/${company}/metadata` });
      assert.equal(answer.statusCode, 200, answer.body);
      assert.match(String(answer.headers['content-type']), /^application\/samlmetadata\+xml/);
      installSamlGuard();
      const parsed = samlify.SPMetadata(answer.body);
      assert.equal(parsed.getEntityID(), sp(company).entityId);
      assert.equal(parsed.getAssertionConsumerService('post'), sp(company).acsUrl);
      assert.equal(parsed.isWantAssertionsSigned(), true);
      assert.deepEqual(parsed.getNameIDFormat(), [
        'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
        'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent',
      ]);
      assert.match(answer.body, /<(\w+:)?SPSSODescriptor[^>]*WantAssertionsSigned="true"/);

      const missing = await t.app.inject({ method: 'GET', url: '/auth/empresa/saml/999999/metadata' });
      assert.equal(missing.statusCode, 404, missing.body);
      assert.match(missing.json().message, /empresa/i);
    });
    /** An IdP's metadata address on 127.0.0.1: it answers what `serve` holds (a status and a body). */
    const metadataServer = async () => {
      const serve = { status: 200, body: '' };
      const server: Server = createServer((_request, response) => {
        response.writeHead(serve.status, { 'content-type': 'application/samlmetadata+xml' });
        response.end(serve.body);
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/federationmetadata/2007-06/federationmetadata.xml?appid=portal`;
      return { serve, url, close: () => new Promise((resolve) => server.close(resolve)) };
    };
    const fingerprints = async (companyId: number) =>
      (
        (await call(t.app, 'GET', `/empresas/${companyId}/proveedor`, admin)).json().idp.certificados as {
          huella: string;
        }[]
      ).map((certificate) => certificate.huella);
    /** The re-read runs after the sign-in's answer, in the background: asked again (the bound stops a hung test). */
    const until = (check: () => Promise<boolean>) => waitFor('the metadata read again', check, 20_000, 50);

    it('connected by its metadata address: read when saved, shown, read again once a day without holding the sign-in', async () => {
      const idp = await metadataServer();
      try {
        idp.serve.body = metadata();
        const company = await insertCompany(t.app, 'Metalúrgica Andes');
        const saved = await call(t.app, 'PUT', `/admin/empresas/${company}/proveedor`, admin, {
          tipo: 'saml',
          urlMetadatos: idp.url,
          dominios: ['metalurgica-andes.cl'],
          permitirContrasena: true,
        });
        assert.equal(saved.statusCode, 200, saved.body);
        assert.deepEqual(saved.json(), sp(company));
        const view = (await call(t.app, 'GET', `/empresas/${company}/proveedor`, admin)).json();
        assert.equal(view.idp.urlMetadatos, idp.url);
        assert.deepEqual(await fingerprints(company), [new X509Certificate(key.certificatePem).fingerprint256]);

        // A day later the IdP has rolled its certificate over: the next sign-in reads the metadata again.
        idp.serve.body = metadata({ certificates: [nextKey.certificate] });
        const dayOld = async () =>
          t.app.db
            .update(companyIdentityProviders)
            .set({ samlMetadataReadAt: new Date(Date.now() - 25 * 3_600_000) })
            .where(eq(companyIdentityProviders.companyId, company));
        const signIn = async () => {
          const started = await t.app.inject({
            method: 'GET',
            url: `/auth/empresa?email=rosa@metalurgica-andes.cl&binding=${'b'.repeat(43)}`,
          });
          assert.equal(started.statusCode, 302, started.body);
          assert.ok(String(started.headers.location).startsWith(ssoUrl));
        };
        await signIn();
        // Not yet due: nothing read.
        assert.deepEqual(await fingerprints(company), [new X509Certificate(key.certificatePem).fingerprint256]);
        await dayOld();
        await signIn();
        const next = new X509Certificate(nextKey.certificatePem).fingerprint256;
        await until(async () => (await fingerprints(company))[0] === next);

        // The address fails: the stored metadata stays, the failure is the connection's last error.
        idp.serve.status = 500;
        await dayOld();
        await signIn();
        await until(async () =>
          /No se pudieron volver a leer los metadatos del proveedor en .* \(respondió 500\): se siguen usando los guardados/.test(
            (await call(t.app, 'GET', `/empresas/${company}/proveedor`, admin)).json().ultimoError ?? '',
          ),
        );
        assert.deepEqual(await fingerprints(company), [next]);
      } finally {
        await idp.close();
      }
    });

    it('a change without metadata keeps the stored metadata and its address; a new SAML connection needs one of them', async () => {
      const stored = async (companyId: number) =>
        (
          await t.app.db
            .select({
              metadata: companyIdentityProviders.samlMetadata,
              url: companyIdentityProviders.samlMetadataUrl,
              readAt: companyIdentityProviders.samlMetadataReadAt,
            })
            .from(companyIdentityProviders)
            .where(eq(companyIdentityProviders.companyId, companyId))
        )[0];
      const lastAudit = async (companyId: number) =>
        (
          await t.app.db
            .select({ action: auditLog.action, details: auditLog.details })
            .from(auditLog)
            .where(eq(auditLog.companyId, companyId))
            .orderBy(desc(auditLog.id))
            .limit(1)
        )[0];
      const first = new X509Certificate(key.certificatePem).fingerprint256;
      const second = new X509Certificate(nextKey.certificatePem).fingerprint256;

      // Pasted metadata: a change of the domains and the password, without the XML (GET never shows it).
      const pasted = await insertCompany(t.app, 'Vidrios del Pacífico');
      const xml = metadata({ certificates: [key.certificate, nextKey.certificate] });
      const put = (companyId: number, payload: Record<string, unknown>) =>
        call(t.app, 'PUT', `/admin/empresas/${companyId}/proveedor`, admin, { tipo: 'saml', ...payload });
      const connected = await put(pasted, { metadata: xml, dominios: ['vidrios.cl'], permitirContrasena: false });
      assert.equal(connected.statusCode, 200, connected.body);
      const changed = await put(pasted, { dominios: ['vidrios.cl', 'vidrios.pe'], permitirContrasena: true });
      assert.equal(changed.statusCode, 200, changed.body);
      assert.deepEqual(changed.json(), sp(pasted));
      const view = (await call(t.app, 'GET', `/empresas/${pasted}/proveedor`, admin)).json();
      assert.deepEqual(view.dominios, ['vidrios.cl', 'vidrios.pe']);
      assert.equal(view.permitirContrasena, true);
      assert.deepEqual(
        { entityId: view.idp.entityId, ssoUrl: view.idp.ssoUrl, urlMetadatos: view.idp.urlMetadatos },
        { entityId: idpEntity, ssoUrl, urlMetadatos: null },
      );
      assert.deepEqual(await fingerprints(pasted), [first, second]);
      assert.equal((await stored(pasted))?.metadata, xml);
      const audit = await lastAudit(pasted);
      assert.equal(audit?.action, 'company.provider_update');
      assert.deepEqual(
        { ...(audit?.details as Record<string, unknown>), dominios: undefined },
        {
          tipo: 'saml',
          entityId: idpEntity,
          ssoUrl,
          metadatosCambiados: false,
          dominios: undefined,
          permitirContrasena: true,
          fuente: 'administrador',
        },
      );

      // Read from its address: a change without either source keeps the address and the metadata read from it,
      // without reading it again (the IdP now answers another certificate).
      const idp = await metadataServer();
      try {
        idp.serve.body = metadata();
        const byUrl = await insertCompany(t.app, 'Vidrios del Sur');
        const saved = await put(byUrl, {
          urlMetadatos: idp.url,
          dominios: ['vidrios-sur.cl'],
          permitirContrasena: true,
        });
        assert.equal(saved.statusCode, 200, saved.body);
        const before = await stored(byUrl);
        idp.serve.body = metadata({ certificates: [nextKey.certificate] });
        const kept = await put(byUrl, { dominios: ['vidrios-sur.cl'], permitirContrasena: false });
        assert.equal(kept.statusCode, 200, kept.body);
        assert.deepEqual(await stored(byUrl), before);
        const shown = (await call(t.app, 'GET', `/empresas/${byUrl}/proveedor`, admin)).json();
        assert.equal(shown.idp.urlMetadatos, idp.url);
        assert.equal(shown.permitirContrasena, false);
        assert.deepEqual(await fingerprints(byUrl), [first]);

        // Pasting metadata afterwards replaces both: the address is no longer read.
        const replaced = await put(byUrl, {
          metadata: metadata({ certificates: [nextKey.certificate] }),
          dominios: ['vidrios-sur.cl'],
          permitirContrasena: false,
        });
        assert.equal(replaced.statusCode, 200, replaced.body);
        assert.equal((await call(t.app, 'GET', `/empresas/${byUrl}/proveedor`, admin)).json().idp.urlMetadatos, null);
        assert.deepEqual(await fingerprints(byUrl), [second]);
        assert.deepEqual(
          { url: (await stored(byUrl))?.url, readAt: (await stored(byUrl))?.readAt },
          { url: null, readAt: null },
        );
      } finally {
        await idp.close();
      }

      // A first connection, or one that was OpenID Connect, has no metadata to keep: a 400 in Spanish, nothing saved.
      const fresh = await insertCompany(t.app, 'Vidrios Andinos');
      const wasOidc = await insertCompany(t.app, 'Vidrios Australes');
      await t.app.db.insert(companyIdentityProviders).values({
        companyId: wasOidc,
        protocol: 'oidc',
        issuer: 'https://login.vidrios-australes.cl',
        clientId: 'portal',
        clientSecretSealed: 'sellado',
      });
      const counted = { rows: await rows(), audits: await audits() };
      for (const company of [fresh, wasOidc]) {
        const message = refused(
          await put(company, { dominios: ['vidrios-andinos.cl'], permitirContrasena: true }),
          400,
          'METADATOS_SAML_OBLIGATORIOS',
        );
        assert.match(message, /^Para conectar el proveedor SAML hacen falta sus metadatos/);
      }
      assert.deepEqual({ rows: await rows(), audits: await audits() }, counted);
      assert.equal(
        (
          await t.app.db.select().from(companyIdentityProviders).where(eq(companyIdentityProviders.companyId, wasOidc))
        )[0]?.protocol,
        'oidc',
      );
    });

    it('a metadata address that cannot be read, or both sources, or none: a 400 in Spanish and nothing saved', async () => {
      const idp = await metadataServer();
      const guarded = await buildTestApp(backend, {
        apiPublicUrl: apiUrl,
        portalUrl,
        companyProviderPrivateNetwork: false,
      });
      try {
        const company = await insertCompany(t.app, 'Cementos Sur');
        const before = { rows: await rows(), audits: await audits() };
        const put = (payload: Record<string, unknown>, app = t.app, token = admin) =>
          call(app, 'PUT', `/admin/empresas/${company}/proveedor`, token, {
            tipo: 'saml',
            dominios: ['cementos-sur.cl'],
            permitirContrasena: true,
            ...payload,
          });
        idp.serve.status = 404;
        assert.match(
          refused(await put({ urlMetadatos: idp.url }), 400, 'PROVEEDOR_INALCANZABLE'),
          /^No se pudieron leer los metadatos del proveedor en http:\/\/127\.0\.0\.1:\d+\/.* \(respondió 404\)/,
        );
        idp.serve.status = 200;
        idp.serve.body = '<html>no son metadatos</html>';
        refused(await put({ urlMetadatos: idp.url }), 400, 'METADATOS_SAML_INVALIDOS');
        refused(await put({ urlMetadatos: 'ftp://idp.example.com/metadata.xml' }), 400, 'DIRECCION_METADATOS_INVALIDA');
        refused(
          await put({ urlMetadatos: 'http://idp.example.com/metadata.xml' }),
          400,
          'DIRECCION_METADATOS_INVALIDA',
        );
        assert.match(
          refused(await put({ urlMetadatos: idp.url, metadata: metadata() }), 400, 'METADATOS_SAML_INVALIDOS'),
          /solo uno de los dos/,
        );
        refused(await put({}), 400, 'METADATOS_SAML_OBLIGATORIOS');
        assert.deepEqual({ rows: await rows(), audits: await audits() }, before);

        // With the outbound guard on, an address on this machine is not read at all.
        idp.serve.body = metadata();
        const guardedAdmin = await login(guarded.app);
        const other = await insertCompany(guarded.app, 'Cementos Sur');
        const answer = await call(guarded.app, 'PUT', `/admin/empresas/${other}/proveedor`, guardedAdmin, {
          tipo: 'saml',
          urlMetadatos: idp.url,
          dominios: ['cementos-sur.cl'],
          permitirContrasena: true,
        });
        assert.match(refused(answer, 400, 'PROVEEDOR_INALCANZABLE'), /red privada o reservada/);
      } finally {
        await guarded.close();
        await idp.close();
      }
    });
  });
});
