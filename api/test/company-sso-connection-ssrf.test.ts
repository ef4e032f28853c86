// Server-side request forgery through a company's own sign-in: an owner types the issuer of the company's OpenID
// Connect provider, and the API fetches it (discovery before saving, discovery and the token exchange at each
// sign-in). With the guard on (COMPANY_PROVIDER_PRIVATE_NETWORK=false, the default off loopback) an issuer that leads
// to a loopback address, as a literal or through a name, is refused at connect time: 400 PROVEEDOR_INALCANZABLE with
// the Spanish message, nothing saved, and the server listening there receives no request; at a sign-in the person
// lands on company_unavailable and the company's administrators read why. Lifted, the same calls reach it.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { type AddressInfo, createServer as createNetServer, type Server as NetServer } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { auditLog, companyDomains, companyIdentityProviders, companySignInDomains } from '../src/db/schema.js';
import { discoverIdp, privateNetworkRefused } from '../src/domain/companies/sso/discovery.js';
import { ssoMessages as M } from '../src/domain/companies/sso/messages.js';
import { connectionSecretKey, sealSecret } from '../src/domain/companies/sso/secret.js';
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
/** A bare TCP listener on 127.0.0.1: it counts connections (a TLS ClientHello needs one). */
let listener: NetServer;
let listenerPort: number;
let connections = 0;
let idp: IdentityProvider;
describe('company-sso-connection-ssrf.test.ts', () => {
  before(async () => {
    internal = createServer((request, response) => {
      received.push(`${request.method} ${request.url}`);
      response.end('secreto interno');
    });
    await new Promise<void>((resolve) => internal.listen(0, '127.0.0.1', resolve));
    internalPort = (internal.address() as AddressInfo).port;
    listener = createNetServer((socket) => {
      connections += 1;
      socket.destroy();
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    listenerPort = (listener.address() as AddressInfo).port;
    idp = await startIdentityProvider({
      kind: 'company',
      clientId: 'portal-empresa',
      clientSecret: secret,
      redirectUris: [`${apiUrl}/auth/empresa/callback`],
    });
  });
  after(async () => {
    await new Promise((resolve) => internal.close(resolve));
    await new Promise((resolve) => listener.close(resolve));
    await idp.close();
  });

  describe('discoverIdp', () => {
    it('guarded, a loopback issuer is refused before any request; lifted, discovery reads it', async () => {
      received.length = 0;
      const error = await discoverIdp(`http://127.0.0.1:${internalPort}/`, 'c', 's', false).catch((e) => e);
      assert.ok(privateNetworkRefused(error), String(error));
      const idpError = await discoverIdp(idp.issuer, 'portal-empresa', secret, false).catch((e) => e);
      assert.ok(privateNetworkRefused(idpError), String(idpError));
      assert.deepEqual(received, []);
      const configuration = await discoverIdp(idp.issuer, 'portal-empresa', secret, true);
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

    /** The owner saves the company's provider on the guarded app. */
    const save = (companyId: number, token: string, issuer: string, domain: string) =>
      call(guarded.app, 'PUT', `/empresas/${companyId}/proveedor`, token, body(issuer, domain));

    it("guarded: an owner's issuer on 127.0.0.1 or localhost is refused in Spanish, nothing saved, nothing reached", async () => {
      const domain = 'minera-interna.pe';
      const { companyId, token } = await companyWithOwner(guarded, 'Minera Interna', domain);
      received.length = 0;
      for (const issuer of [`http://127.0.0.1:${internalPort}/`, `http://localhost:${internalPort}/`, idp.issuer]) {
        const response = await save(companyId, token, issuer, domain);
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

    it('guarded: an owner cannot map internal ports: every loopback issuer, any port or spelling, gets one answer and opens no connection', async () => {
      const domain = 'minera-puertos.pe';
      const { companyId, token } = await companyWithOwner(guarded, 'Minera Puertos', domain);
      // A closed port, a bare TCP listener, a plain HTTP server asked for TLS, the identity provider: before the
      // guard decided the address first, each gave another error (ECONNREFUSED, a reset, a TLS error) or a timeout.
      const closed = await new Promise<number>((resolve) => {
        const probe = createNetServer().listen(0, '127.0.0.1', () => {
          const { port } = probe.address() as AddressInfo;
          probe.close(() => resolve(port));
        });
      });
      const issuers = [
        `https://127.0.0.1:${closed}/`,
        `https://127.0.0.1:${listenerPort}/`,
        `https://127.0.0.1:${internalPort}/`,
        `http://127.0.0.1:${listenerPort}/`,
        `https://localhost.:${listenerPort}/`,
        `https://[::127.0.0.1]:${listenerPort}/`,
        `https://[::ffff:127.0.0.1]:${listenerPort}/`,
        `https://[2002:7f00:1::]:${listenerPort}/`,
        `https://[64:ff9b:1::7f00:1]:${listenerPort}/`,
        idp.issuer.replace('http:', 'https:'),
      ];
      received.length = 0;
      connections = 0;
      const answers = new Set<string>();
      for (const issuer of issuers) {
        const response = await save(companyId, token, issuer, domain);
        answers.add(`${response.statusCode} ${response.json().code} ${response.json().message}`);
      }
      assert.deepEqual([...answers], [`400 PROVEEDOR_INALCANZABLE ${refusal}`]);
      assert.equal(connections, 0, 'the TCP listener saw a connection');
      assert.deepEqual(received, [], 'the internal server got no request');
    });

    it('guarded: tries are limited per company and per address, after access: 429 in Spanish with Retry-After', async () => {
      type Company = { companyId: number; token: string; domain: string };
      const company = async (name: string, domain: string): Promise<Company> => ({
        ...(await companyWithOwner(guarded, name, domain)),
        domain,
      });
      const [a, b, c] = [
        await company('Minera Límites', 'minera-limites.pe'),
        await company('Pesquera Límites', 'pesquera-limites.pe'),
        await company('Textil Límites', 'textil-limites.pe'),
      ];
      const put = (company: Company, from: string, bearer = true) =>
        guarded.app.inject({
          method: 'PUT',
          url: `/empresas/${company.companyId}/proveedor`,
          remoteAddress: from,
          headers: bearer ? { authorization: `Bearer ${company.token}` } : {},
          payload: body(`https://127.0.0.1:${listenerPort}/`, company.domain),
        });
      const statuses = async (company: Company, from: string, times: number) => {
        const seen = new Set<number>();
        for (let i = 0; i < times; i++) seen.add((await put(company, from)).statusCode);
        return [...seen];
      };
      // A stranger's calls (no session) never spend a company's tries.
      for (let i = 0; i < 25; i++) assert.equal((await put(a, '198.51.100.9', false)).statusCode, 401);
      // One company: 20 tries (each read and refused), then 429 from any address, with Retry-After.
      assert.deepEqual(await statuses(a, '198.51.100.1', 20), [400]);
      const limited = await put(a, '198.51.100.2');
      assert.equal(limited.statusCode, 429, limited.body);
      assert.equal(limited.json().code, 'RATE_LIMITED');
      assert.match(limited.json().message, /^Demasiadas solicitudes\. Inténtalo de nuevo en \d+ segundos\.$/);
      assert.ok(Number(limited.headers['retry-after']) > 0);
      // One address: 40 tries over every company (20 of a, 20 of b), then 429 for a third company it had not tried...
      assert.deepEqual(await statuses(b, '198.51.100.1', 20), [400]);
      assert.equal((await put(c, '198.51.100.1')).statusCode, 429);
      // ...which still has its own tries from another address.
      assert.equal((await put(c, '198.51.100.3')).statusCode, 400);
      assert.equal(connections, 0);
    });

    it('guarded: a connection already saved on a loopback address sends its sign-ins to company_unavailable', async () => {
      const domain = 'pesquera-interna.pe';
      const { companyId } = await companyWithOwner(guarded, 'Pesquera Interna', domain);
      const key = connectionSecretKey(guarded.app.signingKey.privateKey);
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
