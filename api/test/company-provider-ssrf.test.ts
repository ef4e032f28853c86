// Server-side request forgery through a company's own sign-in: an owner types the issuer of the company's OpenID
// Connect provider, and the API fetches it (discovery before saving, discovery and the token exchange at each
// sign-in). With the guard on (COMPANY_PROVIDER_PRIVATE_NETWORK=false, the default off loopback) an issuer that leads
// to a loopback address, as a literal or through a name, is refused at connect time: 400 PROVEEDOR_INALCANZABLE with
// the Spanish message, nothing saved, and the server listening there receives no request; at a sign-in the person
// lands on company_unavailable and the company's administrators read why. Lifted, the same calls reach it.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { auditLog, companyDomains, companyIdentityProviders, companySignInDomains } from '../src/db/schema.js';
import { discoverProvider, privateNetworkRefused } from '../src/domain/companies/sign-in/discovery.js';
import { companySignInMessages as M } from '../src/domain/companies/sign-in/messages.js';
import { providerSecretKey, sealSecret } from '../src/domain/companies/sign-in/secret.js';
import { buildTestApp, forEachBackend, type TestApp } from './helpers/app.js';
import { call, insertCompany, insertMember } from './helpers/company-fixtures.js';
import { type IdentityProvider, startIdentityProvider } from './helpers/identity-provider.js';

const apiUrl = 'http://api.portal.test';
const portalUrl = 'http://portal.test';
const secret = 'secreto-del-cliente-que-nadie-debe-leer';
const refusal =
  'La dirección del emisor lleva a una red privada o reservada: usa la dirección pública de tu proveedor.';

/** A server on 127.0.0.1 standing for a service of the internal network: it records every request it gets. */
let internal: Server;
let internalPort: number;
const received: string[] = [];
let idp: IdentityProvider;
describe('company-provider-ssrf.test.ts', () => {
  before(async () => {
    internal = createServer((request, response) => {
      received.push(`${request.method} ${request.url}`);
      response.end('secreto interno');
    });
    await new Promise<void>((resolve) => internal.listen(0, '127.0.0.1', resolve));
    internalPort = (internal.address() as AddressInfo).port;
    idp = await startIdentityProvider({
      kind: 'company',
      clientId: 'portal-empresa',
      clientSecret: secret,
      redirectUris: [`${apiUrl}/auth/empresa/callback`],
    });
  });
  after(async () => {
    await new Promise((resolve) => internal.close(resolve));
    await idp.close();
  });

  describe('discoverProvider', () => {
    it('guarded, a loopback issuer is refused before any request; lifted, discovery reads it', async () => {
      received.length = 0;
      const error = await discoverProvider(`http://127.0.0.1:${internalPort}/`, 'c', 's', false).catch((e) => e);
      assert.ok(privateNetworkRefused(error), String(error));
      const idpError = await discoverProvider(idp.issuer, 'portal-empresa', secret, false).catch((e) => e);
      assert.ok(privateNetworkRefused(idpError), String(idpError));
      assert.deepEqual(received, []);
      const configuration = await discoverProvider(idp.issuer, 'portal-empresa', secret, true);
      assert.equal(configuration.serverMetadata().issuer, idp.issuer);
    });
  });

  forEachBackend((backend) => {
    let guarded: TestApp;
    let lifted: TestApp;
    before(async () => {
      guarded = await buildTestApp(backend, { apiPublicUrl: apiUrl, portalUrl, companyProviderPrivateNetwork: false });
      lifted = await buildTestApp(backend, { apiPublicUrl: apiUrl, portalUrl, companyProviderPrivateNetwork: true });
    });
    after(async () => {
      await guarded.close();
      await lifted.close();
    });

    /** A company with a proved domain and its owner's session. */
    const companyWithOwner = async (t: TestApp, name: string, domain: string) => {
      const companyId = await insertCompany(t.app, name);
      const owner = await insertMember(t.app, companyId, `duena@${domain}`, 'propietario');
      await t.app.db.insert(companyDomains).values({
        companyId,
        domain,
        verificationToken: `token-${domain}`,
        verifiedAt: new Date(),
        verifiedBy: 'dns',
      });
      return { companyId, token: await owner.token() };
    };
    const body = (issuer: string, domain: string) => ({
      issuer,
      clientId: 'portal-empresa',
      clientSecret: secret,
      dominios: [domain],
      permitirContrasena: true,
    });

    it("guarded: an owner's issuer on 127.0.0.1 or localhost is refused in Spanish, nothing saved, nothing reached", async () => {
      const domain = 'minera-interna.pe';
      const { companyId, token } = await companyWithOwner(guarded, 'Minera Interna', domain);
      received.length = 0;
      for (const issuer of [`http://127.0.0.1:${internalPort}/`, `http://localhost:${internalPort}/`, idp.issuer]) {
        const response = await call(
          guarded.app,
          'PUT',
          `/empresas/${companyId}/proveedor`,
          token,
          body(issuer, domain),
        );
        assert.equal(response.statusCode, 400, `${issuer}: ${response.body}`);
        assert.equal(response.json().code, 'PROVEEDOR_INALCANZABLE');
        assert.equal(response.json().message, refusal);
      }
      assert.deepEqual(received, [], 'the internal server got no request');
      const saved = await guarded.app.db
        .select()
        .from(companyIdentityProviders)
        .where(eq(companyIdentityProviders.companyId, companyId));
      assert.deepEqual(saved, []);
      const audits = await guarded.app.db.select().from(auditLog).where(eq(auditLog.companyId, companyId));
      assert.deepEqual(
        audits.map((entry) => entry.action).filter((action) => action.startsWith('company.provider')),
        [],
      );
    });

    it('guarded: a connection already saved on a loopback address sends its sign-ins to company_unavailable', async () => {
      const domain = 'pesquera-interna.pe';
      const { companyId } = await companyWithOwner(guarded, 'Pesquera Interna', domain);
      const key = providerSecretKey(guarded.app.signingKey.privateKey);
      // Saved before the guard, or by an operator who lifted it and later turned it back on.
      await guarded.app.db.insert(companyIdentityProviders).values({
        companyId,
        issuer: `http://127.0.0.1:${internalPort}`,
        clientId: 'portal-empresa',
        clientSecretSealed: sealSecret(key, companyId, secret),
        allowPassword: true,
      });
      await guarded.app.db.insert(companySignInDomains).values({ companyId, domain });
      received.length = 0;
      const binding = randomBytes(32).toString('base64url');
      const response = await guarded.app.inject({
        method: 'GET',
        url: `/auth/empresa?email=${encodeURIComponent(`ana@${domain}`)}&binding=${binding}`,
      });
      assert.equal(response.statusCode, 302);
      const location = new URL(response.headers.location as string);
      assert.equal(location.origin, portalUrl);
      assert.equal(location.searchParams.get('error'), 'company_unavailable');
      assert.deepEqual(received, [], 'the internal server got no request');
      const [row] = await guarded.app.db
        .select({ lastError: companyIdentityProviders.lastError })
        .from(companyIdentityProviders)
        .where(eq(companyIdentityProviders.companyId, companyId));
      assert.equal(
        row?.lastError,
        M.errorDiscovery(
          `http://127.0.0.1:${internalPort}/.well-known/openid-configuration`,
          'su dirección lleva a una red privada o reservada',
        ),
      );
      assert.match(row?.lastError ?? '', /red privada o reservada/);
    });

    it('lifted (COMPANY_PROVIDER_PRIVATE_NETWORK=true): the same calls reach the server on 127.0.0.1', async () => {
      const domain = 'minera-local.pe';
      const { companyId, token } = await companyWithOwner(lifted, 'Minera Local', domain);
      received.length = 0;
      const url = `/empresas/${companyId}/proveedor`;
      const internalAnswer = await call(
        lifted.app,
        'PUT',
        url,
        token,
        body(`http://127.0.0.1:${internalPort}/`, domain),
      );
      // The internal server was reached (it does not speak OpenID Connect, so discovery fails as any other would).
      assert.equal(internalAnswer.statusCode, 400, internalAnswer.body);
      assert.equal(internalAnswer.json().code, 'PROVEEDOR_INALCANZABLE');
      assert.match(internalAnswer.json().message, /^No se pudo leer la configuración del proveedor/);
      assert.deepEqual(received, ['GET /.well-known/openid-configuration']);

      const saved = await call(lifted.app, 'PUT', url, token, body(idp.issuer, domain));
      assert.equal(saved.statusCode, 200, saved.body);
      const binding = randomBytes(32).toString('base64url');
      const start = await lifted.app.inject({
        method: 'GET',
        url: `/auth/empresa?email=${encodeURIComponent(`ana@${domain}`)}&binding=${binding}`,
      });
      assert.equal(start.statusCode, 302);
      assert.equal(new URL(start.headers.location as string).origin, idp.issuer);
    });
  });
});
