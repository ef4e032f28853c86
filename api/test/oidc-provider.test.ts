// The portal as the suite's OpenID Connect provider, from the apps' side: discovery, the code flow with PKCE, one
// sign-in for every app, consent, claims, refresh rotation, introspection, revocation, userinfo and native apps, with
// relying parties this project did not write (oidc-client-ts, @badgateway/oauth2-client, AppAuth).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eq, sql } from 'drizzle-orm';
import { plans, sessions, userPlans, users } from '../src/db/schema.js';
import { adminEmail, createUser, forEachBackend, login } from './helpers/app.js';
import {
  claimsOf,
  nativeApp,
  type OidcTestApi,
  portalUrl,
  registerClient,
  relyingParty,
  serverApp,
  startOidcApi,
  TestBrowser,
  publicIdOf,
} from './helpers/oidc.js';

const spaRedirect = 'http://localhost:5173/callback';
const serverRedirect = 'http://localhost:5174/auth/callback';
const thirdRedirect = 'https://socio.example.com/callback';

forEachBackend((backend) => {
  describe('OpenID Connect provider', () => {
    let api: OidcTestApi;
    let spa: { clientId: string };
    let server: { clientId: string; clientSecret?: string };
    let third: { clientId: string; clientSecret?: string };
    let person: { id: number; email: string; password: string };

    const introspect = async (token: string, clientId: string, secret: string) => {
      const response = await fetch(`${api.issuer}/oidc/token/introspection`, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams({ token }),
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };

    const signedInBrowser = async (email = person.email, password = person.password) => {
      const browser = new TestBrowser(api.issuer);
      browser.portalToken = await login(api.app, email, password);
      return browser;
    };

    before(async () => {
      api = await startOidcApi(backend);
      spa = await registerClient(api.app, {
        nombre: 'Control Max 360 (web)',
        redirectUris: [spaRedirect],
        postLogoutRedirectUris: ['http://localhost:5173/'],
        publico: true,
        primeraParte: true,
        appId: 1,
        scopes: ['openid', 'profile', 'email', 'phone', 'plan', 'offline_access'],
      });
      server = await registerClient(api.app, {
        nombre: 'Beto Pro (servidor)',
        redirectUris: [serverRedirect],
        primeraParte: true,
        appId: 2,
        scopes: ['openid', 'profile', 'email', 'plan', 'offline_access'],
      });
      third = await registerClient(api.app, {
        nombre: 'Socio Analítica',
        redirectUris: [thirdRedirect],
        scopes: ['openid', 'profile', 'email', 'offline_access'],
      });
      person = { id: 0, email: 'ana@oidc.test', password: 'clave-de-ana-1' };
      person.id = await createUser(api.app, { email: person.email, password: person.password, status: 'active' });
      await api.app.db
        .update(users)
        .set({ name: 'Ana', lastName: 'Pérez', phone: '+51 912 345 678' })
        .where(eq(users.id, person.id));
      // The free plan of every app, as an activated account has.
      const free = await api.app.db
        .select({ appId: plans.appId, planId: plans.id })
        .from(plans)
        .where(sql`lower(${plans.nombre}) = 'free'`);
      await api.app.db.insert(userPlans).values(free.map((plan) => ({ userId: person.id, ...plan })));
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
      assert.equal(metadata.end_session_endpoint, `${api.issuer}/oidc/session/end`);
      assert.deepEqual(metadata.id_token_signing_alg_values_supported, ['ES256']);
      const jwks = (await (await fetch(String(metadata.jwks_uri))).json()) as { keys: { kid: string }[] };
      assert.deepEqual(
        jwks.keys.map((key) => key.kid),
        [api.signingKey.kid],
      );
    });

    it('a person not signed in is sent to the portal, which names the app; continuing needs the portal session', async () => {
      const browser = new TestBrowser(api.issuer);
      const rp = relyingParty({
        authority: api.issuer,
        client_id: spa.clientId,
        redirect_uri: spaRedirect,
        scope: 'openid',
      });
      const { url } = await browser.navigate((await rp.createSigninRequest({})).url);
      assert.match(url, new RegExp(`^${portalUrl}/autorizar\\?interaccion=[A-Za-z0-9_-]+$`));
      const uid = new URL(url).searchParams.get('interaccion');
      const details = await browser.portalCall(`/oidc/interaccion/${uid}/detalles`);
      assert.equal(details.status, 200);
      assert.deepEqual(await details.json(), {
        cliente: { id: spa.clientId, nombre: 'Control Max 360 (web)', primeraParte: true },
        permisos: [
          { scope: 'openid', descripcion: 'Saber quién eres (un identificador de tu cuenta, nunca tu contraseña)' },
        ],
        consentimiento: false,
        reautenticar: false,
        segundoFactor: null,
      });
      const anonymous = await browser.portalCall(`/oidc/interaccion/${uid}/continuar`, { method: 'POST', body: {} });
      assert.equal(anonymous.status, 401);
      // Signed in on the portal (its /login), the page answers and the browser goes on to the app.
      browser.portalToken = await login(api.app, person.email, person.password);
      const answer = await browser.portalCall(`/oidc/interaccion/${uid}/continuar`, { method: 'POST', body: {} });
      assert.equal(answer.status, 200);
      const { redirectTo } = (await answer.json()) as { redirectTo: string };
      const landed = await browser.navigate(redirectTo);
      assert.ok(landed.url.startsWith(`${spaRedirect}?code=`), landed.url);
      const signedIn = await rp.processSigninResponse(landed.url);
      assert.equal(signedIn.profile.sub, await publicIdOf(api.app, person.id));
    });

    it('one sign-in: a signed-in person reaches two apps without a form, the second without the portal at all', async () => {
      const browser = await signedInBrowser();
      const rp = relyingParty({
        authority: api.issuer,
        client_id: spa.clientId,
        redirect_uri: spaRedirect,
        scope: 'openid profile email phone plan',
      });
      const first = await browser.signInTo((await rp.createSigninRequest({})).url);
      const callback = new URL(first);
      assert.equal(callback.origin + callback.pathname, spaRedirect, first);
      assert.equal(callback.searchParams.get('iss'), api.issuer, 'RFC 9207: the response names its issuer');
      const spaSession = await rp.processSigninResponse(first);
      const idToken = claimsOf(spaSession.id_token ?? '');
      assert.equal(idToken.iss, api.issuer);
      assert.equal(idToken.sub, await publicIdOf(api.app, person.id));
      assert.equal(idToken.email, person.email);
      assert.equal(idToken.email_verified, true);
      assert.equal(idToken.name, 'Ana Pérez');
      assert.equal(idToken.given_name, 'Ana');
      assert.equal(idToken.family_name, 'Pérez');
      assert.equal(idToken.phone_number, '+51912345678');
      const [freeOfApp1] = await api.app.db
        .select({ id: plans.id })
        .from(plans)
        .where(sql`${plans.appId} = 1 and lower(${plans.nombre}) = 'free'`);
      assert.deepEqual(idToken.plan, {
        id: freeOfApp1?.id,
        nombre: 'free',
        fechaVencimiento: null,
        origen: 'propio',
        empresa: null,
      });
      assert.equal(idToken.role, undefined, 'the role is never a claim');
      // How the person signed in (RFC 8176): a password, one factor.
      assert.deepEqual(idToken.amr, ['pwd']);
      assert.equal(idToken.acr, 'urn:portal:acr:1');

      // The second app: the provider's own session answers, the portal's page is never shown.
      const app2 = await serverApp(api.issuer, server.clientId, server.clientSecret ?? '', serverRedirect);
      const { url } = await browser.navigate(await app2.authorizationUrl(['openid', 'email', 'plan']));
      assert.ok(url.startsWith(`${serverRedirect}?code=`), url);
      assert.ok(!browser.hops.some((hop) => hop.location?.startsWith(portalUrl)), 'no portal page in between');
      const tokens = await app2.exchange(url);
      const second = claimsOf(tokens.idToken ?? '');
      assert.equal(second.sub, await publicIdOf(api.app, person.id));
      assert.equal((second.plan as { nombre: string }).nombre, 'free', 'the plan in Beto Pro, the app of this client');
      assert.deepEqual(second.amr, ['pwd'], "the provider session's sign-in, for every app");
    });

    it('userinfo answers the granted claims for the access token, and nothing without one', async () => {
      const browser = await signedInBrowser();
      const rp = relyingParty({
        authority: api.issuer,
        client_id: spa.clientId,
        redirect_uri: spaRedirect,
        scope: 'openid email plan',
      });
      const signedIn = await rp.processSigninResponse(await browser.signInTo((await rp.createSigninRequest({})).url));
      const info = await fetch(`${api.issuer}/oidc/me`, {
        headers: { authorization: `Bearer ${signedIn.access_token}` },
      });
      assert.equal(info.status, 200);
      const claims = (await info.json()) as Record<string, unknown>;
      assert.equal(claims.sub, await publicIdOf(api.app, person.id));
      assert.equal(claims.email, person.email);
      assert.equal(claims.name, undefined, 'profile was not asked for');
      assert.equal((await fetch(`${api.issuer}/oidc/me`)).status, 401);
    });

    it('a third-party app asks the person (Permitir) once, is listed in /perfil, and loses access when removed there', async () => {
      const browser = await signedInBrowser();
      const app3 = await serverApp(api.issuer, third.clientId, third.clientSecret ?? '', thirdRedirect);
      const { url } = await browser.navigate(await app3.authorizationUrl(['openid', 'email', 'profile']));
      const uid = new URL(url).searchParams.get('interaccion');
      const details = (await (await browser.portalCall(`/oidc/interaccion/${uid}/detalles`)).json()) as {
        consentimiento: boolean;
        permisos: { scope: string }[];
        cliente: { nombre: string; primeraParte: boolean };
      };
      assert.equal(details.consentimiento, true);
      assert.equal(details.cliente.primeraParte, false);
      assert.deepEqual(
        details.permisos.map((p) => p.scope),
        ['openid', 'profile', 'email'],
      );
      const unanswered = await browser.portalCall(`/oidc/interaccion/${uid}/continuar`, { method: 'POST', body: {} });
      assert.equal(unanswered.status, 409);
      assert.equal(((await unanswered.json()) as { code: string }).code, 'CONSENT_REQUIRED');
      const allowed = await browser.portalCall(`/oidc/interaccion/${uid}/continuar`, {
        method: 'POST',
        body: { permitir: true },
      });
      const landed = await browser.navigate(((await allowed.json()) as { redirectTo: string }).redirectTo);
      assert.ok(landed.url.startsWith(`${thirdRedirect}?code=`), landed.url);
      const tokens = await app3.exchange(landed.url);

      // Remembered: in another browser (a new provider session) the same app asks nothing.
      const other = await signedInBrowser();
      const again = await serverApp(api.issuer, third.clientId, third.clientSecret ?? '', thirdRedirect);
      const secondVisit = await other.signInTo(await again.authorizationUrl(['openid', 'email']));
      assert.ok(secondVisit.startsWith(`${thirdRedirect}?code=`), secondVisit);

      const listed = await api.app.inject({
        method: 'GET',
        url: '/auth/aplicaciones',
        headers: { authorization: `Bearer ${browser.portalToken}` },
      });
      assert.equal(listed.statusCode, 200);
      const apps = listed.json<{ data: { clientId: string; nombre: string; permisos: { scope: string }[] }[] }>().data;
      assert.deepEqual(
        apps.map((a) => [a.clientId, a.nombre, a.permisos.map((p) => p.scope)]),
        [[third.clientId, 'Socio Analítica', ['openid', 'profile', 'email']]],
      );
      assert.equal((await introspect(tokens.accessToken, third.clientId, third.clientSecret ?? '')).body.active, true);

      const removed = await api.app.inject({
        method: 'DELETE',
        url: `/auth/aplicaciones/${third.clientId}`,
        headers: { authorization: `Bearer ${browser.portalToken}` },
      });
      assert.equal(removed.statusCode, 204);
      assert.equal((await introspect(tokens.accessToken, third.clientId, third.clientSecret ?? '')).body.active, false);
      const asksAgain = await browser.navigate(await again.authorizationUrl(['openid', 'email']));
      assert.ok(asksAgain.url.startsWith(`${portalUrl}/autorizar?`), asksAgain.url);
      const stranger = await api.app.inject({
        method: 'DELETE',
        url: `/auth/aplicaciones/${third.clientId}`,
        headers: { authorization: `Bearer ${browser.portalToken}` },
      });
      assert.equal(stranger.statusCode, 404);
      assert.match(stranger.json<{ message: string }>().message, /no tiene acceso/);
    });

    it("'Cancelar' on the consent screen sends the app access_denied, with its state and the issuer", async () => {
      const browser = await signedInBrowser('admin@portal.test', 'clave-de-prueba-admin');
      const app3 = await serverApp(api.issuer, third.clientId, third.clientSecret ?? '', thirdRedirect);
      const { url } = await browser.navigate(await app3.authorizationUrl(['openid', 'email']));
      const uid = new URL(url).searchParams.get('interaccion');
      const cancelled = await browser.portalCall(`/oidc/interaccion/${uid}/cancelar`, { method: 'POST', body: {} });
      assert.equal(cancelled.status, 200);
      const landed = await browser.navigate(((await cancelled.json()) as { redirectTo: string }).redirectTo);
      const answer = new URL(landed.url);
      assert.equal(answer.origin + answer.pathname, thirdRedirect);
      assert.equal(answer.searchParams.get('error'), 'access_denied');
      assert.equal(answer.searchParams.get('state'), app3.state);
      assert.equal(answer.searchParams.get('iss'), api.issuer);
      assert.equal(answer.searchParams.get('code'), null);
    });

    it('refresh tokens rotate on every use; using a rotated one again revokes the whole family', async () => {
      const browser = await signedInBrowser();
      const rp = relyingParty({
        authority: api.issuer,
        client_id: spa.clientId,
        redirect_uri: spaRedirect,
        scope: 'openid offline_access',
      });
      // OpenID Connect Core §11: offline_access is granted with prompt=consent (a first-party app still asks nothing).
      const landed = await browser.signInTo((await rp.createSigninRequest({ prompt: 'consent' })).url);
      const first = await rp.processSigninResponse(landed);
      assert.ok(first.refresh_token);
      const second = await rp.useRefreshToken({
        state: { refresh_token: first.refresh_token, session_state: null, profile: first.profile },
      });
      assert.ok(second.refresh_token && second.refresh_token !== first.refresh_token, 'a new refresh token each time');
      const third_ = await rp.useRefreshToken({
        state: { refresh_token: second.refresh_token, session_state: null, profile: first.profile },
      });
      assert.ok(third_.refresh_token);
      // The first (rotated) token shown again: refused, and the family it belongs to is revoked.
      await assert.rejects(
        rp.useRefreshToken({
          state: { refresh_token: first.refresh_token, session_state: null, profile: first.profile },
        }),
        /invalid_grant|grant request is invalid/,
      );
      await assert.rejects(
        rp.useRefreshToken({
          state: { refresh_token: third_.refresh_token, session_state: null, profile: first.profile },
        }),
        /invalid_grant|grant request is invalid/,
      );
      const info = await fetch(`${api.issuer}/oidc/me`, {
        headers: { authorization: `Bearer ${third_.access_token}` },
      });
      assert.equal(info.status, 401, 'the access tokens of the family are revoked too');
    });

    it('introspection: a confidential client learns about its own tokens only; a public client may not ask', async () => {
      const browser = await signedInBrowser();
      const app2 = await serverApp(api.issuer, server.clientId, server.clientSecret ?? '', serverRedirect);
      const tokens = await app2.exchange(await browser.signInTo(await app2.authorizationUrl(['openid'])));
      const itsOwn = await introspect(tokens.accessToken, server.clientId, server.clientSecret ?? '');
      assert.equal(itsOwn.status, 200);
      assert.equal(itsOwn.body.active, true);
      assert.equal(itsOwn.body.sub, await publicIdOf(api.app, person.id));
      assert.equal(itsOwn.body.client_id, server.clientId);
      const theirs = await introspect(tokens.accessToken, third.clientId, third.clientSecret ?? '');
      assert.deepEqual(theirs.body, { active: false }, "another client's token answers inactive");
      const wrongSecret = await introspect(tokens.accessToken, server.clientId, 'no-es-el-secreto');
      assert.equal(wrongSecret.status, 401);
      // A public client learns nothing, not even about its own live token: anyone can name its client_id.
      const rp = relyingParty({
        authority: api.issuer,
        client_id: spa.clientId,
        redirect_uri: spaRedirect,
        scope: 'openid',
      });
      const own = await rp.processSigninResponse(await browser.signInTo((await rp.createSigninRequest({})).url));
      const ownInfo = await fetch(`${api.issuer}/oidc/me`, {
        headers: { authorization: `Bearer ${own.access_token}` },
      });
      assert.equal(ownInfo.status, 200, 'the token is live');
      for (const token of [own.access_token, tokens.accessToken]) {
        const publicClient = await fetch(`${api.issuer}/oidc/token/introspection`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ token, client_id: spa.clientId }),
        });
        assert.deepEqual(await publicClient.json(), { active: false });
      }
    });

    it('revocation (RFC 7009): a revoked refresh token no longer refreshes', async () => {
      const browser = await signedInBrowser();
      const app2 = await serverApp(api.issuer, server.clientId, server.clientSecret ?? '', serverRedirect);
      const tokens = await app2.exchange(
        await browser.signInTo(await app2.authorizationUrl(['openid', 'offline_access'], { prompt: 'consent' })),
      );
      assert.ok(tokens.refreshToken);
      await app2.client.revoke(tokens, 'refresh_token');
      await assert.rejects(app2.client.refreshToken(tokens), /grant|invalid/i);
    });

    it("revocation: a public app revokes its own refresh token to log out (RFC 7009 §2.1); no client revokes another's", async () => {
      const browser = await signedInBrowser();
      const rp = relyingParty({
        authority: api.issuer,
        client_id: spa.clientId,
        redirect_uri: spaRedirect,
        scope: 'openid offline_access',
      });
      const spaTokens = await rp.processSigninResponse(
        await browser.signInTo((await rp.createSigninRequest({ prompt: 'consent' })).url),
      );
      assert.ok(spaTokens.refresh_token);
      const app2 = await serverApp(api.issuer, server.clientId, server.clientSecret ?? '', serverRedirect);
      const serverTokens = await app2.exchange(
        await browser.signInTo(await app2.authorizationUrl(['openid', 'offline_access'], { prompt: 'consent' })),
      );
      assert.ok(serverTokens.refreshToken);

      /** A revocation request: a confidential client with its secret, a public one by its client_id alone. */
      const revoke = (token: string, hint: string, by: { clientId: string; clientSecret?: string }) =>
        fetch(`${api.issuer}/oidc/token/revocation`, {
          method: 'POST',
          headers: {
            'content-type': 'application/x-www-form-urlencoded',
            ...(by.clientSecret
              ? { authorization: `Basic ${Buffer.from(`${by.clientId}:${by.clientSecret}`).toString('base64')}` }
              : {}),
          },
          body: new URLSearchParams({
            token,
            token_type_hint: hint,
            ...(by.clientSecret ? {} : { client_id: by.clientId }),
          }),
        });
      const userinfo = (accessToken: string) =>
        fetch(`${api.issuer}/oidc/me`, { headers: { authorization: `Bearer ${accessToken}` } });

      // Each client tries the other's tokens: answered like an unknown token (200), and nothing is revoked.
      for (const [token, hint, by] of [
        [spaTokens.refresh_token, 'refresh_token', server],
        [spaTokens.access_token, 'access_token', server],
        [serverTokens.refreshToken, 'refresh_token', spa],
        [serverTokens.accessToken, 'access_token', spa],
      ] as const) {
        assert.equal((await revoke(token, hint, by)).status, 200);
      }
      assert.equal((await userinfo(spaTokens.access_token)).status, 200, "the SPA's access token still works");
      assert.equal(
        (await introspect(serverTokens.accessToken, server.clientId, server.clientSecret ?? '')).body.active,
        true,
      );
      const refreshed = await app2.client.refreshToken(serverTokens);
      assert.ok(refreshed.refreshToken, "the server app's refresh token still refreshes");

      // The SPA logs out: its own refresh token, revoked with no secret, takes the grant's access token with it.
      assert.equal((await revoke(spaTokens.refresh_token, 'refresh_token', spa)).status, 200);
      await assert.rejects(
        rp.useRefreshToken({
          state: { refresh_token: spaTokens.refresh_token, session_state: null, profile: spaTokens.profile },
        }),
        /invalid_grant|grant request is invalid/,
      );
      assert.equal((await userinfo(spaTokens.access_token)).status, 401);
    });

    it('native apps (AppAuth): the mobile apps by their own scheme, a desktop app on any loopback port', async () => {
      const desktop = await registerClient(api.app, {
        nombre: 'TX30 (escritorio)',
        redirectUris: ['http://127.0.0.1/callback'],
        publico: true,
        primeraParte: true,
        appId: 3,
        scopes: ['openid', 'profile', 'plan', 'offline_access'],
      });
      const browser = await signedInBrowser();

      // The two mobile apps, each a public client on its own scheme (RFC 8252 §7.1).
      for (const [nombre, redirect] of [
        ['Beto Pro (móvil)', 'betopro://auth/callback'],
        ['Control Max 360 (móvil)', 'controlmax://auth/callback'],
      ] as const) {
        const mobile = await registerClient(api.app, {
          nombre,
          redirectUris: [redirect],
          publico: true,
          primeraParte: true,
          scopes: ['openid', 'profile', 'offline_access'],
        });
        const phone = await nativeApp(api.issuer, mobile.clientId, redirect, 'openid profile offline_access');
        assert.match(phone.authorizationUrl, /code_challenge_method=S256/);
        const back = await browser.signInTo(phone.authorizationUrl);
        assert.ok(back.startsWith(`${redirect}?code=`), back);
        assert.equal(new URL(back).searchParams.get('state'), phone.state);
        const phoneTokens = await phone.exchange(back);
        assert.equal(claimsOf(phoneTokens.idToken ?? '').sub, await publicIdOf(api.app, person.id));
        assert.equal(claimsOf(phoneTokens.idToken ?? '').aud, mobile.clientId);
        assert.ok(phoneTokens.refreshToken);
        const refreshed = await phone.refresh(phoneTokens.refreshToken ?? '');
        assert.notEqual(refreshed.refreshToken, phoneTokens.refreshToken);
      }

      // RFC 8252 §7.3: the port of a loopback redirect is the app's to choose at run time.
      const port = 49152 + Math.floor(Math.random() * 10000);
      const redirect = `http://127.0.0.1:${port}/callback`;
      const pc = await nativeApp(api.issuer, desktop.clientId, redirect, 'openid plan offline_access');
      const landed = await browser.signInTo(pc.authorizationUrl);
      assert.ok(landed.startsWith(`${redirect}?code=`), landed);
      const pcTokens = await pc.exchange(landed);
      assert.equal((claimsOf(pcTokens.idToken ?? '').plan as { nombre: string }).nombre, 'free');
      // Not any loopback path, and never a non-loopback host.
      const other = await nativeApp(api.issuer, desktop.clientId, `http://127.0.0.1:${port}/otra`, 'openid');
      assert.match((await browser.navigate(other.authorizationUrl)).url, /motivo=redireccion_no_registrada/);
    });

    it('prompt=login: a session older than the request must sign in again before the app gets a code', async () => {
      const browser = await signedInBrowser();
      const rp = relyingParty({
        authority: api.issuer,
        client_id: spa.clientId,
        redirect_uri: spaRedirect,
        scope: 'openid',
      });
      // The portal session began a minute ago.
      await api.app.db
        .update(sessions)
        .set({ createdAt: new Date(Date.now() - 60_000) })
        .where(eq(sessions.userId, person.id));
      const { url } = await browser.navigate((await rp.createSigninRequest({ prompt: 'login', max_age: 30 })).url);
      const uid = new URL(url).searchParams.get('interaccion');
      const details = (await (await browser.portalCall(`/oidc/interaccion/${uid}/detalles`)).json()) as {
        reautenticar: boolean;
      };
      assert.equal(details.reautenticar, true);
      const refused = await browser.portalCall(`/oidc/interaccion/${uid}/continuar`, { method: 'POST', body: {} });
      assert.equal(refused.status, 401);
      assert.equal(((await refused.json()) as { code: string }).code, 'SIGN_IN_AGAIN');
      browser.portalToken = await login(api.app, person.email, person.password);
      const answer = await browser.portalCall(`/oidc/interaccion/${uid}/continuar`, { method: 'POST', body: {} });
      assert.equal(answer.status, 200);
      const landed = await browser.navigate(((await answer.json()) as { redirectTo: string }).redirectTo);
      const signedIn = await rp.processSigninResponse(landed.url);
      assert.ok(Number(claimsOf(signedIn.id_token ?? '').auth_time) >= Math.floor(Date.now() / 1000) - 30);
    });

    it('a suspended person gets no code, whatever the provider session says', async () => {
      const email = 'suspendida@oidc.test';
      const id = await createUser(api.app, { email, password: 'clave-suspendida', status: 'active' });
      const browser = await signedInBrowser(email, 'clave-suspendida');
      const rp = relyingParty({
        authority: api.issuer,
        client_id: spa.clientId,
        redirect_uri: spaRedirect,
        scope: 'openid',
      });
      assert.ok((await browser.signInTo((await rp.createSigninRequest({})).url)).startsWith(spaRedirect));
      await api.app.inject({
        method: 'PUT',
        url: `/auth/cambiar-estado/${id}`,
        headers: { authorization: `Bearer ${await login(api.app, adminEmail, 'clave-de-prueba-admin')}` },
      });
      const { url } = await browser.navigate((await rp.createSigninRequest({})).url);
      assert.ok(url.startsWith(`${portalUrl}/autorizar?`), `asked to sign in again, not let through: ${url}`);
      const answer = await browser.portalCall(
        `/oidc/interaccion/${new URL(url).searchParams.get('interaccion')}/continuar`,
        {
          method: 'POST',
          body: {},
        },
      );
      assert.equal(answer.status, 403);
    });
  });
});
