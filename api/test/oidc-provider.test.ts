// The portal as the suite's OpenID Connect provider, from the apps' side: discovery, the code flow with PKCE, claims,
// refresh rotation, introspection, revocation, userinfo and logout, with relying parties this project did not write.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { users } from '../src/db/schema.js';
import { adminEmail, forEachBackend, login, sessionToken } from './helpers/app.js';
import {
  claimsOf,
  type OidcTestApi,
  portalUrl,
  registerClient,
  relyingParty,
  startOidcApi,
  TestBrowser,
} from './helpers/oidc.js';

forEachBackend((backend) => {
  describe('OpenID Connect provider', () => {
    let api: OidcTestApi;
    let spa: { clientId: string };
    const spaRedirect = 'http://localhost:5173/callback';

    before(async () => {
      api = await startOidcApi(backend);
      spa = await registerClient(api.app, {
        nombre: 'Panel web',
        redirectUris: [spaRedirect],
        postLogoutRedirectUris: ['http://localhost:5173/'],
        publico: true,
        primeraParte: true,
        appId: 1,
        scopes: ['openid', 'profile', 'email', 'phone', 'plan', 'offline_access'],
      });
    });
    after(() => api.close());

    it('publishes its discovery document: the issuer, code flow only, S256, iss in the response, the JWKS', async () => {
      const response = await fetch(`${api.issuer}/.well-known/openid-configuration`);
      assert.equal(response.status, 200);
      const metadata = (await response.json()) as Record<string, unknown>;
      assert.equal(metadata.issuer, api.issuer);
      assert.deepEqual(metadata.response_types_supported, ['code']);
      assert.deepEqual(metadata.code_challenge_methods_supported, ['S256']);
      assert.equal(metadata.authorization_response_iss_parameter_supported, true);
      assert.equal(metadata.jwks_uri, `${api.issuer}/.well-known/jwks.json`);
      assert.equal(metadata.backchannel_logout_supported, true);
      assert.deepEqual(metadata.id_token_signing_alg_values_supported, ['ES256']);
    });

    it('a signed-in person reaches a first-party app without a form: code, tokens, claims with the plan', async () => {
      const browser = new TestBrowser(api.issuer);
      browser.portalToken = await login(api.app);
      const rp = relyingParty({
        authority: api.issuer,
        client_id: spa.clientId,
        redirect_uri: spaRedirect,
        scope: 'openid profile email plan offline_access',
      });
      const request = await rp.createSigninRequest({ prompt: 'consent' });
      const landed = await browser.signInTo(request.url);
      assert.ok(landed.startsWith(`${spaRedirect}?`), landed);
      const callback = new URL(landed);
      assert.equal(callback.searchParams.get('iss'), api.issuer);
      const signedIn = await rp.processSigninResponse(landed);
      const [admin] = await api.app.db.select().from(users).where(eq(users.email, adminEmail));
      assert.ok(admin);
      assert.equal(signedIn.profile.sub, String(admin.id));
      const idToken = claimsOf(signedIn.id_token ?? '');
      assert.equal(idToken.email, adminEmail);
      assert.equal(idToken.email_verified, true);
      assert.equal((idToken.plan as { nombre: string } | null)?.nombre, 'free');
      assert.equal(idToken.role, undefined);
      assert.ok(signedIn.refresh_token);
      void portalUrl;
      void sessionToken;
    });
  });
});
