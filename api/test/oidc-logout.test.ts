// One session everywhere: whatever ends a portal session (logout, 'Cerrar todas las demás sesiones', an administrator,
// a password change or reset, suspension, demotion) ends the person's sessions in the apps too: a back-channel logout
// to each app (OpenID Connect Back-Channel Logout 1.0), refresh tokens revoked, introspection inactive; delivery
// retried, audited and never in the way of the person's logout. And an app's own logout ends the portal session.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { and, eq } from 'drizzle-orm';
import { auditLog, oidcLogoutDeliveries, roles, sessions, users } from '../src/db/schema.js';
import { capturingTransport, codeIn, mailsTo } from './helpers/accounts.js';
import { adminEmail, adminPassword, createUser, forEachBackend, login } from './helpers/app.js';
import {
  claimsOf,
  verifiedLogoutClaims,
  type LogoutReceiver,
  type OidcTestApi,
  portalUrl,
  publicIdOf,
  registerClient,
  serverApp,
  startLogoutReceiver,
  startOidcApi,
  TestBrowser,
} from './helpers/oidc.js';
import { waitFor } from './helpers/processes.js';
import { documentOnlyHeaders } from './helpers/security-headers.js';

const redirectA = 'https://control.example.com/auth/callback';
const redirectB = 'https://beto.example.com/auth/callback';

forEachBackend((backend) => {
  describe('OpenID Connect: one session everywhere', () => {
    let api: OidcTestApi;
    let receiverA: LogoutReceiver;
    let receiverB: LogoutReceiver;
    let clientA: { clientId: string; clientSecret?: string };
    let clientB: { clientId: string; clientSecret?: string };
    let serial = 0;
    const mail = capturingTransport();

    /** A person of their own per test, signed in to the portal in a browser of their own. */
    async function newPerson(role: number = roles.user) {
      serial += 1;
      const email = `persona${serial}@logout.test`;
      const password = `clave-de-persona-${serial}`;
      const id = await createUser(api.app, { email, password, status: 'active' });
      if (role !== roles.user) await api.app.db.update(users).set({ role }).where(eq(users.id, id));
      const browser = new TestBrowser(api.issuer);
      browser.portalToken = await login(api.app, email, password);
      return { id, email, password, browser };
    }

    /** Signs the browser in to both apps (refresh tokens too); answers each app's tokens and provider session id. */
    async function signIntoBoth(browser: TestBrowser) {
      const signIn = async (client: { clientId: string; clientSecret?: string }, redirect: string) => {
        const rp = await serverApp(api.issuer, client.clientId, client.clientSecret ?? '', redirect);
        const landed = await browser.signInTo(
          await rp.authorizationUrl(['openid', 'offline_access'], { prompt: 'consent' }),
        );
        const tokens = await rp.exchange(landed);
        return { rp, tokens, sid: String(claimsOf(tokens.idToken ?? '').sid), client };
      };
      return [await signIn(clientA, redirectA), await signIn(clientB, redirectB)];
    }
    type AppSession = Awaited<ReturnType<typeof signIntoBoth>>[number];

    async function introspection(session: AppSession) {
      return session.rp.client.introspect(session.tokens);
    }

    /** Each app was told by a verified logout token for its session, and its tokens no longer work. */
    async function assertLoggedOut(sessionsOfApps: AppSession[], sub: number) {
      await api.app.identityProvider.logouts.deliverDue();
      for (const [session, receiver] of sessionsOfApps.map(
        (s) => [s, s.client === clientA ? receiverA : receiverB] as const,
      )) {
        const token = await waitFor(
          `the logout token of ${session.client.clientId}`,
          async () => {
            for (const jwt of receiver.tokens) if (claimsOf(jwt).sid === session.sid) return jwt;
            await api.app.identityProvider.logouts.deliverDue();
            return undefined;
          },
          10_000,
        );
        const claims = await verifiedLogoutClaims(token, api.issuer);
        assert.equal(claims.iss, api.issuer);
        assert.equal(claims.aud, session.client.clientId);
        // The person as the app knows them: the sub of its ID token (the public id of a new client), never the id.
        assert.equal(claims.sub, claimsOf(session.tokens.idToken ?? '').sub);
        assert.equal(claims.sub, await publicIdOf(api.app, sub));
        assert.deepEqual(claims.events, { 'http://schemas.openid.net/event/backchannel-logout': {} });
        assert.equal(claims.nonce, undefined);
        assert.equal((await introspection(session)).active, false, 'introspection answers inactive');
        await assert.rejects(session.rp.client.refreshToken(session.tokens), /invalid_grant|grant/i, 'refresh revoked');
      }
    }

    async function assertStillSignedIn(session: AppSession) {
      assert.equal((await introspection(session)).active, true);
    }

    before(async () => {
      api = await startOidcApi(backend, {}, { mailTransport: mail });
      receiverA = await startLogoutReceiver();
      receiverB = await startLogoutReceiver();
      clientA = await registerClient(api.app, {
        nombre: 'Control Max 360',
        redirectUris: [redirectA],
        postLogoutRedirectUris: ['https://control.example.com/adios'],
        backchannelLogoutUri: receiverA.url,
        primeraParte: true,
        appId: 1,
        scopes: ['openid', 'profile', 'email', 'plan', 'offline_access'],
      });
      clientB = await registerClient(api.app, {
        nombre: 'Beto Pro',
        redirectUris: [redirectB],
        backchannelLogoutUri: receiverB.url,
        primeraParte: true,
        appId: 2,
        scopes: ['openid', 'profile', 'email', 'plan', 'offline_access'],
      });
    });
    after(async () => {
      await api.close();
      await receiverA.close();
      await receiverB.close();
    });

    it('logging out of the portal logs the person out of both apps, and the audit log says so', async () => {
      const { id, browser } = await newPerson();
      const apps = await signIntoBoth(browser);
      const logout = await api.app.inject({
        method: 'POST',
        url: '/auth/logout',
        headers: { authorization: `Bearer ${browser.portalToken}` },
      });
      assert.equal(logout.statusCode, 204);
      await assertLoggedOut(apps, id);
      const audited = await api.app.db
        .select({ details: auditLog.details })
        .from(auditLog)
        .where(and(eq(auditLog.action, 'oidc.backchannel_logout'), eq(auditLog.targetId, id)));
      assert.deepEqual(audited.map((row) => [row.details.cliente, row.details.motivo, row.details.resultado]).sort(), [
        ['Beto Pro', 'logout', 'entregado'],
        ['Control Max 360', 'logout', 'entregado'],
      ]);
      // The provider's session went with it: the next app sign-in goes through the portal again.
      const rp = await serverApp(api.issuer, clientA.clientId, clientA.clientSecret ?? '', redirectA);
      const { url } = await browser.navigate(await rp.authorizationUrl(['openid']));
      assert.ok(url.startsWith(`${portalUrl}/autorizar?`), url);
    });

    it("'Cerrar todas las demás sesiones' ends the apps of the other sessions only", async () => {
      const { id, email, password, browser } = await newPerson();
      const elsewhere = await signIntoBoth(browser);
      const here = new TestBrowser(api.issuer);
      here.portalToken = await login(api.app, email, password);
      const [hereA] = await signIntoBoth(here);
      const ended = await api.app.inject({
        method: 'POST',
        url: '/auth/sessions/cerrar-otras',
        headers: { authorization: `Bearer ${here.portalToken}` },
      });
      assert.equal(ended.statusCode, 200);
      await assertLoggedOut(elsewhere, id);
      assert.ok(hereA);
      await assertStillSignedIn(hereA);
    });

    it('an administrator ending a session in the panel ends its apps', async () => {
      const { id, browser } = await newPerson();
      const apps = await signIntoBoth(browser);
      const admin = await login(api.app, adminEmail, adminPassword);
      const [row] = await api.app.db.select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, id));
      const ended = await api.app.inject({
        method: 'DELETE',
        url: `/admin/users/${id}/sessions/${row?.id}`,
        headers: { authorization: `Bearer ${admin}` },
      });
      assert.equal(ended.statusCode, 204);
      await assertLoggedOut(apps, id);
    });

    it("a password change ends every app session, this browser's included", async () => {
      const { id, password, browser } = await newPerson();
      const apps = await signIntoBoth(browser);
      const changed = await api.app.inject({
        method: 'PUT',
        url: '/auth/update-password',
        headers: { authorization: `Bearer ${browser.portalToken}` },
        payload: { currentPassword: password, newPassword: 'otra-clave-nueva' },
      });
      assert.equal(changed.statusCode, 200, changed.body);
      await assertLoggedOut(apps, id);
    });

    it("a password reset by emailed code ('¿Olvidaste tu contraseña?') ends every app session too", async () => {
      const { id, email, browser } = await newPerson();
      const apps = await signIntoBoth(browser);
      const asked = await api.app.inject({ method: 'POST', url: '/auth/forgot-password', payload: { email } });
      assert.equal(asked.statusCode, 200, asked.body);
      const code = codeIn((await mailsTo(api.app, mail, email)).at(-1));
      const reset = await api.app.inject({
        method: 'POST',
        url: '/auth/change-password',
        payload: { email, code, newPassword: 'clave-restablecida-1' },
      });
      assert.equal(reset.statusCode, 200, reset.body);
      await assertLoggedOut(apps, id);
      const audited = await api.app.db
        .select({ details: auditLog.details })
        .from(auditLog)
        .where(and(eq(auditLog.action, 'oidc.backchannel_logout'), eq(auditLog.targetId, id)));
      assert.deepEqual(audited.map((row) => [row.details.cliente, row.details.motivo, row.details.resultado]).sort(), [
        ['Beto Pro', 'credentials_changed', 'entregado'],
        ['Control Max 360', 'credentials_changed', 'entregado'],
      ]);
    });

    it('suspension and demotion end the app sessions', async () => {
      const admin = await login(api.app, adminEmail, adminPassword);
      const suspended = await newPerson();
      const suspendedApps = await signIntoBoth(suspended.browser);
      const toggled = await api.app.inject({
        method: 'PUT',
        url: `/auth/cambiar-estado/${suspended.id}`,
        headers: { authorization: `Bearer ${admin}` },
      });
      assert.equal(toggled.statusCode, 200);
      await assertLoggedOut(suspendedApps, suspended.id);

      const demoted = await newPerson(roles.admin);
      const demotedApps = await signIntoBoth(demoted.browser);
      const edited = await api.app.inject({
        method: 'PUT',
        url: `/auth/editar/${demoted.id}`,
        headers: { authorization: `Bearer ${admin}` },
        payload: { role: roles.user },
      });
      assert.equal(edited.statusCode, 200, edited.body);
      await assertLoggedOut(demotedApps, demoted.id);
    });

    it("an app's logout (with its ID token) ends the portal session in that browser and tells the other app", async () => {
      const { id, browser } = await newPerson();
      const [a, b] = await signIntoBoth(browser);
      assert.ok(a && b);
      const url = new URL(`${api.issuer}/oidc/session/end`);
      url.searchParams.set('id_token_hint', a.tokens.idToken ?? '');
      url.searchParams.set('post_logout_redirect_uri', 'https://control.example.com/adios');
      url.searchParams.set('state', 'vuelta-1');
      // The page sends its form at once (the app's ID token vouches for the person): the browser submits it.
      const page = await browser.navigate(url.href);
      const html = await page.response.text();
      assert.match(html, /Cerrando sesión/);
      const action = /action="([^"]+)"/.exec(html)?.[1] ?? '';
      const xsrf = /name="xsrf" value="([^"]+)"/.exec(html)?.[1] ?? '';
      const done = await browser.navigate(action, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ xsrf, logout: 'yes' }),
      });
      assert.equal(done.url, 'https://control.example.com/adios?state=vuelta-1');
      const me = await api.app.inject({
        method: 'GET',
        url: '/auth/user',
        headers: { authorization: `Bearer ${browser.portalToken}` },
      });
      assert.equal(me.statusCode, 401, 'the portal session in that browser is over');
      await assertLoggedOut([a, b], id);
    });

    it("an app's logout without its ID token asks, in Spanish, and 'Cancelar' keeps the portal session", async () => {
      const { browser } = await newPerson();
      await signIntoBoth(browser);
      const url = new URL(`${api.issuer}/oidc/session/end`);
      url.searchParams.set('client_id', clientA.clientId);
      const page = await browser.navigate(url.href);
      assert.equal(page.response.status, 200);
      assert.match(page.response.headers.get('content-security-policy') ?? '', /script-src 'none'/);
      for (const name of documentOnlyHeaders) assert.ok(page.response.headers.get(name), `the page carries ${name}`);
      const html = await page.response.text();
      assert.match(html, /<html lang="es">/);
      assert.match(html, /¿Cerrar sesión\?/);
      assert.match(html, /Control Max 360 cerró tu sesión/);
      assert.match(html, />Cancelar</);
      const action = /action="([^"]+)"/.exec(html)?.[1] ?? '';
      const xsrf = /name="xsrf" value="([^"]+)"/.exec(html)?.[1] ?? '';
      await browser.navigate(action, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ xsrf }),
      });
      const me = await api.app.inject({
        method: 'GET',
        url: '/auth/user',
        headers: { authorization: `Bearer ${browser.portalToken}` },
      });
      assert.equal(me.statusCode, 200, "'Cancelar': still signed in to the portal");
    });

    it('an app that does not answer never holds up the logout; delivery is retried until it does', async () => {
      const { id, browser } = await newPerson();
      const [a] = await signIntoBoth(browser);
      assert.ok(a);
      receiverA.status = 503;
      const logout = await api.app.inject({
        method: 'POST',
        url: '/auth/logout',
        headers: { authorization: `Bearer ${browser.portalToken}` },
      });
      assert.equal(logout.statusCode, 204);
      await api.app.identityProvider.logouts.deliverDue();
      const pending = () =>
        api.app.db
          .select()
          .from(oidcLogoutDeliveries)
          .where(and(eq(oidcLogoutDeliveries.clientId, clientA.clientId), eq(oidcLogoutDeliveries.sid, a.sid)));
      const [failed] = await pending();
      assert.ok(failed && failed.deliveredAt === null && failed.attempts >= 1, 'failed once, kept for later');
      assert.match(failed.lastError ?? '', /503/);
      assert.equal((await introspection(a)).active, false, 'the tokens were revoked anyway');

      receiverA.status = 200;
      await api.app.db
        .update(oidcLogoutDeliveries)
        .set({ nextAttemptAt: new Date() })
        .where(eq(oidcLogoutDeliveries.id, failed.id));
      await assertLoggedOut([a], id);
      const [delivered] = await pending();
      assert.ok(delivered?.deliveredAt);
      assert.ok((delivered?.attempts ?? 0) >= 2);
    });
  });
});
