import assert from 'node:assert/strict';
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { and, eq, sql } from 'drizzle-orm';
import { plans, userIdentities, userPlans, users } from '../src/db/schema.js';
import { freePlanName } from '../src/db/seed-data.js';
import { appleClientSecret } from '../src/lib/oauth/apple-client-secret.js';
import { post, registration } from './helpers/accounts.js';
import { backends, buildTestApp, buildTestAppPair, createUser, forEachBackend, type TestApp } from './helpers/app.js';
import { startIdentityProvider, type IdentityProvider, type TestAccount } from './helpers/identity-provider.js';
import { OAuthBrowser, type Hop } from './helpers/oauth-browser.js';

const apiUrl = 'http://api.portal.test';
const portalUrl = 'http://portal.test';
const partner = 'https://socio.example.com/entrada';
const apple = { clientId: 'com.portal.web', teamId: 'EQUIPO1234', keyId: 'CLAVE12345' };
/** Where the portal's page redeems the one-time code of a Google/Apple return. */
const exchangePath = '/auth/social/canjear';
/** Which providers the portal's sign-in page may offer. */
const providersPath = '/auth/social/proveedores';
const TOKEN_INVALID = 'Token de autenticación inválido. Por favor, inicia sesión nuevamente.';

const ecPem = () =>
  generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const applePem = ecPem();

let googleIdp: IdentityProvider;
let appleIdp: IdentityProvider;
describe('oauth.test.ts', () => {
  before(async () => {
    const redirectUris = (provider: string) => [`${apiUrl}/auth/${provider}/callback`];
    googleIdp = await startIdentityProvider({
      kind: 'google',
      clientId: 'portal-google',
      clientSecret: 'secreto-google',
      redirectUris: redirectUris('google'),
    });
    appleIdp = await startIdentityProvider({
      kind: 'apple',
      clientId: apple.clientId,
      redirectUris: redirectUris('apple'),
      apple: { ...apple, privateKeyPem: applePem },
    });
  });
  after(async () => {
    await googleIdp.close();
    await appleIdp.close();
  });

  /** A person at both providers, with an email nobody else in the suite uses. */
  function person(overrides: Partial<TestAccount> = {}): TestAccount {
    const id = randomUUID().slice(0, 8);
    const account = {
      sub: `sujeto-${id}`,
      email: `persona-${id}@correo.test`,
      emailVerified: true,
      givenName: 'Lucía',
      familyName: 'Quispe',
      ...overrides,
    };
    googleIdp.setAccount(account);
    appleIdp.setAccount(account);
    return account;
  }

  forEachBackend((backend) => {
    let t: TestApp;
    const configured = () => ({
      apiPublicUrl: apiUrl,
      portalUrl,
      redirectAllowList: ['https://socio.example.com'],
      google: { issuer: googleIdp.issuer, clientId: 'portal-google', clientSecret: 'secreto-google' },
      apple: { issuer: appleIdp.issuer, ...apple, privateKey: applePem },
    });
    before(async () => {
      t = await buildTestApp(backend, configured());
    });
    after(() => t.close());

    const browser = (app = t.app) => new OAuthBrowser({ app, apiUrl, portalUrl });
    const currentUser = async (token: string) => {
      const response = await t.app.inject({
        method: 'GET',
        url: '/auth/user',
        headers: { authorization: `Bearer ${token}` },
      });
      assert.equal(response.statusCode, 200, response.body);
      return response.json();
    };
    /** The one-time code of a return to the portal: on the callback page, never with a token. */
    const codeIn = (url: URL) => {
      assert.equal(url.pathname, '/auth/google/callback', url.href);
      assert.equal(url.searchParams.get('token'), null, url.href);
      // A JWT's shape (three base64url parts, the first a JSON header): the random code itself may hold "eyJ".
      assert.doesNotMatch(url.href, /eyJ[\w-]*\.[\w-]*\.[\w-]*/, 'no JWT anywhere in the address');
      const code = url.searchParams.get('code');
      assert.ok(code, url.href);
      return code;
    };
    const exchange = (code: string, secret: string, app = t.app) =>
      app.inject({ method: 'POST', url: exchangePath, payload: { code, secret } });
    /** What the portal's page does with a return: redeems its code with the tab's secret; answers the session token. */
    const tokenIn = async (url: URL, who: OAuthBrowser) => {
      const response = await exchange(codeIn(url), who.secret);
      assert.equal(response.statusCode, 200, response.body);
      const body = response.json();
      assert.equal(body.user.email, (await currentUser(body.access_token)).email);
      return body.access_token as string;
    };
    /** A whole sign-in in a fresh browser, ending with the session token the portal's page would get. */
    const signedIn = async (provider: 'google' | 'apple', sub: string) => {
      const who = browser();
      return tokenIn(await who.signIn(provider, sub), who);
    };
    const refused = (response: { statusCode: number; json(): { code?: string; message?: string } }) => {
      assert.equal(response.statusCode, 400);
      assert.equal(response.json().code, 'SIGN_IN_RETURN_INVALID');
      assert.equal(response.json().message, TOKEN_INVALID);
    };
    const usersWithEmail = async (email: string) => await t.app.db.select().from(users).where(eq(users.email, email));
    const authFailed = (url: URL) => {
      assert.equal(url.pathname, '/login', url.href);
      assert.equal(url.searchParams.get('error'), 'auth_failed');
    };

    describe('Google', () => {
      it("keeps Google's avatar and no picture from another host (the provider's claim follows the portal's picture rule)", async () => {
        const avatar = 'https://lh3.googleusercontent.com/a/foto-de-lucia';
        const withAvatar = person({ picture: avatar });
        assert.equal((await currentUser(await signedIn('google', withAvatar.sub))).picture, avatar);
        const withPixel = person({ picture: 'https://rastreo.example/pixel.png' });
        assert.equal((await currentUser(await signedIn('google', withPixel.sub))).picture, null);
      });

      it('a new person gets in (a one-time code redeemed by the tab that started), an active account with every free plan and the provider linked', async () => {
        const someone = person();
        const user = await currentUser(await signedIn('google', someone.sub));
        assert.equal(user.email, someone.email);
        assert.equal(user.name, 'Lucía');
        assert.equal(user.lastName, 'Quispe');
        assert.equal(user.status, 'active');
        const freePlans = await t.app.db.select().from(plans).where(sql`lower(${plans.nombre}) = ${freePlanName}`);
        assert.ok(freePlans.length > 0);
        assert.deepEqual(
          user.planesUsuarios.map((p: { plan: { nombre: string } }) => p.plan.nombre.toLowerCase()),
          freePlans.map(() => freePlanName),
        );
        const links = await t.app.db.select().from(userIdentities).where(eq(userIdentities.userId, user.id));
        assert.deepEqual(
          links.map((l) => [l.provider, l.subject]),
          [['google', someone.sub]],
        );
      });

      it('the same person again gets the same account; an email changed at the provider still finds it', async () => {
        const someone = person();
        const first = await currentUser(await signedIn('google', someone.sub));
        const again = await currentUser(await signedIn('google', someone.sub));
        assert.equal(again.id, first.id);
        googleIdp.setAccount({ ...someone, email: `nuevo-${someone.email}` });
        const changed = await currentUser(await signedIn('google', someone.sub));
        assert.equal(changed.id, first.id);
        assert.equal(changed.email, someone.email);
        assert.equal((await usersWithEmail(`nuevo-${someone.email}`)).length, 0);
        assert.equal(
          (await t.app.db.select().from(userPlans).where(eq(userPlans.userId, first.id))).length,
          first.planesUsuarios.length,
        );
      });

      it('an account made by Google has no password: changing it says how to create one', async () => {
        const someone = person();
        const token = await signedIn('google', someone.sub);
        const response = await post(
          t.app,
          '/auth/update-password',
          { currentPassword: 'cualquiera-1', newPassword: 'Nueva-clave-1' },
          token,
        );
        assert.equal(response.statusCode, 400);
        assert.equal(response.json().code, 'NO_PASSWORD');
        assert.match(response.json().message, /no tiene contraseña/);
        const login = await post(t.app, '/auth/login', { email: someone.email, password: 'cualquiera-1' });
        assert.equal(login.statusCode, 401);
      });

      it('an existing password account is linked by its verified email and keeps its password', async () => {
        const someone = person();
        const id = await createUser(t.app, { email: someone.email, password: 'clave-propia-1', status: 'active' });
        const user = await currentUser(await signedIn('google', someone.sub));
        assert.equal(user.id, id);
        assert.equal(user.name, 'Prueba', 'the name the account has stays');
        const login = await post(t.app, '/auth/login', { email: someone.email, password: 'clave-propia-1' });
        assert.equal(login.statusCode, 200);
      });

      it('an account still waiting for its code is activated and loses the password it was registered with', async () => {
        const someone = person();
        assert.equal(
          (await post(t.app, '/auth/register', registration(someone.email, { password: 'clave-de-otro-1' })))
            .statusCode,
          201,
        );
        const user = await currentUser(await signedIn('google', someone.sub));
        assert.equal(user.status, 'active');
        assert.ok(user.planesUsuarios.length > 0);
        const login = await post(t.app, '/auth/login', { email: someone.email, password: 'clave-de-otro-1' });
        assert.equal(login.statusCode, 401);
      });

      it('an email the provider has not verified is refused and creates nothing', async () => {
        const someone = person({ emailVerified: false });
        authFailed(await browser().signIn('google', someone.sub));
        assert.equal((await usersWithEmail(someone.email)).length, 0);
      });

      it('a suspended account stays out', async () => {
        const someone = person();
        await createUser(t.app, { email: someone.email, password: 'clave-propia-1', status: 'suspended' });
        authFailed(await browser().signIn('google', someone.sub));
      });

      it('a cancelled consent goes to the portal callback screen with the provider error and creates nothing', async () => {
        const someone = person();
        const end = await browser().signIn('google', 'cancelar', { redirectUrl: partner });
        assert.equal(end.pathname, '/auth/google/callback');
        assert.equal(end.searchParams.get('error'), 'access_denied');
        assert.equal(end.searchParams.get('redirect_url'), partner);
        assert.equal((await usersWithEmail(someone.email)).length, 0);
      });

      it('a tampered state is refused', async () => {
        const someone = person();
        const tamper = (hop: Hop): Hop => {
          const url = new URL(hop.url);
          url.searchParams.set('state', `${url.searchParams.get('state')}x`);
          return { ...hop, url };
        };
        authFailed(await browser().signIn('google', someone.sub, { intercept: tamper }));
        assert.equal((await usersWithEmail(someone.email)).length, 0);
      });

      it("an answer without the browser's sign-in cookie (another browser, or replayed) is refused", async () => {
        const someone = person();
        const stolen = (hop: Hop): Hop => {
          thief.cookies(new URL(apiUrl).host).clear();
          return hop;
        };
        const thief = browser();
        authFailed(await thief.signIn('google', someone.sub, { intercept: stolen }));
      });

      it('the start sets a short-lived http-only cookie and sends PKCE, state and nonce to the provider', async () => {
        const response = await t.app.inject({ method: 'GET', url: `/auth/google?binding=${browser().binding}` });
        assert.equal(response.statusCode, 302);
        const location = new URL(response.headers.location as string);
        assert.equal(location.origin, googleIdp.issuer);
        for (const name of ['state', 'nonce', 'code_challenge']) assert.ok(location.searchParams.get(name), name);
        assert.equal(location.searchParams.get('code_challenge_method'), 'S256');
        assert.equal(location.searchParams.get('redirect_uri'), `${apiUrl}/auth/google/callback`);
        const cookie = String(response.headers['set-cookie']);
        assert.match(cookie, /^portal_oauth_google=/);
        for (const attribute of ['HttpOnly', 'Path=/auth', 'Max-Age=600', 'SameSite=Lax'])
          assert.ok(cookie.includes(attribute), `${attribute} in ${cookie}`);
        assert.ok(
          !cookie.includes(location.searchParams.get('state') as string) || cookie.includes('.'),
          'sealed, not plain',
        );
      });

      it('an allowed partner target is carried to the portal with the code; a hostile one is dropped', async () => {
        const someone = person();
        const first = browser();
        const allowed = await first.signIn('google', someone.sub, { redirectUrl: partner });
        await tokenIn(allowed, first);
        assert.equal(allowed.searchParams.get('redirect_url'), partner);
        const second = browser();
        const hostile = await second.signIn('google', someone.sub, {
          redirectUrl: 'https://socio.example.com.evil.test/robar',
        });
        await tokenIn(hostile, second);
        assert.equal(hostile.searchParams.get('redirect_url'), null);
      });

      it('the callback answers only with a redirect to the portal, even asked for JSON with a real sign-in', async () => {
        // The provider's code and this browser's transaction cookie, replayed by a client asking for JSON: no session
        // in the answer, only the portal's page with a one-time code. A session comes only from
        // POST /auth/social/canjear with the tab's secret (docs/decisions/0001-session-from-bound-sign-in-return.md).
        const someone = person();
        const who = browser();
        let providerReturn: URL | undefined;
        let transactionCookie: string | undefined;
        const keepAside = (hop: Hop): Hop => {
          providerReturn = hop.url;
          transactionCookie = who.cookies(hop.url.host).get('portal_oauth_google');
          // The browser itself arrives without the provider's code (which stays unused for the replay below).
          return { ...hop, url: new URL('/auth/google/callback', hop.url) };
        };
        authFailed(await who.signIn('google', someone.sub, { intercept: keepAside }));
        assert.ok(providerReturn && transactionCookie, 'the provider sent the browser back with its cookie');
        const asked = await t.app.inject({
          method: 'GET',
          url: `${providerReturn.pathname}${providerReturn.search}`,
          headers: { accept: 'application/json', cookie: `portal_oauth_google=${transactionCookie}` },
        });
        assert.equal(asked.statusCode, 302, asked.body);
        const back = new URL(String(asked.headers.location));
        assert.equal(`${back.origin}${back.pathname}`, `${portalUrl}/auth/google/callback`);
        assert.ok(back.searchParams.get('code'));
        assert.doesNotMatch(asked.body, /access_token/);
        const none = await t.app.inject({
          method: 'GET',
          url: '/auth/google/callback?code=abc&state=xyz',
          headers: { accept: 'application/json' },
        });
        assert.equal(none.statusCode, 302);
        assert.equal(none.headers.location, `${portalUrl}/login?error=auth_failed`);
      });
    });

    describe('the return to the portal is bound to the browser that started the sign-in (login CSRF)', () => {
      it('carries a one-time code to the callback page, never a session token (Google and Apple)', async () => {
        const someone = person();
        codeIn(await browser().signIn('google', someone.sub));
        const fromApple = await browser().signIn('apple', someone.sub);
        codeIn(fromApple);
        assert.equal(fromApple.searchParams.get('provider'), 'apple');
      });

      it('the code is exchanged once, by the secret of the browser that started; a replay is refused', async () => {
        const someone = person();
        const who = browser();
        const code = codeIn(await who.signIn('google', someone.sub));
        const first = await exchange(code, who.secret);
        assert.equal(first.statusCode, 200, first.body);
        assert.equal(first.json().user.email, someone.email);
        assert.equal((await currentUser(first.json().access_token)).email, someone.email);
        refused(await exchange(code, who.secret));
      });

      it("another browser's secret is refused, and the code is spent by the attempt", async () => {
        const attacker = person();
        const attackersBrowser = browser();
        const code = codeIn(await attackersBrowser.signIn('google', attacker.sub));
        const victimsTab = browser();
        refused(await exchange(code, victimsTab.secret));
        refused(await exchange(code, attackersBrowser.secret));
      });

      it('an expired code is refused', async () => {
        const someone = person();
        const who = browser();
        const code = codeIn(await who.signIn('google', someone.sub));
        await t.app.db.execute(sql`UPDATE sign_in_returns SET expires_at = now() - interval '1 second'`);
        refused(await exchange(code, who.secret));
      });

      it('an unknown code, or a malformed body, is refused with the Spanish message', async () => {
        refused(await exchange('no-existe', browser().secret));
        const empty = await t.app.inject({ method: 'POST', url: exchangePath, payload: {} });
        assert.equal(empty.statusCode, 400);
        assert.doesNotMatch(empty.body, /must have required property/);
      });

      it('a start without the browser binding goes back to /login?error=auth_failed and reaches no provider', async () => {
        for (const provider of ['google', 'apple']) {
          const response = await t.app.inject({
            method: 'GET',
            url: `/auth/${provider}?redirect_url=${encodeURIComponent(partner)}`,
          });
          assert.equal(response.statusCode, 302);
          const location = new URL(response.headers.location as string);
          authFailed(location);
          assert.equal(location.searchParams.get('redirect_url'), partner);
        }
      });
    });

    describe('Apple', () => {
      it('a new person signs in through form_post; the name Apple sends once is kept, and the second sign-in reuses the account', async () => {
        const someone = person({ givenName: 'Mateo', familyName: 'Huamán' });
        const first = await currentUser(await signedIn('apple', someone.sub));
        assert.equal(first.email, someone.email);
        assert.equal(first.name, 'Mateo');
        assert.equal(first.lastName, 'Huamán');
        const again = await currentUser(await signedIn('apple', someone.sub));
        assert.equal(again.id, first.id);
        assert.equal(again.name, 'Mateo');
        const links = await t.app.db
          .select()
          .from(userIdentities)
          .where(and(eq(userIdentities.userId, first.id), eq(userIdentities.provider, 'apple')));
        assert.equal(links.length, 1);
      });

      it('one person with Google and Apple has one account with both identities', async () => {
        const someone = person();
        const viaGoogle = await currentUser(await signedIn('google', someone.sub));
        const viaApple = await currentUser(await signedIn('apple', someone.sub));
        assert.equal(viaApple.id, viaGoogle.id);
        const links = await t.app.db.select().from(userIdentities).where(eq(userIdentities.userId, viaGoogle.id));
        assert.deepEqual(links.map((l) => l.provider).sort(), ['apple', 'google']);
      });

      it('a client secret not signed with the configured Apple key is refused by the provider: back to /login', async () => {
        const wrongKey = await buildTestApp(backend, {
          ...configured(),
          apple: { issuer: appleIdp.issuer, ...apple, privateKey: ecPem() },
        });
        try {
          const someone = person();
          authFailed(await browser(wrongKey.app).signIn('apple', someone.sub));
        } finally {
          await wrongKey.close();
        }
      });

      it('the client secret is the ES256 JWT Apple describes', async () => {
        const secret = await appleClientSecret(
          { issuer: 'https://appleid.apple.com', ...apple, privateKey: applePem },
          Date.UTC(2026, 10, 22),
        );
        const [header, payload] = secret
          .split('.')
          .slice(0, 2)
          .map((part) => JSON.parse(Buffer.from(part, 'base64url').toString()));
        assert.deepEqual(header, { alg: 'ES256', kid: apple.keyId });
        assert.equal(payload.iss, apple.teamId);
        assert.equal(payload.sub, apple.clientId);
        assert.equal(payload.aud, 'https://appleid.apple.com');
        assert.ok(payload.exp > payload.iat && payload.exp - payload.iat <= 15777000);
      });
    });

    it('says which providers this deployment has, to anyone', async () => {
      const response = await t.app.inject({ method: 'GET', url: providersPath });
      assert.equal(response.statusCode, 200, response.body);
      assert.deepEqual(response.json(), { google: true, apple: true });
    });

    describe('not configured', () => {
      const bareApp = (overrides: Parameters<typeof buildTestApp>[1] = {}) =>
        buildTestApp(backend, {
          portalUrl,
          apiPublicUrl: apiUrl,
          redirectAllowList: ['https://socio.example.com'],
          google: undefined,
          apple: undefined,
          ...overrides,
        });

      it('says so to the portal, each provider on its own', async () => {
        const bare = await bareApp({ google: configured().google });
        try {
          const response = await bare.app.inject({ method: 'GET', url: providersPath });
          assert.equal(response.statusCode, 200, response.body);
          assert.deepEqual(response.json(), { google: true, apple: false });
        } finally {
          await bare.close();
        }
      });

      it('both buttons land on /login?error=provider_unavailable naming the provider, keeping only an allowed partner target', async () => {
        const bare = await bareApp();
        try {
          for (const provider of ['google', 'apple']) {
            const response = await bare.app.inject({
              method: 'GET',
              url: `/auth/${provider}?redirect_url=${encodeURIComponent(partner)}`,
            });
            assert.equal(response.statusCode, 302);
            const location = new URL(response.headers.location as string);
            assert.equal(location.pathname, '/login', location.href);
            assert.equal(location.searchParams.get('error'), 'provider_unavailable');
            assert.equal(location.searchParams.get('provider'), provider);
            assert.equal(location.searchParams.get('redirect_url'), partner);
            const hostile = await bare.app.inject({
              method: 'GET',
              url: `/auth/${provider}?redirect_url=javascript:alert(1)`,
            });
            assert.equal(new URL(hostile.headers.location as string).searchParams.get('redirect_url'), null);
          }
        } finally {
          await bare.close();
        }
      });
    });
  });

  describe('two API instances on one PostgreSQL', {
    skip: !backends.includes('postgres') && 'PostgreSQL not selected',
  }, () => {
    it('a code made by one instance is exchanged on the other, once', async () => {
      const pair = await buildTestAppPair({
        apiPublicUrl: apiUrl,
        portalUrl,
        redirectAllowList: ['https://socio.example.com'],
        google: { issuer: googleIdp.issuer, clientId: 'portal-google', clientSecret: 'secreto-google' },
      });
      try {
        const someone = person();
        const who = new OAuthBrowser({ app: pair.a, apiUrl, portalUrl });
        const end = await who.signIn('google', someone.sub);
        assert.equal(end.searchParams.get('token'), null);
        const code = end.searchParams.get('code') ?? '';
        const onB = await pair.b.inject({ method: 'POST', url: exchangePath, payload: { code, secret: who.secret } });
        assert.equal(onB.statusCode, 200, onB.body);
        assert.equal(onB.json().user.email, someone.email);
        const again = await pair.a.inject({ method: 'POST', url: exchangePath, payload: { code, secret: who.secret } });
        assert.equal(again.statusCode, 400);
      } finally {
        await pair.close();
      }
    });
  });
});
