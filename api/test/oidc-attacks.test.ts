// Attacks on the portal's OpenID Connect provider, each as an attacker would try it with plain HTTP: redirect URIs
// that only look registered, PKCE left out or wrong, codes replayed or raced or stolen by another client, an open
// redirect through logout, a forged logout hint, another browser's interaction, partner tokens at the token endpoint,
// the apps' tokens at the portal's routes and back, issuer mix-up.
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { generateKeyPair, SignJWT } from 'jose';
import { adminEmail, adminPassword, forEachBackend, login } from './helpers/app.js';
import {
  claimsOf,
  type OidcTestApi,
  portalUrl,
  registerClient,
  relyingParty,
  serverApp,
  startOidcApi,
  TestBrowser,
} from './helpers/oidc.js';

const spaRedirect = 'http://localhost:5173/callback';
const serverRedirect = 'https://servidor.example.com/auth/callback';

const pkce = () => {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
};

forEachBackend((backend) => {
  describe('OpenID Connect provider under attack', () => {
    let api: OidcTestApi;
    let spa: { clientId: string };
    let server: { clientId: string; clientSecret?: string };

    /** An authorization URL written by hand, so every parameter can be bent. */
    const authorize = (params: Record<string, string | undefined>) => {
      const url = new URL(`${api.issuer}/oidc/auth`);
      for (const [name, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(name, value);
      return url.href;
    };

    const tokenRequest = (body: Record<string, string>, basic?: { id: string; secret: string }) =>
      fetch(`${api.issuer}/oidc/token`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          ...(basic ? { authorization: `Basic ${Buffer.from(`${basic.id}:${basic.secret}`).toString('base64')}` } : {}),
        },
        body: new URLSearchParams(body),
      });

    /** A signed-in browser's code for the SPA, with its verifier. */
    const spaCode = async () => {
      const browser = new TestBrowser(api.issuer);
      browser.portalToken = await login(api.app);
      const { verifier, challenge } = pkce();
      const landed = await browser.signInTo(
        authorize({
          client_id: spa.clientId,
          redirect_uri: spaRedirect,
          response_type: 'code',
          scope: 'openid',
          state: 'estado-1',
          code_challenge: challenge,
          code_challenge_method: 'S256',
        }),
      );
      const code = new URL(landed).searchParams.get('code');
      assert.ok(code, landed);
      return { code, verifier, browser };
    };

    before(async () => {
      api = await startOidcApi(backend, { redirectAllowList: [portalUrl] });
      spa = await registerClient(api.app, {
        nombre: 'SPA',
        redirectUris: [spaRedirect],
        postLogoutRedirectUris: ['http://localhost:5173/adios'],
        publico: true,
        primeraParte: true,
      });
      server = await registerClient(api.app, {
        nombre: 'Servidor',
        redirectUris: [serverRedirect],
        primeraParte: true,
      });
    });
    after(() => api.close());

    it('redirect URIs that only look registered are refused on a portal page; the browser never goes there', async () => {
      const { challenge } = pkce();
      const lookAlikes = [
        'http://localhost:5173/callback-malo', // suffix
        'http://localhost:5173/callback/../malo', // path
        'http://localhost:5173/callback?extra=1', // query
        'http://localhost:5173/callback#fragmento', // fragment
        'HTTP://LOCALHOST:5173/CALLBACK', // case
        'http://atacante@localhost:5173/callback', // userinfo
        'http://localhost:5173.atacante.example/callback', // look-alike host
        'http://localhost:5174/callback', // another port (a web client's is exact)
        'http://127.0.0.1:5173/callback', // the same machine by another name
      ];
      const browser = new TestBrowser(api.issuer);
      browser.portalToken = await login(api.app);
      for (const redirect of lookAlikes) {
        const { url } = await browser.navigate(
          authorize({
            client_id: spa.clientId,
            redirect_uri: redirect,
            response_type: 'code',
            scope: 'openid',
            code_challenge: challenge,
            code_challenge_method: 'S256',
          }),
        );
        assert.equal(url, `${portalUrl}/autorizar/error?motivo=redireccion_no_registrada`, redirect);
        assert.ok(!browser.hops.some((hop) => hop.location?.startsWith(redirect)), `never sent to ${redirect}`);
      }
      const unknown = await browser.navigate(
        authorize({ client_id: 'no-existe', redirect_uri: spaRedirect, response_type: 'code', scope: 'openid' }),
      );
      assert.equal(unknown.url, `${portalUrl}/autorizar/error?motivo=cliente_desconocido`);
      const omitted = await browser.navigate(
        authorize({ client_id: spa.clientId, response_type: 'code', scope: 'openid', code_challenge: challenge }),
      );
      assert.match(omitted.url, /^http:\/\/localhost:8080\/autorizar\/error\?motivo=/, 'no redirect_uri: no guessing');
    });

    it('PKCE is required (S256 only): without it or with plain, the app gets an error and no code', async () => {
      const browser = new TestBrowser(api.issuer);
      browser.portalToken = await login(api.app);
      const base = { client_id: server.clientId, redirect_uri: serverRedirect, response_type: 'code', scope: 'openid' };
      for (const params of [base, { ...base, code_challenge: 'a'.repeat(43), code_challenge_method: 'plain' }]) {
        const { url } = await browser.navigate(authorize({ ...params, state: 'e' }));
        const answer = new URL(url);
        assert.equal(answer.origin + answer.pathname, serverRedirect);
        assert.equal(answer.searchParams.get('error'), 'invalid_request');
        assert.equal(answer.searchParams.get('code'), null);
        assert.equal(answer.searchParams.get('iss'), api.issuer);
      }
      const implicit = await browser.navigate(
        authorize({ ...base, response_type: 'id_token token', nonce: 'n', code_challenge: pkce().challenge }),
      );
      assert.doesNotMatch(implicit.url, /access_token|id_token=/, 'no implicit or hybrid flow');
    });

    it('a wrong code verifier, a replayed code and a code of another client are refused; replay revokes', async () => {
      const wrong = await spaCode();
      const mismatched = await tokenRequest({
        grant_type: 'authorization_code',
        code: wrong.code,
        redirect_uri: spaRedirect,
        client_id: spa.clientId,
        code_verifier: pkce().verifier,
      });
      assert.equal(mismatched.status, 400);
      assert.equal(((await mismatched.json()) as { error: string }).error, 'invalid_grant');

      const { code, verifier } = await spaCode();
      const exchange = () =>
        tokenRequest({
          grant_type: 'authorization_code',
          code,
          redirect_uri: spaRedirect,
          client_id: spa.clientId,
          code_verifier: verifier,
        });
      const first = await exchange();
      assert.equal(first.status, 200);
      const { access_token: accessToken } = (await first.json()) as { access_token: string };
      const replay = await exchange();
      assert.equal(replay.status, 400);
      assert.equal(((await replay.json()) as { error: string }).error, 'invalid_grant');
      const info = await fetch(`${api.issuer}/oidc/me`, { headers: { authorization: `Bearer ${accessToken}` } });
      assert.equal(info.status, 401, 'what the first use issued is revoked');

      const stolen = await spaCode();
      const otherClient = await tokenRequest(
        {
          grant_type: 'authorization_code',
          code: stolen.code,
          redirect_uri: spaRedirect,
          code_verifier: stolen.verifier,
        },
        { id: server.clientId, secret: server.clientSecret ?? '' },
      );
      assert.equal(otherClient.status, 400);
      assert.equal(((await otherClient.json()) as { error: string }).error, 'invalid_grant');
    });

    it('the same code redeemed twice at once: at most one answer has tokens, and none of them works', async () => {
      const { code, verifier } = await spaCode();
      const body = {
        grant_type: 'authorization_code',
        code,
        redirect_uri: spaRedirect,
        client_id: spa.clientId,
        code_verifier: verifier,
      };
      const answers = await Promise.all([tokenRequest(body), tokenRequest(body), tokenRequest(body)]);
      const issued = [];
      for (const answer of answers) {
        if (answer.status === 200) issued.push((await answer.json()) as { access_token: string });
        else assert.equal(answer.status, 400);
      }
      assert.ok(issued.length <= 1, `${issued.length} redemptions got tokens`);
      if (answers.some((answer) => answer.status === 400) && issued[0]) {
        const info = await fetch(`${api.issuer}/oidc/me`, {
          headers: { authorization: `Bearer ${issued[0].access_token}` },
        });
        assert.equal(info.status, 401, 'a raced replay revokes the winner too');
      }
    });

    it('state comes back unchanged and the nonce is in the ID token', async () => {
      const browser = new TestBrowser(api.issuer);
      browser.portalToken = await login(api.app);
      const rp = relyingParty({
        authority: api.issuer,
        client_id: spa.clientId,
        redirect_uri: spaRedirect,
        scope: 'openid',
      });
      const request = await rp.createSigninRequest({ nonce: randomBytes(16).toString('base64url') });
      const sent = new URL(request.url);
      const landed = new URL(await browser.signInTo(request.url));
      assert.equal(landed.searchParams.get('state'), sent.searchParams.get('state'));
      const signedIn = await rp.processSigninResponse(landed.href);
      assert.equal(claimsOf(signedIn.id_token ?? '').nonce, sent.searchParams.get('nonce'));
    });

    it('mix-up (RFC 9207): the authorization response and the ID token name the issuer that discovery publishes', async () => {
      const discovery = (await (await fetch(`${api.issuer}/.well-known/openid-configuration`)).json()) as {
        issuer: string;
        authorization_response_iss_parameter_supported: boolean;
      };
      assert.equal(discovery.issuer, api.issuer);
      assert.equal(discovery.authorization_response_iss_parameter_supported, true);
      const { code, verifier, browser } = await spaCode();
      const response = new URL(browser.hops.at(-1)?.location ?? '');
      assert.equal(response.origin + response.pathname, spaRedirect);
      assert.equal(response.searchParams.get('iss'), discovery.issuer, 'an app comparing iss learns who answered');
      const answer = await tokenRequest({
        grant_type: 'authorization_code',
        code,
        redirect_uri: spaRedirect,
        client_id: spa.clientId,
        code_verifier: verifier,
      });
      const tokens = (await answer.json()) as { id_token: string };
      assert.equal(claimsOf(tokens.id_token).iss, discovery.issuer);
      assert.equal(claimsOf(tokens.id_token).aud, spa.clientId);
    });

    it("tokens do not cross: the apps' access and ID tokens are no portal session, the portal's session no access token", async () => {
      // An administrator's tokens: taken as a portal session, they would open the admin routes.
      const { code, verifier, browser } = await spaCode();
      const answer = await tokenRequest({
        grant_type: 'authorization_code',
        code,
        redirect_uri: spaRedirect,
        client_id: spa.clientId,
        code_verifier: verifier,
      });
      const tokens = (await answer.json()) as { access_token: string; id_token: string };
      const portal = (url: string, token: string) =>
        api.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
      const userinfo = (token: string) =>
        fetch(`${api.issuer}/oidc/me`, { headers: { authorization: `Bearer ${token}` } });

      // Each works where it belongs.
      assert.equal((await userinfo(tokens.access_token)).status, 200);
      assert.equal((await portal('/auth/user', browser.portalToken ?? '')).statusCode, 200);
      assert.equal((await portal('/admin/dashboard', browser.portalToken ?? '')).statusCode, 200);
      // The ID token is signed with the portal's own key, so only what it says keeps it out.
      for (const [name, token] of [
        ['access token', tokens.access_token],
        ['ID token', tokens.id_token],
      ] as const) {
        assert.equal((await portal('/auth/user', token)).statusCode, 401, `${name} at /auth/user`);
        assert.equal((await portal('/admin/dashboard', token)).statusCode, 401, `${name} at /admin/dashboard`);
      }
      assert.equal((await userinfo(browser.portalToken ?? '')).status, 401, 'the portal session at userinfo');
      assert.equal((await userinfo(tokens.id_token)).status, 401, 'the ID token at userinfo');
    });

    it("an id_token_hint signed by another issuer ends nothing: the portal's error page, no redirect", async () => {
      const browser = new TestBrowser(api.issuer);
      browser.portalToken = await login(api.app);
      const rp = relyingParty({
        authority: api.issuer,
        client_id: spa.clientId,
        redirect_uri: spaRedirect,
        scope: 'openid',
      });
      const signedIn = await rp.processSigninResponse(await browser.signInTo((await rp.createSigninRequest({})).url));
      const real = claimsOf(signedIn.id_token ?? '');
      const { privateKey } = await generateKeyPair('ES256');
      const forge = (issuer: string, kid: string | undefined) =>
        new SignJWT({ sid: real.sid })
          .setProtectedHeader({ alg: 'ES256', ...(kid ? { kid } : {}) })
          .setIssuer(issuer)
          .setSubject(String(real.sub))
          .setAudience(spa.clientId)
          .setIssuedAt()
          .setExpirationTime('10m')
          .sign(privateKey);
      const target = 'http://localhost:5173/adios';
      for (const [what, hint] of [
        ['another issuer', await forge('https://otro-emisor.example', undefined)],
        ["this issuer's name and key id, another key", await forge(api.issuer, api.signingKey.kid)],
      ] as const) {
        const url = new URL(`${api.issuer}/oidc/session/end`);
        url.searchParams.set('id_token_hint', hint);
        url.searchParams.set('post_logout_redirect_uri', target);
        url.searchParams.set('state', 'vuelta');
        const landed = await browser.navigate(url.href);
        assert.equal(landed.url, `${portalUrl}/autorizar/error?motivo=solicitud_invalida`, what);
        assert.ok(!browser.hops.some((hop) => hop.location?.startsWith(target)), `${what}: never sent to the app`);
      }
      // Nothing was ended: the portal session and the provider's session (the app signs in with no page) go on.
      const me = await api.app.inject({
        method: 'GET',
        url: '/auth/user',
        headers: { authorization: `Bearer ${browser.portalToken}` },
      });
      assert.equal(me.statusCode, 200);
      const again = await browser.navigate((await rp.createSigninRequest({})).url);
      assert.ok(again.url.startsWith(`${spaRedirect}?code=`), again.url);
    });

    it('logout never redirects to an unregistered post_logout_redirect_uri', async () => {
      const browser = new TestBrowser(api.issuer);
      browser.portalToken = await login(api.app);
      const rp = relyingParty({
        authority: api.issuer,
        client_id: spa.clientId,
        redirect_uri: spaRedirect,
        scope: 'openid',
      });
      const signedIn = await rp.processSigninResponse(await browser.signInTo((await rp.createSigninRequest({})).url));
      for (const target of [
        'https://atacante.example/',
        'http://localhost:5173/adios/../robar',
        'http://localhost:5173/',
      ]) {
        const url = new URL(`${api.issuer}/oidc/session/end`);
        url.searchParams.set('id_token_hint', signedIn.id_token ?? '');
        url.searchParams.set('post_logout_redirect_uri', target);
        const landed = await browser.navigate(url.href);
        assert.equal(landed.url, `${portalUrl}/autorizar/error?motivo=redireccion_no_registrada`, target);
      }
      // Still signed in: nothing was ended by the refused requests.
      const me = await api.app.inject({
        method: 'GET',
        url: '/auth/user',
        headers: { authorization: `Bearer ${browser.portalToken}` },
      });
      assert.equal(me.statusCode, 200);
    });

    it("another browser's interaction cannot be answered with the victim's session", async () => {
      // The attacker starts an authorization in their own browser and sends the victim the portal's link.
      const attacker = new TestBrowser(api.issuer);
      const { url } = await attacker.navigate(
        authorize({
          client_id: spa.clientId,
          redirect_uri: spaRedirect,
          response_type: 'code',
          scope: 'openid email',
          code_challenge: pkce().challenge,
          code_challenge_method: 'S256',
        }),
      );
      const uid = new URL(url).searchParams.get('interaccion');
      assert.ok(uid);
      const victim = new TestBrowser(api.issuer);
      victim.portalToken = await login(api.app);
      const details = await victim.portalCall(`/oidc/interaccion/${uid}/detalles`);
      assert.equal(details.status, 404);
      const answered = await victim.portalCall(`/oidc/interaccion/${uid}/continuar`, { method: 'POST', body: {} });
      assert.equal(answered.status, 404);
      const body = (await answered.json()) as { code: string; message: string };
      assert.equal(body.code, 'INTERACTION_NOT_FOUND');
      assert.match(body.message, /expiró o no es válida/);
      // The attacker holding the cookie still has no session of the victim's to finish it with.
      const stolen = await attacker.portalCall(`/oidc/interaccion/${uid}/continuar`, { method: 'POST', body: {} });
      assert.equal(stolen.status, 401);
    });

    it("the spec's partner token is no grant, no access token and no refresh token here", async () => {
      const admin = await login(api.app, adminEmail, adminPassword);
      const minted = await api.app.inject({
        method: 'POST',
        url: '/auth/partner-token',
        headers: { authorization: `Bearer ${admin}` },
        payload: { redirect_url: `${portalUrl}/apps` },
      });
      assert.equal(minted.statusCode, 200, minted.body);
      const partner = minted.json<{ access_token: string }>().access_token;
      const asRefresh = await tokenRequest({
        grant_type: 'refresh_token',
        refresh_token: partner,
        client_id: spa.clientId,
      });
      assert.equal(asRefresh.status, 400);
      const asCode = await tokenRequest({
        grant_type: 'authorization_code',
        code: partner,
        redirect_uri: spaRedirect,
        client_id: spa.clientId,
        code_verifier: pkce().verifier,
      });
      assert.equal(asCode.status, 400);
      const asAccess = await fetch(`${api.issuer}/oidc/me`, { headers: { authorization: `Bearer ${partner}` } });
      assert.equal(asAccess.status, 401);
      const app2 = await serverApp(api.issuer, server.clientId, server.clientSecret ?? '', serverRedirect);
      // A JWT is not one of the provider's tokens at all: refused as an unsupported token type, never active.
      await assert.rejects(
        app2.client.introspect({ accessToken: partner, refreshToken: null, expiresAt: null }),
        /unsupported_token_type/,
      );
    });
  });
});
