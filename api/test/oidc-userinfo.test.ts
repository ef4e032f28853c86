// GET /oidc/me answered by the API from the session memory (docs/decisions/0055): for a token whose access token,
// grant, client, account and plan this instance keeps, the API answers userinfo without oidc-provider's pipeline, and
// every other request is the library's. The two answers are held side by side for the same tokens (status, JSON,
// headers) across scopes and clients, and every way a token stops working is answered by the library, as before.
import assert from 'node:assert/strict';
import { after, before, describe, it, mock } from 'node:test';
import { and, eq, sql } from 'drizzle-orm';
import { appRoles, oidcPayloads, plans, userAppRoles, userPlans, users } from '../src/db/schema.js';
import { adminEmail, adminPassword, createUser, forEachBackend, login } from './helpers/app.js';
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

const withAppRedirect = 'https://control.example.com/auth/callback';
const withoutAppRedirect = 'https://socio.example.com/auth/callback';
const thirdPartyRedirect = 'https://tercero.example.com/auth/callback';

forEachBackend((backend) => {
  describe('userinfo answered from the session memory', () => {
    let api: OidcTestApi;
    let withApp: { clientId: string; clientSecret?: string };
    let withoutApp: { clientId: string; clientSecret?: string };
    let watcher: ReturnType<typeof watchLibrary>;
    let serial = 0;

    /** A person of their own, with a name, a phone and the free plan of every app, signed in to the portal. */
    async function newPerson() {
      serial += 1;
      const email = `persona${serial}@userinfo.test`;
      const password = `clave-de-persona-${serial}`;
      const id = await createUser(api.app, { email, password, status: 'active' });
      await api.app.db
        .update(users)
        .set({ name: 'Ana', lastName: 'Pérez', phone: '+51 912 345 678' })
        .where(eq(users.id, id));
      const free = await api.app.db
        .select({ appId: plans.appId, planId: plans.id })
        .from(plans)
        .where(sql`lower(${plans.nombre}) = 'free'`);
      await api.app.db.insert(userPlans).values(free.map((plan) => ({ userId: id, ...plan })));
      const browser = new TestBrowser(api.issuer);
      browser.portalToken = await login(api.app, email, password);
      return { id, browser };
    }

    /**
     * An access token of `client` for `scopes`, from a code the person's browser got. With offline_access (unless
     * `bound`): a token without it is bound to the provider session, which the library reads on every use.
     */
    async function accessToken(
      browser: TestBrowser,
      client: { clientId: string; clientSecret?: string },
      redirect: string,
      scopes: string[],
      options: { allow?: boolean; bound?: boolean } = {},
    ) {
      const rp = await serverApp(api.issuer, client.clientId, client.clientSecret ?? '', redirect);
      const url = options.bound
        ? await rp.authorizationUrl(scopes)
        : await rp.authorizationUrl([...scopes, 'offline_access'], { prompt: 'consent' });
      const landed = await browser.signInTo(url, options);
      return (await rp.exchange(landed)).accessToken;
    }

    interface Call {
      origin?: string;
      method?: string;
      query?: string;
      headers?: Record<string, string>;
      /** Adds a query parameter the library ignores and the API's own answer never takes: the library's answer. */
      viaLibrary?: boolean;
    }

    /** GET /oidc/me (or `method`) once this instance has applied every change made so far. */
    async function userinfo(token: string, options: Call = {}): Promise<Answer> {
      await api.app.sessionState.sync();
      const query = new URLSearchParams(options.query);
      if (options.viaLibrary) query.set(...libraryParameter);
      return watcher.answer(() =>
        fetch(`${api.issuer}/oidc/me${query.size > 0 ? `?${query}` : ''}`, {
          method: options.method ?? 'GET',
          headers: {
            authorization: `Bearer ${token}`,
            ...(options.origin ? { origin: options.origin } : {}),
            ...options.headers,
          },
        }),
      );
    }

    /** The same call, asked as is and of the library: equal answers. Answers the former. */
    async function sameAnswers(token: string, options: Call = {}): Promise<Answer> {
      const answer = await userinfo(token, options);
      assertSameAnswer(answer, await userinfo(token, { ...options, viaLibrary: true }));
      return answer;
    }

    /** The API's answer from memory equals the library's for the same token and request; answers the former. */
    async function sameAsLibrary(token: string, options: { origin?: string } = {}): Promise<Answer> {
      await userinfo(token, options); // the first use reads the database and fills the memory
      const fast = await userinfo(token, options);
      const library = await userinfo(token, { ...options, viaLibrary: true });
      assert.equal(fast.byLibrary, false, 'answered from memory');
      assert.equal(library.byLibrary, true, 'answered by the library');
      assertSameAnswer(fast, library);
      return fast;
    }

    /** Once a token no longer works, the library answers it, the same whichever way it is asked. */
    async function refusedByLibrary(token: string): Promise<Answer> {
      const refused = await userinfo(token);
      const library = await userinfo(token, { viaLibrary: true });
      assert.equal(refused.byLibrary, true, 'the library answered');
      assert.equal(refused.status, 401, refused.text);
      assert.match(refused.headers['www-authenticate'] ?? '', /^Bearer realm="[^"]+", error="invalid_token"/);
      assert.equal(refused.text, library.text);
      assert.deepEqual(refused.headers, library.headers);
      return refused;
    }

    before(async () => {
      api = await startOidcApi(backend);
      withApp = await registerClient(api.app, {
        nombre: 'Control Max 360',
        redirectUris: [withAppRedirect],
        primeraParte: true,
        appId: 1,
        scopes: ['openid', 'profile', 'email', 'phone', 'plan', 'roles', 'offline_access'],
      });
      withoutApp = await registerClient(api.app, {
        nombre: 'Socio',
        redirectUris: [withoutAppRedirect],
        primeraParte: true,
        scopes: ['openid', 'profile', 'email', 'phone', 'offline_access'],
      });
      watcher = watchLibrary(api.app);
    });
    after(() => api.close());

    it('answers what the library answers, scope by scope, for a client with an app and one without', async () => {
      const { id, browser } = await newPerson();
      const [freeOfApp1] = await api.app.db
        .select({ id: plans.id })
        .from(plans)
        .where(sql`${plans.appId} = 1 and lower(${plans.nombre}) = 'free'`);
      const plan = { id: freeOfApp1?.id, nombre: 'free', fechaVencimiento: null, origen: 'propio', empresa: null };
      const sub = await publicIdOf(api.app, id);
      const cases: [typeof withApp, string, string[], Record<string, unknown>][] = [
        [withApp, withAppRedirect, ['openid'], { sub }],
        [
          withApp,
          withAppRedirect,
          ['openid', 'profile'],
          { sub, name: 'Ana Pérez', given_name: 'Ana', family_name: 'Pérez' },
        ],
        [
          withApp,
          withAppRedirect,
          ['openid', 'email'],
          { sub, email: `persona${serial}@userinfo.test`, email_verified: true },
        ],
        [
          withApp,
          withAppRedirect,
          ['openid', 'phone'],
          { sub, phone_number: '+51912345678', phone_number_verified: false },
        ],
        [withApp, withAppRedirect, ['openid', 'plan'], { sub, plan }],
        [
          withApp,
          withAppRedirect,
          ['openid', 'profile', 'email', 'phone', 'plan'],
          {
            sub,
            email: `persona${serial}@userinfo.test`,
            email_verified: true,
            name: 'Ana Pérez',
            given_name: 'Ana',
            family_name: 'Pérez',
            phone_number: '+51912345678',
            phone_number_verified: false,
            plan,
          },
        ],
        [
          withoutApp,
          withoutAppRedirect,
          ['openid', 'email', 'profile'],
          {
            sub,
            email: `persona${serial}@userinfo.test`,
            email_verified: true,
            name: 'Ana Pérez',
            given_name: 'Ana',
            family_name: 'Pérez',
          },
        ],
      ];
      for (const [client, redirect, scopes, claims] of cases) {
        const token = await accessToken(browser, client, redirect, scopes);
        const answer = await sameAsLibrary(token);
        assert.equal(answer.status, 200, `${scopes.join(' ')}: ${answer.text}`);
        assert.deepEqual(JSON.parse(answer.text), claims, scopes.join(' '));
        assert.equal(answer.headers['cache-control'], 'no-store');
        assert.equal(answer.headers['content-type'], 'application/json; charset=utf-8');
      }
    });

    it('a token with the scope roles is answered from memory while its roles are kept: one taken away is gone from the next answer', async () => {
      const { id, browser } = await newPerson();
      await api.app.db
        .insert(appRoles)
        .values({ appId: 1, clave: 'supervisor', nombre: 'Supervisor' })
        .onConflictDoNothing();
      await api.app.db.insert(userAppRoles).values({ userId: id, appId: 1, clave: 'supervisor' });
      const token = await accessToken(browser, withApp, withAppRedirect, ['openid', 'roles']);
      const sub = await publicIdOf(api.app, id);
      assert.deepEqual(JSON.parse((await sameAsLibrary(token)).text), { sub, roles: ['supervisor'] });

      // Straight in the database, as another instance would: the notification drops what this one kept.
      await api.app.db.delete(userAppRoles).where(eq(userAppRoles.userId, id));
      assert.deepEqual(JSON.parse((await sameAsLibrary(token)).text), { sub, roles: [] });
      // A default role of the app reaches everyone who holds it (the person has its free plan), at once.
      await api.app.db.update(appRoles).set({ porDefecto: true }).where(eq(appRoles.clave, 'supervisor'));
      assert.deepEqual(JSON.parse((await sameAsLibrary(token)).text), { sub, roles: ['supervisor'] });
      await api.app.db.update(appRoles).set({ porDefecto: false }).where(eq(appRoles.clave, 'supervisor'));
    });

    it("answers CORS per client as the library does: the app's origin, any origin without one, a foreign one refused", async () => {
      const { browser } = await newPerson();
      const token = await accessToken(browser, withApp, withAppRedirect, ['openid', 'email']);
      const fromApp = await sameAsLibrary(token, { origin: 'https://control.example.com' });
      assert.equal(fromApp.headers['access-control-allow-origin'], 'https://control.example.com');
      assert.equal(fromApp.headers.vary, 'Origin');
      const withoutOrigin = await sameAsLibrary(token);
      assert.equal(withoutOrigin.headers['access-control-allow-origin'], '*');
      const foreign = await userinfo(token, { origin: 'https://otro.example.com' });
      const foreignByLibrary = await userinfo(token, { origin: 'https://otro.example.com', viaLibrary: true });
      assert.equal(foreign.byLibrary, true, 'an origin the client does not have is the library’s to refuse');
      assert.equal(foreign.status, 400);
      assert.equal(foreign.text, foreignByLibrary.text);
      assert.deepEqual(foreign.headers, foreignByLibrary.headers);
    });

    it('leaves every other request to the library: POST, HEAD, a scope or a token in the query, DPoP, unknown tokens', async () => {
      const { browser } = await newPerson();
      const token = await accessToken(browser, withApp, withAppRedirect, ['openid', 'email']);
      const fast = await sameAsLibrary(token);
      const posted = await userinfo(token, { method: 'POST' });
      assert.equal(posted.byLibrary, true);
      assert.equal(posted.status, 200);
      assert.equal(posted.text, fast.text);
      assert.equal((await userinfo(token, { method: 'HEAD' })).byLibrary, true);
      // Refused before any token is looked up: the library's answers, whichever way they are asked.
      assert.equal((await sameAnswers(token, { headers: { dpop: 'x' } })).status, 400);
      assert.equal((await sameAnswers(token, { query: `access_token=${token}` })).status, 400);
      const scoped = await sameAnswers(token, { query: 'scope=openid' });
      assert.equal(scoped.byLibrary, true);
      assert.equal(scoped.status, 200);
      const unknown = await refusedByLibrary('desconocido'.repeat(4));
      assert.match(unknown.headers['www-authenticate'] ?? '', /error_description="invalid token provided"/);
      const noToken = await fetch(`${api.issuer}/oidc/me`);
      assert.equal(noToken.status, 401);
      assert.ok(noToken.headers.get('www-authenticate')?.startsWith(`Bearer realm="${api.issuer}"`));
    });

    it('a token bound to the provider session (no offline_access) is answered from memory while that session stands', async () => {
      const { browser } = await newPerson();
      const token = await accessToken(browser, withApp, withAppRedirect, ['openid', 'email'], { bound: true });
      const bound = await sameAsLibrary(token);
      assert.equal(bound.status, 200);
      assert.equal(JSON.parse(bound.text).email, `persona${serial}@userinfo.test`);
      const logout = await api.app.inject({
        method: 'POST',
        url: '/auth/logout',
        headers: { authorization: `Bearer ${browser.portalToken}` },
      });
      assert.equal(logout.statusCode, 204);
      await refusedByLibrary(token);
    });

    it('a session-bound token is refused at once when its provider session goes or moves, straight in the database', async () => {
      const sessionOf = async (token: string) => {
        const [row] = await api.app.db
          .select({ sessionUid: oidcPayloads.sessionUid })
          .from(oidcPayloads)
          .where(and(eq(oidcPayloads.kind, 'AccessToken'), eq(oidcPayloads.id, token)));
        return and(eq(oidcPayloads.kind, 'Session'), eq(oidcPayloads.uid, row?.sessionUid ?? ''));
      };
      // As another instance would: only the triggers' notification tells this one.
      const first = await newPerson();
      const gone = await accessToken(first.browser, withApp, withAppRedirect, ['openid'], { bound: true });
      await sameAsLibrary(gone);
      await api.app.db.delete(oidcPayloads).where(await sessionOf(gone));
      await refusedByLibrary(gone);

      // The session now holds another grant for the client (the library compares the token's with the session's).
      const second = await newPerson();
      const moved = await accessToken(second.browser, withApp, withAppRedirect, ['openid'], { bound: true });
      await sameAsLibrary(moved);
      const [session] = await api.app.db
        .select({ payload: oidcPayloads.payload })
        .from(oidcPayloads)
        .where(await sessionOf(moved));
      const payload = session?.payload as { authorizations: Record<string, { grantId: string }> };
      const authorization = payload.authorizations[withApp.clientId];
      assert.ok(authorization);
      authorization.grantId = 'otra-concesion';
      await api.app.db
        .update(oidcPayloads)
        .set({ payload })
        .where(await sessionOf(moved));
      await refusedByLibrary(moved);
    });

    it('a session-bound token past its provider session’s expiry is the library’s to refuse', async (t) => {
      const { browser } = await newPerson();
      const token = await accessToken(browser, withApp, withAppRedirect, ['openid'], { bound: true });
      await sameAsLibrary(token);
      const [row] = await api.app.db
        .select({ sessionUid: oidcPayloads.sessionUid })
        .from(oidcPayloads)
        .where(and(eq(oidcPayloads.kind, 'AccessToken'), eq(oidcPayloads.id, token)));
      const [session] = await api.app.db
        .select({ payload: oidcPayloads.payload })
        .from(oidcPayloads)
        .where(and(eq(oidcPayloads.kind, 'Session'), eq(oidcPayloads.uid, row?.sessionUid ?? '')));
      assert.ok(session);
      const sessionExp = (session.payload as { exp: number }).exp;
      mock.timers.enable({ apis: ['Date'], now: Date.now() });
      t.after(() => mock.timers.reset());
      // The token itself lasts 15 minutes; its session is made to end first (as a portal session about to expire).
      await api.app.db
        .update(oidcPayloads)
        .set({ payload: { ...(session.payload as object), exp: Math.floor(Date.now() / 1000) + 30 } })
        .where(and(eq(oidcPayloads.kind, 'Session'), eq(oidcPayloads.uid, row?.sessionUid ?? '')));
      assert.ok(sessionExp > Math.floor(Date.now() / 1000) + 30);
      await sameAsLibrary(token);
      mock.timers.tick(50_000);
      await refusedByLibrary(token);
    });

    it('a token without the openid scope is refused by the library (403 insufficient_scope)', async () => {
      const { browser } = await newPerson();
      const token = await accessToken(browser, withApp, withAppRedirect, ['openid', 'email']);
      // A second sign-in of the same app: another token of the same grant.
      const sibling = await accessToken(browser, withApp, withAppRedirect, ['openid', 'email']);
      const grantOf = async (id: string) =>
        (
          await api.app.db
            .select({ grantId: oidcPayloads.grantId, payload: oidcPayloads.payload })
            .from(oidcPayloads)
            .where(and(eq(oidcPayloads.kind, 'AccessToken'), eq(oidcPayloads.id, id)))
        )[0];
      const row = await grantOf(token);
      assert.equal(row?.grantId, (await grantOf(sibling))?.grantId);
      await sameAsLibrary(token);
      // As a token issued for an API resource would be: its scope stored without openid.
      await api.app.db
        .update(oidcPayloads)
        .set({ payload: { ...row?.payload, scope: 'email' } })
        .where(and(eq(oidcPayloads.kind, 'AccessToken'), eq(oidcPayloads.id, token)));
      // The token kept again (as the library reads it), and with its sibling's use, its grant, client and account.
      await userinfo(token);
      await sameAsLibrary(sibling);
      const refused = await userinfo(token);
      const library = await userinfo(token, { viaLibrary: true });
      assert.equal(refused.byLibrary, true);
      assert.equal(refused.status, 403);
      assert.equal(refused.text, library.text);
      assert.deepEqual(refused.headers, library.headers);
    });

    it('after a logout of the portal, the library refuses the token', async () => {
      const { browser } = await newPerson();
      const token = await accessToken(browser, withApp, withAppRedirect, ['openid', 'profile']);
      await sameAsLibrary(token);
      const logout = await api.app.inject({
        method: 'POST',
        url: '/auth/logout',
        headers: { authorization: `Bearer ${browser.portalToken}` },
      });
      assert.equal(logout.statusCode, 204);
      await refusedByLibrary(token);
    });

    it('after the person takes a third-party app back in /perfil, the library refuses its token', async () => {
      const third = await registerClient(api.app, {
        nombre: 'Tercero',
        redirectUris: [thirdPartyRedirect],
        scopes: ['openid', 'email', 'offline_access'],
      });
      const { browser } = await newPerson();
      const token = await accessToken(browser, third, thirdPartyRedirect, ['openid', 'email'], { allow: true });
      await sameAsLibrary(token);
      const removed = await api.app.inject({
        method: 'DELETE',
        url: `/auth/aplicaciones/${third.clientId}`,
        headers: { authorization: `Bearer ${browser.portalToken}` },
      });
      assert.equal(removed.statusCode, 204, removed.body);
      await refusedByLibrary(token);
    });

    it('after its grant alone is revoked (a reused refresh token, another instance), the library refuses the token', async () => {
      const { browser } = await newPerson();
      const token = await accessToken(browser, withApp, withAppRedirect, ['openid', 'email']);
      await sameAsLibrary(token);
      const [row] = await api.app.db
        .select({ grantId: oidcPayloads.grantId })
        .from(oidcPayloads)
        .where(and(eq(oidcPayloads.kind, 'AccessToken'), eq(oidcPayloads.id, token)));
      // Straight in the database, as another instance would: only the triggers' notification tells this one.
      await api.app.db
        .delete(oidcPayloads)
        .where(and(eq(oidcPayloads.kind, 'Grant'), eq(oidcPayloads.id, row?.grantId ?? '')));
      const refused = await refusedByLibrary(token);
      assert.match(refused.headers['www-authenticate'] ?? '', /error_description="invalid token provided"/);
    });

    it('after another instance deletes the token, the memory forgets it and the library refuses it', async () => {
      const { browser } = await newPerson();
      const token = await accessToken(browser, withApp, withAppRedirect, ['openid', 'email']);
      await sameAsLibrary(token);
      await api.app.db
        .delete(oidcPayloads)
        .where(and(eq(oidcPayloads.kind, 'AccessToken'), eq(oidcPayloads.id, token)));
      await refusedByLibrary(token);
    });

    it('after a suspension (by an administrator, or straight in the database), the library refuses the token', async () => {
      const admin = await login(api.app, adminEmail, adminPassword);
      const first = await newPerson();
      const token = await accessToken(first.browser, withApp, withAppRedirect, ['openid', 'email']);
      await sameAsLibrary(token);
      const toggled = await api.app.inject({
        method: 'PUT',
        url: `/auth/cambiar-estado/${first.id}`,
        headers: { authorization: `Bearer ${admin}` },
      });
      assert.equal(toggled.statusCode, 200, toggled.body);
      await refusedByLibrary(token);

      const second = await newPerson();
      const other = await accessToken(second.browser, withApp, withAppRedirect, ['openid', 'email']);
      await sameAsLibrary(other);
      await api.app.db.update(users).set({ status: 'suspended' }).where(eq(users.id, second.id));
      await refusedByLibrary(other);
    });

    it('after its client is deleted, the library refuses the token', async () => {
      const doomed = await registerClient(api.app, {
        nombre: 'Efímera',
        redirectUris: ['https://efimera.example.com/auth/callback'],
        primeraParte: true,
        scopes: ['openid', 'email', 'offline_access'],
      });
      const { browser } = await newPerson();
      const token = await accessToken(browser, doomed, 'https://efimera.example.com/auth/callback', [
        'openid',
        'email',
      ]);
      await sameAsLibrary(token);
      const admin = await login(api.app, adminEmail, adminPassword);
      const deleted = await api.app.inject({
        method: 'DELETE',
        url: `/admin/clientes-oidc/${doomed.clientId}`,
        headers: { authorization: `Bearer ${admin}` },
      });
      assert.equal(deleted.statusCode, 204, deleted.body);
      await refusedByLibrary(token);
    });

    it('an expired token still kept in memory is the library’s to refuse', async (t) => {
      const { browser } = await newPerson();
      const token = await accessToken(browser, withApp, withAppRedirect, ['openid', 'email']);
      mock.timers.enable({ apis: ['Date'], now: Date.now() });
      t.after(() => mock.timers.reset());
      // Half a minute before it expires (15 minutes): read again (the memory keeps an entry 60 s), answered from memory.
      mock.timers.tick(14 * 60_000 + 30_000);
      await sameAsLibrary(token);
      // 20 s past its expiry, past the library's clock tolerance (15 s), while the memory still holds it.
      mock.timers.tick(50_000);
      await refusedByLibrary(token);
    });

    it('while the memory is not trusted, every call is the library’s (and reads the database)', async () => {
      const { browser } = await newPerson();
      const token = await accessToken(browser, withApp, withAppRedirect, ['openid', 'email']);
      const fast = await sameAsLibrary(token);
      await api.app.sessionState.stop();
      const answer = await userinfo(token);
      assert.equal(answer.byLibrary, true);
      assert.equal(answer.status, 200);
      assert.equal(answer.text, fast.text);
    });
  });
});
