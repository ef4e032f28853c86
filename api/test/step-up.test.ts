// Step-up (docs/decisions/0137-step-up.md): an app that asks for `urn:portal:acr:2` gets it only when the person proved
// a second factor in this sign-in, also on a portal session that proved none. The app is openid-client asking
// `acr_values` and an essential `acr`; the browser plays the portal's /autorizar page with the person's session.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import * as oidc from 'openid-client';
import { generate } from 'otplib';
import { sessions, users } from '../src/db/schema.js';
import { createUser, forEachBackend, login } from './helpers/app.js';
import { continuationOf, type Partner, partner, postedForm, redirectQuery } from './helpers/saml-partner.js';
import { SoftAuthenticator } from './helpers/soft-authenticator.js';
import {
  answerDevice,
  deviceRelyingParty,
  type OidcTestApi,
  openidClient,
  registerClient,
  startOidcApi,
  TestBrowser,
} from './helpers/oidc.js';

type Json = Record<string, unknown>;
const password = 'clave-de-la-persona-1';
const redirect = 'https://historiador.example.com/callback';
const acr2 = 'urn:portal:acr:2';
const essentialAcr2 = JSON.stringify({ id_token: { acr: { essential: true, values: [acr2] } } });

forEachBackend((backend) => {
  describe(`step-up: an app asking for a second factor (${backend})`, () => {
    const clock = { now: Date.now() };
    let api: OidcTestApi;
    let client: { clientId: string; clientSecret?: string };
    let config: oidc.Configuration;
    let panel: { clientId: string };
    let people = 0;

    const call = (method: 'GET' | 'POST', url: string, token: string, payload?: object) =>
      api.app.inject({
        method,
        url,
        headers: { authorization: `Bearer ${token}` },
        ...(payload ? { payload } : {}),
      });
    /** The code the authenticator app shows now; the clock then moves on a step, so the next code is a new one. */
    const totp = async (secret: string) => {
      const code = await generate({ secret, epoch: Math.floor(clock.now / 1000) });
      clock.now += 30_000;
      return code;
    };

    /** A person signed in with a password only (a session that proved no second factor). */
    async function passwordSession() {
      people += 1;
      const email = `persona${people}@portal.test`;
      const userId = await createUser(api.app, { email, password, status: 'active' });
      return { email, userId, token: await login(api.app, email, password) };
    }

    /** Sets the authenticator app up in the session `token` (which then counts as having proved it). */
    async function enableTotp(token: string) {
      const setup = await call('POST', '/auth/totp', token);
      assert.equal(setup.statusCode, 200, setup.body);
      const { secret } = setup.json<{ secret: string }>();
      const confirmed = await call('POST', '/auth/totp/confirmar', token, { code: await totp(secret) });
      assert.equal(confirmed.statusCode, 200, confirmed.body);
      return { secret, recoveryCodes: confirmed.json<{ recoveryCodes: string[] }>().recoveryCodes };
    }

    /** The authenticator app's code sent to prove the second factor in the session `token` (step-up): 204. */
    async function proveTotp(token: string, secret: string) {
      const proved = await call('POST', '/auth/segundo-factor/verificar', token, { code: await totp(secret) });
      assert.equal(proved.statusCode, 204, proved.body);
    }

    /** A person with the authenticator app set up (in another session), signed in here with the password only. */
    async function personWithTotpOnPasswordSession() {
      const person = await passwordSession();
      const factor = await enableTotp(await login(api.app, person.email, password));
      return { ...person, ...factor };
    }

    /** The app's authorization request, as openid-client builds it. */
    async function authorization(extra: Record<string, string>) {
      const state = oidc.randomState();
      const verifier = oidc.randomPKCECodeVerifier();
      const url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: redirect,
        scope: 'openid email',
        state,
        code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        ...extra,
      });
      return { url, state, verifier };
    }

    /** The app redeems the code it landed with: its ID token's claims. */
    async function idTokenOf(landed: string, asked: { state: string; verifier: string }, maxAge?: number) {
      const tokens = await oidc.authorizationCodeGrant(config, new URL(landed), {
        pkceCodeVerifier: asked.verifier,
        expectedState: asked.state,
        ...(maxAge === undefined ? {} : { maxAge }),
      });
      const claims = tokens.claims();
      assert.ok(claims);
      return claims as Json;
    }

    /** Whether the portal session of `token` counts as having proved a second factor (sessions.second_factor). */
    async function sessionProved(token: string) {
      const verified = await api.app.tokens.verify(token, ['session'], { fresh: true });
      assert.ok(verified);
      const [row] = await api.app.db.select().from(sessions).where(eq(sessions.id, verified.sessionId));
      return row?.secondFactor;
    }

    const interactionOf = (landed: string) => new URL(landed).searchParams.get('interaccion') ?? '';

    let samlApp: Partner;
    const mfaClass = 'https://refeds.org/profile/mfa';
    const passwordClass = 'urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport';
    const sfaClass = 'https://refeds.org/profile/sfa';

    /** A SAML request of the partner, waiting at the portal: its continuation id. */
    async function samlRequest(options: Parameters<typeof redirectQuery>[1] = {}) {
      const { query } = redirectQuery(samlApp, options);
      const started = await api.app.inject({ method: 'GET', url: `/saml/idp/sso?${query}` });
      return continuationOf(started, api.app.config.portalUrl);
    }

    /** The Response the one-time page posts, as XML. */
    async function postedResponse(redirectTo: string): Promise<string> {
      const page = await api.app.inject({ method: 'GET', url: redirectTo.slice(api.issuer.length) });
      assert.equal(page.statusCode, 200, page.body);
      return Buffer.from(postedForm(page.body).samlResponse, 'base64').toString('utf8');
    }
    const classOf = (xml: string) => /<saml:AuthnContextClassRef>([^<]*)</.exec(xml)?.[1];
    const statusesOf = (xml: string) => [...xml.matchAll(/<samlp:StatusCode Value="([^"]*)"/g)].map((m) => m[1]);

    before(async () => {
      api = await startOidcApi(
        backend,
        { authRateLimitPerMinute: 100_000, loginRateLimitPerMinute: 100_000 },
        { clock: () => clock.now },
      );
      client = await registerClient(api.app, {
        nombre: 'Historiador',
        redirectUris: [redirect],
        scopes: ['openid', 'email'],
      });
      config = await openidClient(api.issuer, client);
      panel = await registerClient(api.app, {
        nombre: 'Panel de planta',
        publico: true,
        dispositivos: true,
        scopes: ['openid', 'email'],
      });
      samlApp = await partner('historiador-paso');
      const registered = await call('POST', '/admin/aplicaciones-saml', await login(api.app), {
        nombre: 'Historiador SAML',
        metadata: samlApp.metadata,
      });
      assert.equal(registered.statusCode, 201, registered.body);
    });
    after(() => api?.close());

    it('a password-only session of a person with TOTP is asked for the code; the ID token then says acr 2 and mfa', async () => {
      const person = await personWithTotpOnPasswordSession();
      const asked = await authorization({ acr_values: acr2, claims: essentialAcr2 });
      const browser = new TestBrowser(api.issuer);
      browser.portalToken = person.token;

      // The page answers with the session as it is: refused, the app gets nothing yet.
      const stopped = await browser.signInTo(asked.url.href, { allow: true });
      assert.match(stopped, /\/autorizar\?interaccion=.*#409:/, stopped);
      assert.match(stopped, /STEP_UP_REQUIRED/);
      const uid = interactionOf(stopped);
      const details = await browser.portalCall(`/oidc/interaccion/${uid}/detalles`);
      assert.equal(details.status, 200);
      assert.deepEqual(((await details.json()) as Json).segundoFactor, {
        metodos: ['totp', 'recovery'],
        permiteConfiarDispositivo: true,
      });

      // A wrong code proves nothing.
      const wrong = await call('POST', '/auth/segundo-factor/verificar', person.token, { code: '000000' });
      assert.equal(wrong.statusCode, 400, wrong.body);
      assert.equal(wrong.json<{ code: string }>().code, 'INVALID_SECOND_FACTOR');
      assert.equal(await sessionProved(person.token), false);

      // The code of the authenticator app, in this same session: on to the app.
      await proveTotp(person.token, person.secret);
      assert.equal(await sessionProved(person.token), true);
      const again = await browser.portalCall(`/oidc/interaccion/${uid}/detalles`);
      assert.equal(((await again.json()) as Json).segundoFactor, null);
      const landed = await browser.signInTo(asked.url.href, { allow: true });
      assert.ok(landed.startsWith(redirect), landed);
      const claims = await idTokenOf(landed, asked);
      assert.equal(claims.acr, acr2);
      assert.deepEqual(claims.amr, ['pwd', 'mfa']);
    });

    it('a trusted device never meets step-up: its session skipped the code at sign-in, the app still gets it asked', async () => {
      const person = await personWithTotpOnPasswordSession();
      const signIn = (payload: object, cookie?: string) =>
        api.app.inject({
          method: 'POST',
          url: payload && 'ticket' in payload ? '/auth/login/segundo-paso' : '/auth/login',
          payload,
          headers: cookie ? { cookie } : {},
        });
      const first = await signIn({ email: person.email, password });
      const ticked = await signIn({
        ticket: first.json<{ ticket: string }>().ticket,
        code: await totp(person.secret),
        confiarDispositivo: true,
      });
      const cookie = ticked.cookies.find((set) => set.name === 'portal_dispositivo_confiable');
      assert.ok(cookie, ticked.body);
      const trusted = await signIn({ email: person.email, password }, `${cookie.name}=${cookie.value}`);
      assert.equal(trusted.statusCode, 200, 'no code asked at sign-in');
      const token = trusted.json<{ access_token: string }>().access_token;
      assert.equal(await sessionProved(token), false);

      const asked = await authorization({ acr_values: acr2, claims: essentialAcr2 });
      const browser = new TestBrowser(api.issuer);
      browser.portalToken = token;
      const stopped = await browser.signInTo(asked.url.href, { allow: true });
      assert.match(stopped, /#409:.*STEP_UP_REQUIRED/, stopped);
      await proveTotp(token, person.secret);
      const claims = await idTokenOf(await browser.signInTo(asked.url.href, { allow: true }), asked);
      assert.deepEqual([claims.acr, claims.amr], [acr2, ['pwd', 'mfa']]);
    });

    it('a recovery code proves it too, once', async () => {
      const person = await personWithTotpOnPasswordSession();
      const [recovery] = person.recoveryCodes;
      const proved = await call('POST', '/auth/segundo-factor/verificar', person.token, { code: recovery });
      assert.equal(proved.statusCode, 204, proved.body);
      const other = await passwordSession();
      const reused = await call('POST', '/auth/segundo-factor/verificar', other.token, { code: recovery });
      assert.equal(reused.statusCode, 404, reused.body);
      const asked = await authorization({ acr_values: acr2, claims: essentialAcr2 });
      const browser = new TestBrowser(api.issuer);
      browser.portalToken = person.token;
      const landed = await browser.signInTo(asked.url.href, { allow: true });
      assert.ok(landed.startsWith(redirect), landed);
      assert.equal((await idTokenOf(landed, asked)).acr, acr2);
    });

    it("a passkey proves it too: only the account's own, on options made for this session's account", async () => {
      const person = await passwordSession();
      const { rpId, origins } = api.app.config.webauthn;
      const device = new SoftAuthenticator({ rpId, origin: origins[0] as string });
      // The passkey added in another session (which proves it there, not here).
      const elsewhere = await login(api.app, person.email, password);
      const registration = await call('POST', '/auth/passkeys/opciones-registro', elsewhere);
      assert.equal(registration.statusCode, 200, registration.body);
      const { ceremonyId, options } = registration.json<{ ceremonyId: string; options: unknown }>();
      const added = await call('POST', '/auth/passkeys', elsewhere, {
        ceremonyId,
        name: 'Mi portátil',
        response: device.register(options as never),
      });
      assert.equal(added.statusCode, 201, added.body);
      assert.equal(await sessionProved(person.token), false);

      const asked = await authorization({ acr_values: acr2, claims: essentialAcr2 });
      const browser = new TestBrowser(api.issuer);
      browser.portalToken = person.token;
      const stopped = await browser.signInTo(asked.url.href, { allow: true });
      const details = await browser.portalCall(`/oidc/interaccion/${interactionOf(stopped)}/detalles`);
      assert.deepEqual(((await details.json()) as Json).segundoFactor, {
        metodos: ['passkey'],
        permiteConfiarDispositivo: true,
      });

      // Someone else's passkey on this person's options proves nothing, and the session stands (400, not 401).
      const stranger = await passwordSession();
      const strangerOptions = await call('POST', '/auth/segundo-factor/opciones-llave', stranger.token);
      assert.equal(strangerOptions.statusCode, 404, strangerOptions.body);
      const mine = await call('POST', '/auth/segundo-factor/opciones-llave', person.token);
      assert.equal(mine.statusCode, 200, mine.body);
      const ceremony = mine.json<{ ceremonyId: string; options: unknown }>();
      const foreign = await call('POST', '/auth/segundo-factor/verificar-llave', stranger.token, {
        ceremonyId: ceremony.ceremonyId,
        response: device.assert(ceremony.options as never),
      });
      assert.equal(foreign.statusCode, 400, foreign.body);
      assert.equal(await sessionProved(stranger.token), false);

      const again = await call('POST', '/auth/segundo-factor/opciones-llave', person.token);
      const fresh = again.json<{ ceremonyId: string; options: unknown }>();
      const proved = await call('POST', '/auth/segundo-factor/verificar-llave', person.token, {
        ceremonyId: fresh.ceremonyId,
        response: device.assert(fresh.options as never),
      });
      assert.equal(proved.statusCode, 204, proved.body);
      assert.equal(await sessionProved(person.token), true);
      const landed = await browser.signInTo(asked.url.href, { allow: true });
      assert.ok(landed.startsWith(redirect), landed);
      const claims = await idTokenOf(landed, asked);
      assert.equal(claims.acr, acr2);
      assert.deepEqual(claims.amr, ['pwd', 'mfa']);
    });

    it('a person with no second factor is offered one; cancelling sends unmet_authentication_requirements, setting one up goes on', async () => {
      const person = await passwordSession();
      const asked = await authorization({ acr_values: acr2, claims: essentialAcr2 });
      const browser = new TestBrowser(api.issuer);
      browser.portalToken = person.token;
      const stopped = await browser.signInTo(asked.url.href, { allow: true });
      assert.match(stopped, /#409:.*STEP_UP_REQUIRED/, stopped);
      const uid = interactionOf(stopped);
      const details = await browser.portalCall(`/oidc/interaccion/${uid}/detalles`);
      assert.deepEqual(((await details.json()) as Json).segundoFactor, {
        metodos: [],
        permiteConfiarDispositivo: true,
      });

      const cancelled = await browser.portalCall(`/oidc/interaccion/${uid}/cancelar`, {
        method: 'POST',
        body: { motivo: 'segundo_factor' },
      });
      assert.equal(cancelled.status, 200);
      const { redirectTo } = (await cancelled.json()) as { redirectTo: string };
      const { url } = await browser.navigate(redirectTo);
      assert.ok(url.startsWith(redirect), url);
      assert.equal(new URL(url).searchParams.get('error'), 'unmet_authentication_requirements');
      assert.equal(new URL(url).searchParams.get('code'), null);

      // Again, and this time the person sets the authenticator app up there and then: the app gets acr 2.
      const second = await authorization({ acr_values: acr2, claims: essentialAcr2 });
      const waiting = await browser.signInTo(second.url.href, { allow: true });
      assert.match(waiting, /STEP_UP_REQUIRED/);
      await enableTotp(person.token);
      const landed = await browser.signInTo(second.url.href, { allow: true });
      assert.ok(landed.startsWith(redirect), landed);
      const claims = await idTokenOf(landed, second);
      assert.equal(claims.acr, acr2);
      assert.deepEqual(claims.amr, ['pwd', 'mfa']);
    });

    it('plain acr_values on a provider session that proved none still meets the portal, which asks', async () => {
      const person = await personWithTotpOnPasswordSession();
      const browser = new TestBrowser(api.issuer);
      browser.portalToken = person.token;
      // A first sign-in without step-up: acr 1, and a provider session in this browser.
      const first = await authorization({});
      const firstLanded = await browser.signInTo(first.url.href, { allow: true });
      assert.ok(firstLanded.startsWith(redirect), firstLanded);
      assert.equal((await idTokenOf(firstLanded, first)).acr, 'urn:portal:acr:1');

      // acr_values alone: no silent code with acr 1, the portal's page asks.
      const asked = await authorization({ acr_values: acr2 });
      const { url } = await browser.navigate(asked.url.href);
      assert.ok(url.includes('/autorizar?interaccion='), url);
      const stopped = await browser.signInTo(asked.url.href, { allow: true });
      assert.match(stopped, /STEP_UP_REQUIRED/, stopped);
      await proveTotp(person.token, person.secret);
      const landed = await browser.signInTo(asked.url.href, { allow: true });
      assert.ok(landed.startsWith(redirect), landed);
      const claims = await idTokenOf(landed, asked);
      assert.equal(claims.acr, acr2);
      assert.deepEqual(claims.amr, ['pwd', 'mfa']);

      // prompt=none with acr_values on that session now signs in silently: its provider session proved it.
      const silent = await authorization({ acr_values: acr2, prompt: 'none' });
      const quiet = await browser.navigate(silent.url.href);
      assert.ok(quiet.url.startsWith(redirect), quiet.url);
      assert.equal((await idTokenOf(quiet.url, silent)).acr, acr2);
    });

    it('max_age and prompt=login keep working beside step-up, and auth_time is in the ID token', async () => {
      const person = await personWithTotpOnPasswordSession();
      // The portal session was signed in a minute before the request.
      await api.app.db
        .update(sessions)
        .set({ createdAt: new Date(Date.now() - 60_000) })
        .where(eq(sessions.userId, person.userId));
      const browser = new TestBrowser(api.issuer);
      browser.portalToken = person.token;
      // prompt=login: a fresh sign-in first, before any second factor.
      const fresh = await authorization({ acr_values: acr2, claims: essentialAcr2, prompt: 'login' });
      const stopped = await browser.signInTo(fresh.url.href, { allow: true });
      assert.match(stopped, /#401:.*SIGN_IN_AGAIN/, stopped);

      await proveTotp(person.token, person.secret);
      const asked = await authorization({ acr_values: acr2, claims: essentialAcr2, max_age: '3600' });
      const landed = await browser.signInTo(asked.url.href, { allow: true });
      assert.ok(landed.startsWith(redirect), landed);
      const claims = await idTokenOf(landed, asked, 3600);
      assert.equal(claims.acr, acr2);
      assert.equal(typeof claims.auth_time, 'number');
    });

    it("an essential acr in `claims` alone (the ID token's or userinfo's) asks for it as acr_values does; discovery says the parameter is taken", async () => {
      const discovery = await (await fetch(`${api.issuer}/.well-known/openid-configuration`)).json();
      assert.equal((discovery as Json).claims_parameter_supported, true);
      const person = await personWithTotpOnPasswordSession();
      const browser = new TestBrowser(api.issuer);
      browser.portalToken = person.token;
      const userinfoAcr = JSON.stringify({ userinfo: { acr: { essential: true, value: acr2 } } });
      for (const claims of [essentialAcr2, userinfoAcr]) {
        const stopped = await browser.signInTo((await authorization({ claims })).url.href, { allow: true });
        assert.match(stopped, /#409:.*STEP_UP_REQUIRED/, `${claims}: ${stopped}`);
      }
      await proveTotp(person.token, person.secret);
      const asked = await authorization({ claims: essentialAcr2 });
      const claims = await idTokenOf(await browser.signInTo(asked.url.href, { allow: true }), asked);
      assert.deepEqual([claims.acr, claims.amr], [acr2, ['pwd', 'mfa']]);

      // An essential acr the portal never gives is refused to the app at once, instead of asking the person forever.
      const unknown = JSON.stringify({ id_token: { acr: { essential: true, values: ['urn:otra:acr:plata'] } } });
      const refused = new URL((await browser.navigate((await authorization({ claims: unknown })).url.href)).url);
      assert.equal(refused.origin + refused.pathname, redirect, refused.href);
      assert.equal(refused.searchParams.get('error'), 'unmet_authentication_requirements');
      // Asking for the level one factor meets is met by this session, which proved two (levels are ordered).
      const lower = JSON.stringify({ id_token: { acr: { essential: true, values: ['urn:portal:acr:1'] } } });
      const met = await authorization({ claims: lower });
      const landed = await browser.signInTo(met.url.href, { allow: true });
      assert.ok(landed.startsWith(redirect), landed);
      assert.equal((await idTokenOf(landed, met)).acr, acr2);
    });

    it('`claims` releases nothing the scopes do not: named claims outside them, or another subject, get nothing', async () => {
      const person = await passwordSession();
      await api.app.db.update(users).set({ phone: '+56912345678' }).where(eq(users.id, person.userId));
      const browser = new TestBrowser(api.issuer);
      browser.portalToken = person.token;
      const named = { name: null, phone_number: null, email: null, plan: null, roles: null, organization: null };
      const claims = JSON.stringify({ id_token: named, userinfo: named });
      // Only `openid` asked: neither the ID token nor userinfo says more than who it is.
      const bare = await authorization({ scope: 'openid', claims });
      const landed = await browser.signInTo(bare.url.href, { allow: true });
      assert.ok(landed.startsWith(redirect), landed);
      const tokens = await oidc.authorizationCodeGrant(config, new URL(landed), {
        pkceCodeVerifier: bare.verifier,
        expectedState: bare.state,
      });
      const idToken = tokens.claims() as Json;
      for (const claim of Object.keys(named)) assert.equal(idToken[claim], undefined, claim);
      const userinfo = await oidc.fetchUserInfo(config, tokens.access_token, String(idToken.sub));
      assert.deepEqual(Object.keys(userinfo), ['sub']);
      // `email` asked as a scope too: that one, and still nothing of the scopes the app was never given.
      const withEmail = await authorization({ scope: 'openid email', claims });
      const released = await idTokenOf(await browser.signInTo(withEmail.url.href, { allow: true }), withEmail);
      assert.equal(released.email, person.email);
      for (const claim of ['name', 'phone_number', 'plan', 'roles', 'organization'])
        assert.equal(released[claim], undefined, claim);

      // A `sub` value of someone else: no token for this person, and no endless sign-in either.
      const other = JSON.stringify({ id_token: { sub: { value: 'otra-persona' } } });
      const foreign = await authorization({ claims: other });
      const answered = new URL(await browser.signInTo(foreign.url.href, { allow: true }));
      assert.equal(answered.origin + answered.pathname, redirect, answered.href);
      assert.equal(answered.searchParams.get('error'), 'login_required');
      assert.equal(answered.searchParams.get('code'), null);
      const own = JSON.stringify({ id_token: { sub: { value: String(idToken.sub) } } });
      const mine = await authorization({ claims: own });
      assert.equal((await idTokenOf(await browser.signInTo(mine.url.href, { allow: true }), mine)).sub, idToken.sub);
    });

    it('the device grant asks it too: /dispositivo wants the second factor, the tokens say acr 2; declined, the device is told unmet_authentication_requirements', async () => {
      const person = await personWithTotpOnPasswordSession();
      const device = await deviceRelyingParty(api.issuer, panel.clientId);
      const started = await oidc.initiateDeviceAuthorization(device, { scope: 'openid email', acr_values: acr2 });
      const typed = { codigo: started.user_code };
      const seen = await answerDevice(api.app, 'consultar', typed, person.token);
      assert.equal(seen.statusCode, 200, seen.body);
      assert.deepEqual(seen.json<Json>().segundoFactor, {
        metodos: ['totp', 'recovery'],
        permiteConfiarDispositivo: true,
      });
      // 'Permitir' sent without proving it (plain HTTP, as an attacker with the session would): refused, nothing given.
      const early = await answerDevice(api.app, 'confirmar', { ...typed, permitir: true }, person.token);
      assert.equal(early.statusCode, 409, early.body);
      assert.equal(early.json<Json>().code, 'STEP_UP_REQUIRED');

      await proveTotp(person.token, person.secret);
      assert.equal((await answerDevice(api.app, 'consultar', typed, person.token)).json<Json>().segundoFactor, null);
      const allowed = await answerDevice(api.app, 'confirmar', { ...typed, permitir: true }, person.token);
      assert.equal(allowed.statusCode, 200, allowed.body);
      // The device polls once, now (its first wait is the interval the portal asked for).
      const tokens = await oidc.pollDeviceAuthorizationGrant(device, { ...started, interval: 0 });
      const claims = tokens.claims();
      assert.deepEqual([claims?.acr, claims?.amr], [acr2, ['pwd', 'mfa']]);

      // A person with none leaves with 'Cancelar' on that step: the device learns why, and gets no token.
      const other = await passwordSession();
      const declined = await oidc.initiateDeviceAuthorization(device, { scope: 'openid email', acr_values: acr2 });
      const left = await answerDevice(
        api.app,
        'confirmar',
        { codigo: declined.user_code, permitir: false, motivo: 'segundo_factor' },
        other.token,
      );
      assert.equal(left.statusCode, 200, left.body);
      await assert.rejects(oidc.pollDeviceAuthorizationGrant(device, { ...declined, interval: 0 }), {
        error: 'unmet_authentication_requirements',
      });
    });

    describe('SAML: a second factor or a new sign-in', () => {
      it('RequestedAuthnContext naming REFEDS MFA, or better than a password, asks the code of a password-only session; the assertion then says mfa', async () => {
        for (const authnContext of [{ classes: [mfaClass] }, { classes: [passwordClass], comparison: 'better' }]) {
          const person = await personWithTotpOnPasswordSession();
          const solicitud = await samlRequest({ authnContext });
          const seen = await call('GET', `/saml/idp/solicitudes/${solicitud}`, person.token);
          assert.equal(seen.statusCode, 200, seen.body);
          assert.deepEqual(seen.json<Json>().segundoFactor, {
            metodos: ['totp', 'recovery'],
            permiteConfiarDispositivo: true,
          });
          const refused = await call('POST', `/saml/idp/solicitudes/${solicitud}/continuar`, person.token, {
            permitir: true,
          });
          assert.equal(refused.statusCode, 409, refused.body);
          assert.equal(refused.json<{ code: string }>().code, 'STEP_UP_REQUIRED');

          await proveTotp(person.token, person.secret);
          const allowed = await call('POST', `/saml/idp/solicitudes/${solicitud}/continuar`, person.token, {
            permitir: true,
          });
          assert.equal(allowed.statusCode, 200, allowed.body);
          assert.equal(classOf(await postedResponse(allowed.json<{ redirectTo: string }>().redirectTo)), mfaClass);
        }
      });

      it('minimum MFA for a person with none: cancelling answers Responder/NoAuthnContext, no assertion', async () => {
        const person = await passwordSession();
        const solicitud = await samlRequest({ authnContext: { classes: [mfaClass], comparison: 'minimum' } });
        const seen = await call('GET', `/saml/idp/solicitudes/${solicitud}`, person.token);
        assert.deepEqual(seen.json<Json>().segundoFactor, { metodos: [], permiteConfiarDispositivo: true });
        const cancelled = await call('POST', `/saml/idp/solicitudes/${solicitud}/cancelar`, person.token, {
          motivo: 'segundo_factor',
        });
        assert.equal(cancelled.statusCode, 200, cancelled.body);
        const xml = await postedResponse(cancelled.json<{ redirectTo: string }>().redirectTo);
        assert.deepEqual(statusesOf(xml), [
          'urn:oasis:names:tc:SAML:2.0:status:Responder',
          'urn:oasis:names:tc:SAML:2.0:status:NoAuthnContext',
        ]);
        assert.equal(xml.includes('<saml:Assertion'), false);

        // A plain 'Cancelar' of a request that asked nothing of the kind stays RequestDenied.
        const plain = await samlRequest();
        const refused = await call('POST', `/saml/idp/solicitudes/${plain}/cancelar`, person.token, {
          motivo: 'segundo_factor',
        });
        assert.deepEqual(statusesOf(await postedResponse(refused.json<{ redirectTo: string }>().redirectTo)), [
          'urn:oasis:names:tc:SAML:2.0:status:Responder',
          'urn:oasis:names:tc:SAML:2.0:status:RequestDenied',
        ]);
      });

      it('a request that asks no more than a password (none, or at least a password) asks nothing more', async () => {
        const person = await personWithTotpOnPasswordSession();
        for (const options of [{}, { authnContext: { classes: [passwordClass], comparison: 'minimum' } }]) {
          const solicitud = await samlRequest(options);
          const seen = await call('GET', `/saml/idp/solicitudes/${solicitud}`, person.token);
          assert.equal(seen.json<Json>().segundoFactor, null);
          const allowed = await call('POST', `/saml/idp/solicitudes/${solicitud}/continuar`, person.token, {
            permitir: true,
          });
          assert.equal(allowed.statusCode, 200, allowed.body);
          assert.equal(classOf(await postedResponse(allowed.json<{ redirectTo: string }>().redirectTo)), passwordClass);
        }
      });

      it('better than MFA, or only classes the portal never gives, is answered NoAuthnContext at once', async () => {
        // Nothing the portal gives can meet these: the app is answered before anybody is asked anything.
        const x509 = 'urn:oasis:names:tc:SAML:2.0:ac:classes:X509';
        for (const authnContext of [
          { classes: [mfaClass], comparison: 'better' },
          { classes: [x509] },
          { classes: [x509], comparison: 'minimum' },
          { classes: [x509], comparison: 'maximum' },
        ]) {
          const started = await api.app.inject({
            method: 'GET',
            url: `/saml/idp/sso?${redirectQuery(samlApp, { authnContext }).query}`,
          });
          assert.equal(started.statusCode, 303, started.body);
          const xml = await postedResponse(String(started.headers.location));
          assert.deepEqual(
            statusesOf(xml),
            ['urn:oasis:names:tc:SAML:2.0:status:Responder', 'urn:oasis:names:tc:SAML:2.0:status:NoAuthnContext'],
            JSON.stringify(authnContext),
          );
          assert.equal(xml.includes('<saml:Assertion'), false);
        }
      });

      it('exact and maximum are answered with a class asked for that the session meets, or NoAuthnContext', async () => {
        // A session that proved a password and a second factor meets a password class too, and REFEDS MFA.
        const person = await passwordSession();
        await enableTotp(person.token);
        const answered = async (token: string, authnContext: { classes: string[]; comparison?: string }) => {
          const solicitud = await samlRequest({ authnContext });
          const seen = await call('GET', `/saml/idp/solicitudes/${solicitud}`, token);
          assert.equal(seen.json<Json>().segundoFactor, null, JSON.stringify(authnContext));
          const allowed = await call('POST', `/saml/idp/solicitudes/${solicitud}/continuar`, token, { permitir: true });
          assert.equal(allowed.statusCode, 200, allowed.body);
          return postedResponse(allowed.json<{ redirectTo: string }>().redirectTo);
        };
        assert.equal(classOf(await answered(person.token, { classes: [passwordClass] })), passwordClass);
        assert.equal(
          classOf(await answered(person.token, { classes: [passwordClass], comparison: 'maximum' })),
          passwordClass,
        );
        assert.equal(
          classOf(await answered(person.token, { classes: [passwordClass], comparison: 'minimum' })),
          mfaClass,
        );
        assert.equal(classOf(await answered(person.token, { classes: [sfaClass, mfaClass] })), mfaClass);

        // A passkey's session proved no password: at most a password, or exactly one, it cannot be.
        const { rpId, origins } = api.app.config.webauthn;
        const key = new SoftAuthenticator({ rpId, origin: origins[0] as string });
        const registration = await call('POST', '/auth/passkeys/opciones-registro', person.token);
        const ceremony = registration.json<{ ceremonyId: string; options: unknown }>();
        const added = await call('POST', '/auth/passkeys', person.token, {
          ceremonyId: ceremony.ceremonyId,
          name: 'Mi llave',
          response: key.register(ceremony.options as never),
        });
        assert.equal(added.statusCode, 201, added.body);
        const options = await api.app.inject({ method: 'POST', url: '/auth/passkeys/opciones-inicio', payload: {} });
        const signIn = options.json<{ ceremonyId: string; options: unknown }>();
        const withKey = await api.app.inject({
          method: 'POST',
          url: '/auth/passkeys/iniciar-sesion',
          payload: { ceremonyId: signIn.ceremonyId, response: key.assert(signIn.options as never) },
        });
        assert.equal(withKey.statusCode, 200, withKey.body);
        const keyToken = withKey.json<{ access_token: string }>().access_token;
        for (const authnContext of [{ classes: [passwordClass], comparison: 'maximum' }, { classes: [passwordClass] }])
          assert.deepEqual(statusesOf(await answered(keyToken, authnContext)), [
            'urn:oasis:names:tc:SAML:2.0:status:Responder',
            'urn:oasis:names:tc:SAML:2.0:status:NoAuthnContext',
          ]);
      });

      it('ForceAuthn and IsPassive are xs:boolean: spaces around, 1 and 0 count; IsPassive is answered NoPassive', async () => {
        const person = await passwordSession();
        // Signed in before the requests: one that forces a new sign-in asks for it.
        await api.app.db
          .update(sessions)
          .set({ createdAt: new Date(Date.now() - 60_000) })
          .where(eq(sessions.userId, person.userId));
        for (const [written, fresh] of [
          [' true ', true],
          ['1', true],
          ['\ttrue\n', true],
          ['false', false],
          [' 0 ', false],
        ] as const) {
          const solicitud = await samlRequest({ forceAuthn: written });
          const seen = await call('GET', `/saml/idp/solicitudes/${solicitud}`, person.token);
          assert.equal(seen.json<Json>().reautenticar, fresh, JSON.stringify(written));
        }
        // Not an xs:boolean: the request is refused, never read as false.
        const bad = await api.app.inject({
          method: 'GET',
          url: `/saml/idp/sso?${redirectQuery(samlApp, { forceAuthn: 'yes' }).query}`,
        });
        assert.equal(bad.statusCode, 400, bad.body);
        // The portal signs a person in only on its own pages: a passive request is told so at once.
        for (const written of [' true ', '1']) {
          const started = await api.app.inject({
            method: 'GET',
            url: `/saml/idp/sso?${redirectQuery(samlApp, { isPassive: written }).query}`,
          });
          assert.deepEqual(statusesOf(await postedResponse(String(started.headers.location))), [
            'urn:oasis:names:tc:SAML:2.0:status:Responder',
            'urn:oasis:names:tc:SAML:2.0:status:NoPassive',
          ]);
        }
        assert.equal((await samlRequest({ isPassive: 'false' })).length > 0, true);
      });

      it('ForceAuthn makes the person sign in again: a session from before the request is refused, a new one goes on', async () => {
        const person = await passwordSession();
        await api.app.db
          .update(sessions)
          .set({ createdAt: new Date(Date.now() - 60_000) })
          .where(eq(sessions.userId, person.userId));
        const solicitud = await samlRequest({ forceAuthn: true });
        const seen = await call('GET', `/saml/idp/solicitudes/${solicitud}`, person.token);
        assert.equal(seen.json<Json>().reautenticar, true);
        const refused = await call('POST', `/saml/idp/solicitudes/${solicitud}/continuar`, person.token, {
          permitir: true,
        });
        assert.equal(refused.statusCode, 401, refused.body);
        assert.equal(refused.json<{ code: string }>().code, 'SIGN_IN_AGAIN');

        // Signed in again after the request arrived (a second later: sign-in times are whole seconds).
        await new Promise((resolve) => setTimeout(resolve, 1100));
        const again = await login(api.app, person.email, password);
        const allowed = await call('POST', `/saml/idp/solicitudes/${solicitud}/continuar`, again, { permitir: true });
        assert.equal(allowed.statusCode, 200, allowed.body);
        assert.equal(classOf(await postedResponse(allowed.json<{ redirectTo: string }>().redirectTo)), passwordClass);
      });
    });
  });
});
