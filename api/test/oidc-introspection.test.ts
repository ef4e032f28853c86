// POST /oidc/token/introspection answered by the API from the session memory (docs/decisions/0084): for a confidential
// client asking about its own access token (offline or bound to the provider session) whose token, grant, session and
// client this instance keeps, the API answers without oidc-provider's pipeline. Each answer is held beside the
// library's for the same token (status, JSON, headers), and every way a token stops working (logout, suspension,
// revoked grant, expiry) is answered at once, as the library answers it. Attacks: another client's token, a wrong
// secret, a public client.
import assert from 'node:assert/strict';
import { after, before, describe, it, mock } from 'node:test';
import { and, eq, sql } from 'drizzle-orm';
import { oidcPayloads, plans, userPlans, users } from '../src/db/schema.js';
import { adminEmail, adminPassword, createUser, forEachBackend, login } from './helpers/app.js';
import { type TwoInstances, twoInstances } from './helpers/instances.js';
import {
  type Answer,
  assertSameAnswer,
  libraryParameter,
  type OidcTestApi,
  publicIdOf,
  registerClient,
  serverApp,
  startOidcApi,
  TestBrowser,
  watchLibrary,
} from './helpers/oidc.js';

const redirect = 'https://control.example.com/auth/callback';
const otherRedirect = 'https://otra.example.com/auth/callback';
const publicRedirect = 'https://spa.example.com/callback';

interface Introspection extends Answer {
  json: Record<string, unknown>;
}

interface Client {
  clientId: string;
  clientSecret?: string;
}

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

forEachBackend((backend) => {
  describe('introspection answered from the session memory', () => {
    let api: OidcTestApi;
    let resource: Client;
    let other: Client;
    let watcher: ReturnType<typeof watchLibrary>;
    let serial = 0;

    async function newPerson() {
      serial += 1;
      const email = `persona${serial}@introspeccion.test`;
      const password = `clave-de-persona-${serial}`;
      const id = await createUser(api.app, { email, password, status: 'active' });
      const free = await api.app.db
        .select({ appId: plans.appId, planId: plans.id })
        .from(plans)
        .where(sql`lower(${plans.nombre}) = 'free'`);
      await api.app.db.insert(userPlans).values(free.map((plan) => ({ userId: id, ...plan })));
      const browser = new TestBrowser(api.issuer);
      browser.portalToken = await login(api.app, email, password);
      return { id, browser };
    }

    /** Tokens of `client` from a code the person's browser got; bound to the provider session unless `offline`. */
    async function tokens(browser: TestBrowser, client: Client, options: { offline?: boolean } = {}) {
      const rp = await serverApp(api.issuer, client.clientId, client.clientSecret ?? '', redirect);
      const url = options.offline
        ? await rp.authorizationUrl(['openid', 'email', 'offline_access'], { prompt: 'consent' })
        : await rp.authorizationUrl(['openid', 'email']);
      return rp.exchange(await browser.signInTo(url));
    }

    interface Call {
      /** Who asks: the client's own credentials unless given. */
      as?: { id: string; secret: string };
      /** client_secret_post instead of client_secret_basic. */
      post?: boolean;
      hint?: string;
      /** Adds a parameter the library ignores and the API's own answer never takes: the library's answer. */
      viaLibrary?: boolean;
    }

    /** POST /oidc/token/introspection once this instance has applied every change made so far. */
    async function introspect(client: Client, token: string, options: Call = {}): Promise<Introspection> {
      await api.app.sessionState.sync();
      const as = options.as ?? { id: client.clientId, secret: client.clientSecret ?? '' };
      const form = new URLSearchParams({ token });
      if (options.hint) form.set('token_type_hint', options.hint);
      if (options.post) {
        form.set('client_id', as.id);
        form.set('client_secret', as.secret);
      }
      if (options.viaLibrary) form.set(...libraryParameter);
      const answer = await watcher.answer(() =>
        fetch(`${api.issuer}/oidc/token/introspection`, {
          method: 'POST',
          headers: {
            'content-type': 'application/x-www-form-urlencoded',
            ...(options.post ? {} : { authorization: basic(as.id, as.secret) }),
          },
          body: form.toString(),
        }),
      );
      return { ...answer, json: JSON.parse(answer.text) };
    }

    /** The same question asked of the API and of the library: equal answers. Answers the former. */
    async function sameAnswers(client: Client, token: string, options: Call = {}): Promise<Introspection> {
      const answer = await introspect(client, token, options);
      const library = await introspect(client, token, { ...options, viaLibrary: true });
      // A refused client is refused before any token is looked up.
      if (library.status === 200) assert.equal(library.byLibrary, true, 'answered by the library');
      assertSameAnswer(answer, library);
      return answer;
    }

    /**
     * Answered from memory (after a first call that fills it), equal to the library's answer. The memory answers only
     * while its channel proved alive recently; on a busy machine its last ping can be older than that, and the answer
     * then comes, rightly, from the library: asked again, bounded, once the channel has answered a ping.
     */
    async function sameAsLibrary(client: Client, token: string, options: Call = {}): Promise<Introspection> {
      for (let attempt = 1; ; attempt++) {
        await introspect(client, token, options);
        const fast = await sameAnswers(client, token, options);
        if (!fast.byLibrary || attempt === 5) {
          assert.equal(fast.byLibrary, false, 'answered from memory');
          return fast;
        }
        await api.app.sessionState.sync();
      }
    }

    /** Inactive, at once and the same as the library's answer. */
    async function inactive(client: Client, token: string): Promise<void> {
      const answer = await sameAnswers(client, token);
      assert.equal(answer.status, 200);
      assert.deepEqual(answer.json, { active: false });
    }

    before(async () => {
      api = await startOidcApi(backend);
      resource = await registerClient(api.app, {
        nombre: 'Control Max 360',
        redirectUris: [redirect],
        primeraParte: true,
        appId: 1,
        scopes: ['openid', 'email', 'plan', 'offline_access'],
      });
      other = await registerClient(api.app, {
        nombre: 'Otra',
        redirectUris: [otherRedirect],
        primeraParte: true,
        scopes: ['openid', 'email'],
      });
      watcher = watchLibrary(api.app);
    });
    after(() => api.close());

    it("answers the library's body for an offline token and a session-bound one (client_secret_basic)", async () => {
      const { id, browser } = await newPerson();
      const offline = await tokens(browser, resource, { offline: true });
      const bound = await tokens(browser, resource);
      for (const token of [offline.accessToken, bound.accessToken]) {
        // A secret in the form is the library's to take or refuse, as its configuration says.
        await sameAnswers(resource, token, { post: true });
        const answer = await sameAsLibrary(resource, token);
        assert.equal(answer.status, 200, answer.text);
        assert.equal(answer.headers['cache-control'], 'no-store');
        assert.equal(answer.headers['content-type'], 'application/json; charset=utf-8');
        const { exp, iat, sid, ...rest } = answer.json;
        assert.deepEqual(rest, {
          active: true,
          sub: await publicIdOf(api.app, id),
          client_id: resource.clientId,
          iss: api.issuer,
          scope: token === offline.accessToken ? 'openid email offline_access' : 'openid email',
          token_type: 'Bearer',
        });
        assert.ok(typeof exp === 'number' && typeof iat === 'number' && exp - iat === 15 * 60);
        assert.equal(sid, undefined);
      }
      // Whatever the hint (the library looks a refresh token up first for one), the same answer.
      const hinted = await sameAsLibrary(resource, offline.accessToken, { hint: 'refresh_token' });
      assert.equal(hinted.json.active, true);
    });

    it('a refresh token, an unknown token and a request it does not understand are the library’s', async () => {
      const { browser } = await newPerson();
      const offline = await tokens(browser, resource, { offline: true });
      assert.ok(offline.refreshToken);
      const refresh = await sameAnswers(resource, offline.refreshToken);
      assert.equal(refresh.byLibrary, true);
      assert.equal(refresh.json.active, true);
      assert.equal(refresh.json.token_type, undefined);
      const unknown = await sameAnswers(resource, 'desconocido'.repeat(4));
      assert.equal(unknown.byLibrary, true);
      assert.deepEqual(unknown.json, { active: false });
      // A duplicated parameter: the library's 400, in the provider's Spanish shape.
      const response = await fetch(`${api.issuer}/oidc/token/introspection`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: basic(resource.clientId, resource.clientSecret ?? ''),
        },
        body: `token=${offline.accessToken}&token=${offline.accessToken}`,
      });
      assert.equal(response.status, 400);
      const body = (await response.json()) as Record<string, unknown>;
      assert.equal(body.error, 'invalid_request');
      assert.equal(body.message, 'La solicitud no es válida');
      // A form past the API's body limit: its Spanish 413, never a 500.
      const huge = await fetch(`${api.issuer}/oidc/token/introspection`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: basic(resource.clientId, resource.clientSecret ?? ''),
        },
        body: `token=${'a'.repeat(200 * 1024)}`,
      });
      assert.equal(huge.status, 413);
      const refused = (await huge.json()) as Record<string, unknown>;
      assert.equal(refused.statusCode, 413);
      assert.match(String(refused.message), /demasiado grande/);
    });

    it("attack: another client's token, introspected with that client's own valid credentials, is inactive", async () => {
      const { browser } = await newPerson();
      const mine = await tokens(browser, resource, { offline: true });
      await sameAsLibrary(resource, mine.accessToken);
      // The other client's first call reads it from the database (the library's); the next ones are answered here.
      await introspect(other, mine.accessToken);
      const answer = await sameAnswers(other, mine.accessToken);
      assert.equal(answer.byLibrary, false, 'answered from memory');
      assert.deepEqual(answer.json, { active: false });
      const posted = await sameAnswers(other, mine.accessToken, { post: true });
      assert.notEqual(posted.json.active, true);
    });

    it('attack: a wrong secret (any length, any position), or a client id claimed twice, is refused with 401 invalid_client', async () => {
      const { browser } = await newPerson();
      const mine = await tokens(browser, resource, { offline: true });
      await sameAsLibrary(resource, mine.accessToken);
      const secret = resource.clientSecret ?? '';
      // A character other than the one it replaces: the secret is random and may start or end with any.
      const differing = (char: string | undefined) => (char === 'x' ? 'y' : 'x');
      const wrong = [
        `${differing(secret.at(0))}${secret.slice(1)}`,
        `${secret.slice(0, -1)}${differing(secret.at(-1))}`,
        secret.slice(0, 10),
        `${secret}x`,
        // Another client's valid secret.
        other.clientSecret ?? '',
      ];
      for (const attempt of wrong) {
        for (const post of [false, true]) {
          const answer = await sameAnswers(resource, mine.accessToken, {
            as: { id: resource.clientId, secret: attempt },
            post,
          });
          assert.equal(answer.status, 401, answer.text);
          assert.equal(answer.json.error, 'invalid_client');
          assert.equal(answer.json.statusCode, 401);
          assert.equal(answer.json.message, 'La aplicación no está registrada o no se identificó correctamente');
          assert.equal(answer.json.active, undefined);
        }
      }
      // The other client's id with this client's secret.
      const swapped = await sameAnswers(resource, mine.accessToken, {
        as: { id: other.clientId, secret },
      });
      assert.equal(swapped.status, 401);
    });

    it('attack: a public client (no secret) cannot introspect, not even its own tokens', async () => {
      const spa = await registerClient(api.app, {
        nombre: 'Panel',
        redirectUris: [publicRedirect],
        publico: true,
        primeraParte: true,
        scopes: ['openid', 'email'],
      });
      const { browser } = await newPerson();
      const mine = await tokens(browser, resource, { offline: true });
      const form = new URLSearchParams({ token: mine.accessToken, client_id: spa.clientId });
      const response = await fetch(`${api.issuer}/oidc/token/introspection`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: form.toString(),
      });
      const body = (await response.json()) as Record<string, unknown>;
      assert.notEqual(body.active, true);
    });

    it('after a logout of the portal, both kinds are inactive at once', async () => {
      const { browser } = await newPerson();
      const offline = await tokens(browser, resource, { offline: true });
      const bound = await tokens(browser, resource);
      await sameAsLibrary(resource, offline.accessToken);
      await sameAsLibrary(resource, bound.accessToken);
      const logout = await api.app.inject({
        method: 'POST',
        url: '/auth/logout',
        headers: { authorization: `Bearer ${browser.portalToken}` },
      });
      assert.equal(logout.statusCode, 204);
      await inactive(resource, offline.accessToken);
      await inactive(resource, bound.accessToken);
    });

    it('after a suspension (by an administrator, or straight in the database), its tokens are inactive', async () => {
      const admin = await login(api.app, adminEmail, adminPassword);
      const first = await newPerson();
      const token = (await tokens(first.browser, resource, { offline: true })).accessToken;
      await sameAsLibrary(resource, token);
      const toggled = await api.app.inject({
        method: 'PUT',
        url: `/auth/cambiar-estado/${first.id}`,
        headers: { authorization: `Bearer ${admin}` },
      });
      assert.equal(toggled.statusCode, 200, toggled.body);
      await inactive(resource, token);

      const second = await newPerson();
      const bound = (await tokens(second.browser, resource)).accessToken;
      await sameAsLibrary(resource, bound);
      await api.app.db.update(users).set({ status: 'suspended' }).where(eq(users.id, second.id));
      await inactive(resource, bound);
    });

    it('after its grant is revoked (straight in the database, as another instance would), the token is inactive', async () => {
      // One person each: a session's tokens of one client share its grant.
      for (const offline of [true, false]) {
        const { browser } = await newPerson();
        const token = (await tokens(browser, resource, { offline })).accessToken;
        await sameAsLibrary(resource, token);
        const [row] = await api.app.db
          .select({ grantId: oidcPayloads.grantId })
          .from(oidcPayloads)
          .where(and(eq(oidcPayloads.kind, 'AccessToken'), eq(oidcPayloads.id, token)));
        await api.app.db
          .delete(oidcPayloads)
          .where(and(eq(oidcPayloads.kind, 'Grant'), eq(oidcPayloads.id, row?.grantId ?? '')));
        await inactive(resource, token);
      }
    });

    it('after its provider session goes (straight in the database), a session-bound token is inactive', async () => {
      const { browser } = await newPerson();
      const bound = await tokens(browser, resource);
      await sameAsLibrary(resource, bound.accessToken);
      const [row] = await api.app.db
        .select({ sessionUid: oidcPayloads.sessionUid })
        .from(oidcPayloads)
        .where(and(eq(oidcPayloads.kind, 'AccessToken'), eq(oidcPayloads.id, bound.accessToken)));
      await api.app.db
        .delete(oidcPayloads)
        .where(and(eq(oidcPayloads.kind, 'Session'), eq(oidcPayloads.uid, row?.sessionUid ?? '')));
      await inactive(resource, bound.accessToken);
    });

    it('an expired token still kept in memory is inactive', async (t) => {
      const { browser } = await newPerson();
      const offline = await tokens(browser, resource, { offline: true });
      mock.timers.enable({ apis: ['Date'], now: Date.now() });
      t.after(() => mock.timers.reset());
      mock.timers.tick(14 * 60_000 + 30_000);
      await sameAsLibrary(resource, offline.accessToken);
      // 20 s past its expiry, past the library's clock tolerance (15 s), while the memory still holds it.
      mock.timers.tick(50_000);
      await inactive(resource, offline.accessToken);
    });
  });
});

forEachBackend((backend) => {
  describe('introspection and userinfo from memory on two instances', () => {
    let pair: TwoInstances;
    let issuer: string;
    let urlOfB: string;
    let client: Client;
    let libraryOfB: ReturnType<typeof watchLibrary>;

    before(async () => {
      pair = await twoInstances(backend);
      ({ issuer, urlOfB } = pair);
      client = await registerClient(pair.a, {
        nombre: 'Control Max 360',
        redirectUris: [redirect],
        primeraParte: true,
        scopes: ['openid', 'email', 'offline_access'],
      });
      libraryOfB = watchLibrary(pair.b);
    });
    after(() => pair.close());

    /** B's answers, each asked twice: the second from B's memory once the first filled it. */
    async function atB(accessToken: string) {
      const ask = async () => {
        const introspection = await fetch(`${urlOfB}/oidc/token/introspection`, {
          method: 'POST',
          headers: {
            'content-type': 'application/x-www-form-urlencoded',
            authorization: basic(client.clientId, client.clientSecret ?? ''),
          },
          body: new URLSearchParams({ token: accessToken }).toString(),
        });
        const userinfo = await fetch(`${urlOfB}/oidc/me`, { headers: { authorization: `Bearer ${accessToken}` } });
        return { active: ((await introspection.json()) as { active: boolean }).active, userinfo: userinfo.status };
      };
      await ask();
      const before = libraryOfB.lookups;
      const answer = await ask();
      // A live token is answered from B's memory (its library never looks it up); a dead one by the library.
      assert.equal(
        libraryOfB.lookups === before,
        answer.active,
        'answered from memory exactly while the token is live',
      );
      return answer;
    }

    async function signedIn(email: string) {
      const password = 'clave-de-dos-instancias';
      const id = await createUser(pair.a, { email, password, status: 'active' });
      const browser = new TestBrowser(issuer);
      browser.portalToken = await login(pair.a, email, password);
      const app = await serverApp(issuer, client.clientId, client.clientSecret ?? '', redirect);
      const bound = await app.exchange(await browser.signInTo(await app.authorizationUrl(['openid', 'email'])));
      const offline = await app.exchange(
        await browser.signInTo(await app.authorizationUrl(['openid', 'offline_access'], { prompt: 'consent' })),
      );
      // What these writes at A notify reaches B on its own time; until B has applied it, a late notification may
      // make B forget the person between two questions.
      await pair.b.sessionState.sync();
      return { id, browser, tokens: [bound.accessToken, offline.accessToken] };
    }

    it("a logout, a suspension or a session gone at A is answered at once from B's memory", async () => {
      const loggingOut = await signedIn('sale@dos.test');
      for (const token of loggingOut.tokens) assert.deepEqual(await atB(token), { active: true, userinfo: 200 });
      const loggedOut = await fetch(`${issuer}/auth/logout`, {
        method: 'POST',
        headers: { authorization: `Bearer ${loggingOut.browser.portalToken}` },
      });
      assert.equal(loggedOut.status, 204);
      // Once B has applied what was committed before (its channel's own barrier), the tokens are refused there.
      await pair.b.sessionState.sync();
      for (const token of loggingOut.tokens) assert.deepEqual(await atB(token), { active: false, userinfo: 401 });

      const suspended = await signedIn('suspendida@dos.test');
      for (const token of suspended.tokens) assert.deepEqual(await atB(token), { active: true, userinfo: 200 });
      await pair.a.db.update(users).set({ status: 'suspended' }).where(eq(users.id, suspended.id));
      await pair.b.sessionState.sync();
      for (const token of suspended.tokens) assert.deepEqual(await atB(token), { active: false, userinfo: 401 });

      // The provider session alone goes (as its expiry's cleanup or another instance's logout would leave it).
      const sessionGone = await signedIn('sin-sesion@dos.test');
      const [bound, offline] = sessionGone.tokens as [string, string];
      for (const token of sessionGone.tokens) assert.deepEqual(await atB(token), { active: true, userinfo: 200 });
      const [row] = await pair.a.db
        .select({ sessionUid: oidcPayloads.sessionUid })
        .from(oidcPayloads)
        .where(and(eq(oidcPayloads.kind, 'AccessToken'), eq(oidcPayloads.id, bound)));
      await pair.a.db
        .delete(oidcPayloads)
        .where(and(eq(oidcPayloads.kind, 'Session'), eq(oidcPayloads.uid, row?.sessionUid ?? '')));
      await pair.b.sessionState.sync();
      assert.deepEqual(await atB(bound), { active: false, userinfo: 401 });
      assert.deepEqual(await atB(offline), { active: true, userinfo: 200 }, 'an offline token outlives its session');
    });
  });
});
