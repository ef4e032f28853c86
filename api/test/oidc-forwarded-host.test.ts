// Every address the provider hands out is its issuer's, whatever host and protocol a client claims (Host,
// X-Forwarded-Host, X-Forwarded-Proto): a cache in front that does not key on those headers would otherwise keep a
// discovery document that sends every partner app to the attacker's host. Checked with the proxies trusted by
// address, by count and not at all, over a real connection from loopback (where the proxy in front would be).
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { get } from 'node:http';
import { after, before, describe, it } from 'node:test';
import type { Config } from '../src/config.js';
import { adminEmail, adminPassword, forEachBackend, login } from './helpers/app.js';
import { type OidcTestApi, portalUrl, registerClient, startOidcApi, TestBrowser } from './helpers/oidc.js';

const forged = { 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' };
const redirectUri = 'https://socio.example.com/callback';

/** An authorization request as an app would build it (code flow with PKCE). */
function authorizationUrl(issuer: string, clientId: string): string {
  const url = new URL(`${issuer}/oidc/auth`);
  url.search = new URLSearchParams({
    client_id: clientId,
    redirect_uri: redirectUri,
    response_type: 'code',
    scope: 'openid',
    state: 'estado-1',
    code_challenge: createHash('sha256').update(randomBytes(32).toString('base64url')).digest('base64url'),
    code_challenge_method: 'S256',
  }).toString();
  return url.href;
}

/**
 * A GET as a client may write it, which fetch would not send: its own Host header, or the target in absolute form
 * (`GET http://evil.example/...`).
 */
function rawGet(
  issuer: string,
  target: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(issuer);
  return new Promise((resolve, reject) => {
    get({ hostname, port, path: target, headers }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        body += chunk;
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    }).on('error', reject);
  });
}

/** Every URL in a discovery document, by its field. */
function urlsOf(document: Record<string, unknown>): [string, string][] {
  return Object.entries(document).filter((entry): entry is [string, string] => /^https?:/.test(String(entry[1])));
}

const settings: [string, Config['trustProxy']][] = [
  ['proxies trusted by address', ['127.0.0.1/8']],
  ['proxies trusted by count', 1],
  ['no proxy trusted', false],
];

forEachBackend((backend) => {
  for (const [name, trustProxy] of settings) {
    describe(`${name}: the provider's addresses are its issuer's, whatever host a client claims`, () => {
      let api: OidcTestApi;
      let client: { clientId: string };

      before(async () => {
        api = await startOidcApi(backend, { trustProxy });
        client = await registerClient(api.app, {
          nombre: 'Socio Quiosco',
          redirectUris: [redirectUri],
          publico: true,
          dispositivos: true,
        });
      });
      after(() => api.close());

      it('discovery names the issuer for every endpoint', async () => {
        for (const path of ['/.well-known/openid-configuration', '/.well-known/oauth-authorization-server']) {
          const answers = [
            await fetch(`${api.issuer}${path}`, { headers: forged }).then(async (response) => ({
              status: response.status,
              body: await response.text(),
            })),
            await rawGet(api.issuer, path, { host: 'evil.example' }),
            await rawGet(api.issuer, `http://evil.example${path}`, { host: 'evil.example' }),
          ];
          for (const answer of answers) {
            assert.equal(answer.status, 200);
            const document = JSON.parse(answer.body) as Record<string, unknown>;
            assert.equal(document.issuer, api.issuer);
            const urls = urlsOf(document);
            assert.ok(
              urls.some(([field]) => field === 'authorization_endpoint'),
              'the document lists its endpoints',
            );
            for (const [field, url] of urls) {
              assert.ok(url === api.issuer || url.startsWith(`${api.issuer}/`), `${path} ${field}: ${url}`);
            }
          }
        }
      });

      it("a device is sent to the portal's /dispositivo", async () => {
        const response = await fetch(`${api.issuer}/oidc/device/auth`, {
          method: 'POST',
          headers: { ...forged, 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ client_id: client.clientId, scope: 'openid' }),
        });
        assert.equal(response.status, 200);
        const answer = (await response.json()) as Record<string, string>;
        assert.equal(answer.verification_uri, `${portalUrl}/dispositivo`);
        assert.equal(
          answer.verification_uri_complete,
          `${portalUrl}/dispositivo?codigo=${encodeURIComponent(answer.user_code ?? '')}`,
        );
      });

      it("the logout page's form posts to the issuer", async () => {
        const response = await fetch(`${api.issuer}/oidc/session/end`, { headers: forged });
        assert.equal(response.status, 200);
        const action = /action="([^"]+)"/.exec(await response.text())?.[1];
        assert.equal(action, `${api.issuer}/oidc/session/end/confirm`);
      });

      it('a sign-in started with a forged host comes back to the issuer', async () => {
        const browser = new TestBrowser(api.issuer);
        browser.portalToken = await login(api.app, adminEmail, adminPassword);
        const { url } = await browser.navigate(authorizationUrl(api.issuer, client.clientId), { headers: forged });
        assert.ok(url.startsWith(`${portalUrl}/autorizar?`), url);
        const uid = new URL(url).searchParams.get('interaccion') ?? '';
        const answer = await browser.portalCall(`/oidc/interaccion/${uid}/continuar`, {
          method: 'POST',
          body: { permitir: true },
        });
        assert.equal(answer.status, 200);
        const { redirectTo } = (await answer.json()) as { redirectTo: string };
        assert.ok(redirectTo.startsWith(`${api.issuer}/oidc/auth/`), redirectTo);
      });
    });
  }

  describe('behind an https issuer', () => {
    it('a client claiming http still gets https addresses and Secure cookies', async () => {
      const issuer = 'https://cuentas.portal.example';
      const api = await startOidcApi(backend, { trustProxy: 1, oidcIssuer: issuer });
      try {
        const client = await registerClient(api.app, { nombre: 'Socio', redirectUris: [redirectUri], publico: true });
        const claimed = { 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'http' };
        const discovery = await fetch(`${api.issuer}/.well-known/openid-configuration`, { headers: claimed });
        for (const [field, url] of urlsOf((await discovery.json()) as Record<string, unknown>)) {
          assert.ok(url === issuer || url.startsWith(`${issuer}/`), `${field}: ${url}`);
        }
        const started = await fetch(authorizationUrl(api.issuer, client.clientId), {
          headers: claimed,
          redirect: 'manual',
        });
        assert.equal(started.status, 303);
        const cookies = started.headers.getSetCookie();
        assert.ok(cookies.length > 0, 'the sign-in sets its cookies');
        for (const cookie of cookies) assert.match(cookie, /; secure/i, cookie);
      } finally {
        await api.close();
      }
    });
  });
});
