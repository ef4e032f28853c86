// What a partner app and a browser see at the provider's edges, with openid-client as the relying party: the `plan`
// claim of a plan whose expiry has passed (and `plan_vencido`), the client authentication methods discovery
// advertises, the portal's own self-submitting pages, and the CORS preflight of the client endpoints.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it, mock } from 'node:test';
import { and, eq } from 'drizzle-orm';
import * as oidc from 'openid-client';
import { apps, plans, userPlans } from '../src/db/schema.js';
import { createUser, forEachBackend, login } from './helpers/app.js';
import {
  codeFlow,
  type OidcTestApi,
  openidClient,
  portalUrl,
  registerClient,
  startOidcApi,
  TestBrowser,
} from './helpers/oidc.js';

const serverRedirect = 'https://planta.example.com/auth/callback';
const spaRedirect = 'http://localhost:5173/callback';
const spaOrigin = 'http://localhost:5173';
const serverOrigin = 'https://planta.example.com';
const evilOrigin = 'https://evil.example';
const controlMax = 1;

interface Plan {
  id: number;
  nombre: string;
  fechaVencimiento: string | null;
}

forEachBackend((backend) => {
  describe('the provider at its edges', () => {
    let api: OidcTestApi;
    let adminToken: string;
    let server: { clientId: string; clientSecret?: string };
    let spa: { clientId: string };
    let person: { id: number; email: string; password: string };
    let free: number;
    let freeName: string;
    let pro: number;

    /** openid-client for a client, by default authenticating with client_secret_basic (or none without a secret). */
    const relyingParty = (
      client: { clientId: string; clientSecret?: string },
      auth: oidc.ClientAuth = client.clientSecret ? oidc.ClientSecretBasic(client.clientSecret) : oidc.None(),
    ) => openidClient(api.issuer, client, auth);

    /** Signs the person in to the app at `redirect` with `scope`: the token endpoint's answer. */
    async function signIn(config: oidc.Configuration, redirect: string, scope: string) {
      const browser = new TestBrowser(api.issuer);
      browser.portalToken = await login(api.app, person.email, person.password);
      return codeFlow(config, browser, redirect, scope);
    }

    /** The administrator gives the person `planId` in `appId` until `until`, as the admin panel does. */
    async function setPlan(appId: number, planId: number, until: Date) {
      const response = await api.app.inject({
        method: 'POST',
        url: '/plan-usuario/cambiar-plan-app',
        headers: { authorization: `Bearer ${adminToken}` },
        payload: { idUsuario: person.id, idApp: appId, idPlan: planId, fechaVencimiento: until.toISOString() },
      });
      assert.equal(response.statusCode, 200, response.body);
    }

    const userinfo = async (config: oidc.Configuration, accessToken: string) =>
      oidc.fetchUserInfo(config, accessToken, oidc.skipSubjectCheck);

    before(async () => {
      api = await startOidcApi(backend);
      adminToken = await login(api.app);
      server = await registerClient(api.app, {
        nombre: 'Control Max 360 (planta)',
        redirectUris: [serverRedirect],
        primeraParte: true,
        appId: controlMax,
        scopes: ['openid', 'profile', 'plan', 'offline_access'],
      });
      spa = await registerClient(api.app, {
        nombre: 'Control Max 360 (web)',
        redirectUris: [spaRedirect, 'com.portal.controlmax:/callback'],
        publico: true,
        primeraParte: true,
        scopes: ['openid', 'profile', 'offline_access'],
      });
      person = { id: 0, email: 'tecnica@planta.test', password: 'clave-de-la-tecnica-1' };
      person.id = await createUser(api.app, { email: person.email, password: person.password, status: 'active' });
      const catalogue = await api.app.db
        .select({ id: plans.id, nombre: plans.nombre })
        .from(plans)
        .where(eq(plans.appId, controlMax));
      const freePlan = catalogue.find((plan) => plan.nombre.toLowerCase() === 'free');
      free = freePlan?.id ?? 0;
      freeName = freePlan?.nombre ?? '';
      pro = catalogue.find((plan) => plan.nombre === 'PRO')?.id ?? 0;
      assert.ok(free && pro);
      await api.app.db.insert(userPlans).values({ userId: person.id, appId: controlMax, planId: free });
    });
    after(() => api.close());

    describe('a plan whose expiry has passed', () => {
      it('PRO until yesterday: the ID token (code and refresh) and userinfo name the free plan, the lapsed PRO apart', async () => {
        const yesterday = new Date(Date.now() - 24 * 60 * 60 * 1000);
        await setPlan(controlMax, pro, yesterday);
        const config = await relyingParty(server);
        const tokens = await signIn(config, serverRedirect, 'openid plan offline_access');
        const expected = {
          plan: { id: free, nombre: freeName, fechaVencimiento: null, origen: 'propio', empresa: null },
          plan_vencido: { id: pro, nombre: 'PRO', fechaVencimiento: yesterday.toISOString() },
        };
        const idToken = tokens.claims();
        assert.deepEqual({ plan: idToken?.plan, plan_vencido: idToken?.plan_vencido }, expected);
        // Twice: the second answer may come from the session memory.
        for (let round = 0; round < 2; round++) {
          const info = await userinfo(config, tokens.access_token);
          assert.deepEqual({ plan: info.plan, plan_vencido: info.plan_vencido }, expected);
        }
        assert.ok(tokens.refresh_token);
        const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token);
        const refreshedClaims = refreshed.claims();
        assert.deepEqual({ plan: refreshedClaims?.plan, plan_vencido: refreshedClaims?.plan_vencido }, expected);
        // Introspection carries no claims of the person: nothing there names a plan.
        const introspected = await oidc.tokenIntrospection(config, refreshed.access_token);
        assert.equal(introspected.active, true);
        assert.equal(introspected.plan, undefined);
        assert.equal(introspected.plan_vencido, undefined);
        assert.doesNotMatch(JSON.stringify(introspected), /PRO/);
      });

      it('without the scope plan, neither claim is released', async () => {
        const config = await relyingParty(server);
        const tokens = await signIn(config, serverRedirect, 'openid profile');
        assert.equal(tokens.claims()?.plan, undefined);
        assert.equal(tokens.claims()?.plan_vencido, undefined);
        const info = await userinfo(config, tokens.access_token);
        assert.equal(info.plan, undefined);
        assert.equal(info.plan_vencido, undefined);
      });

      it('PRO until a moment that passes while the tokens live: the next answers name the free plan at once', async (t) => {
        // Ten minutes: the access token lives fifteen, and the clock is moved past the plan's end, not waited for.
        const until = new Date(Date.now() + 10 * 60_000);
        await setPlan(controlMax, pro, until);
        const config = await relyingParty(server);
        const tokens = await signIn(config, serverRedirect, 'openid plan offline_access');
        const current = { id: pro, nombre: 'PRO', fechaVencimiento: until.toISOString() };
        assert.deepEqual(pick(tokens.claims()?.plan), current);
        assert.equal(tokens.claims()?.plan_vencido, undefined);
        for (let round = 0; round < 2; round++) {
          const info = await userinfo(config, tokens.access_token);
          assert.deepEqual(pick(info.plan), current);
          assert.equal(info.plan_vencido, undefined);
        }
        mock.timers.enable({ apis: ['Date'], now: Date.now() });
        t.after(() => mock.timers.reset());
        mock.timers.tick(until.getTime() - Date.now() + 1_000);
        const lapsed = {
          plan: { id: free, nombre: freeName, fechaVencimiento: null },
          plan_vencido: { id: pro, nombre: 'PRO', fechaVencimiento: until.toISOString() },
        };
        const info = await userinfo(config, tokens.access_token);
        assert.deepEqual({ plan: pick(info.plan), plan_vencido: info.plan_vencido }, lapsed);
        assert.ok(tokens.refresh_token);
        const refreshed = (await oidc.refreshTokenGrant(config, tokens.refresh_token)).claims();
        assert.deepEqual({ plan: pick(refreshed?.plan), plan_vencido: refreshed?.plan_vencido }, lapsed);
      });

      it('a new plan ends plan_vencido; in an app without a free plan the lapsed plan leaves plan null', async () => {
        await setPlan(controlMax, pro, new Date(Date.now() + 30 * 24 * 60 * 60 * 1000));
        const config = await relyingParty(server);
        const renewed = (await signIn(config, serverRedirect, 'openid plan')).claims();
        assert.equal(pick(renewed?.plan)?.nombre, 'PRO');
        assert.equal(renewed?.plan_vencido, undefined);

        const [app] = await api.app.db
          .insert(apps)
          .values({ nombre: 'Sensores Plus', descripcion: 'Sin plan gratuito' })
          .returning({ id: apps.id });
        assert.ok(app);
        const [paid] = await api.app.db
          .insert(plans)
          .values({ appId: app.id, nombre: 'Anual', descripcion: 'Solo de pago', precioMensual: 10, precioAnual: 100 })
          .returning({ id: plans.id });
        assert.ok(paid);
        const redirect = 'https://sensores.example.com/callback';
        const sensors = await registerClient(api.app, {
          nombre: 'Sensores Plus',
          redirectUris: [redirect],
          primeraParte: true,
          appId: app.id,
          scopes: ['openid', 'plan'],
        });
        const lastWeek = new Date(Date.now() - 7 * 24 * 60 * 60 * 1000);
        await setPlan(app.id, paid.id, lastWeek);
        const sensorsConfig = await relyingParty(sensors);
        const tokens = await signIn(sensorsConfig, redirect, 'openid plan');
        const expected = {
          plan: null,
          plan_vencido: { id: paid.id, nombre: 'Anual', fechaVencimiento: lastWeek.toISOString() },
        };
        assert.deepEqual({ plan: tokens.claims()?.plan, plan_vencido: tokens.claims()?.plan_vencido }, expected);
        const info = await userinfo(sensorsConfig, tokens.access_token);
        assert.deepEqual({ plan: info.plan, plan_vencido: info.plan_vencido }, expected);
        await api.app.db.delete(userPlans).where(and(eq(userPlans.userId, person.id), eq(userPlans.appId, app.id)));
      });
    });

    describe('client authentication', () => {
      it('discovery advertises exactly the methods a client can use, at every endpoint that authenticates one', async () => {
        const metadata = (await (await fetch(`${api.issuer}/.well-known/openid-configuration`)).json()) as Record<
          string,
          unknown
        >;
        const methods = ['client_secret_basic', 'client_secret_post', 'none'];
        assert.deepEqual(metadata.token_endpoint_auth_methods_supported, methods);
        for (const endpoint of ['introspection', 'revocation']) {
          const listed = metadata[`${endpoint}_endpoint_auth_methods_supported`];
          assert.ok(listed === undefined || JSON.stringify(listed) === JSON.stringify(methods), endpoint);
        }
        assert.equal(metadata.token_endpoint_auth_signing_alg_values_supported, undefined);
        assert.equal(metadata.claims_parameter_supported, true);
        assert.equal(metadata.request_parameter_supported ?? false, false);
        assert.equal(metadata.request_uri_parameter_supported, false);
        assert.ok((metadata.claims_supported as string[]).includes('plan_vencido'));
      });

      it('each advertised method works with openid-client (token, introspection, revocation); a JWT is refused', async () => {
        const secret = server.clientSecret as string;
        for (const auth of [oidc.ClientSecretBasic(secret), oidc.ClientSecretPost(secret)]) {
          const config = await relyingParty(server, auth);
          const tokens = await signIn(config, serverRedirect, 'openid offline_access');
          assert.ok(tokens.refresh_token);
          assert.equal((await oidc.tokenIntrospection(config, tokens.access_token)).active, true);
          const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token);
          await oidc.tokenRevocation(config, refreshed.refresh_token as string);
          await assert.rejects(oidc.refreshTokenGrant(config, refreshed.refresh_token as string), {
            error: 'invalid_grant',
          });
        }
        const none = await signIn(await relyingParty(spa), spaRedirect, 'openid');
        assert.equal(none.token_type, 'bearer');
        const jwt = await relyingParty(server, oidc.ClientSecretJwt(secret));
        await assert.rejects(signIn(jwt, serverRedirect, 'openid'), { error: 'invalid_client' });
      });
    });

    describe("the provider's pages are the portal's", () => {
      const scriptAllowed = (html: string, policy: string) => {
        const script = /<script>([^<]*)<\/script>/.exec(html)?.[1] ?? '';
        assert.ok(script, 'an inline script');
        const hash = createHash('sha256').update(script).digest('base64');
        assert.ok(policy.includes(`'sha256-${hash}'`), policy);
      };

      it('a logout with nobody signed in: a Spanish page that posts itself, a button without JavaScript', async () => {
        const browser = new TestBrowser(api.issuer);
        const { response } = await browser.navigate(`${api.issuer}/oidc/session/end`);
        assert.equal(response.status, 200);
        assert.match(response.headers.get('content-type') ?? '', /^text\/html/);
        const html = await response.text();
        assert.match(html, /<html lang="es">/);
        assert.match(html, /<title>Cerrar sesión<\/title>/);
        assert.match(html, /<noscript><p>Pulsa el botón para continuar.<\/p>/);
        assert.doesNotMatch(html, /Submitting|Continue|JavaScript|browser/);
        const policy = response.headers.get('content-security-policy') ?? '';
        assert.match(policy, /default-src 'none'/);
        scriptAllowed(html, policy);
        const action = /<form id="op.logoutForm" method="post" action="([^"]+)">/.exec(html)?.[1];
        assert.equal(action, `${api.issuer}/oidc/session/end/confirm`);
        const fields = Object.fromEntries(
          [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"\/>/g)].map(([, n, v]) => [n, v]),
        );
        assert.equal(fields.logout, 'yes');
        // The form posted as the browser would: the library's logout ends there, on the portal's sign-in page.
        const posted = await browser.request(action, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', origin: api.issuer },
          body: new URLSearchParams(fields as Record<string, string>),
        });
        assert.equal(posted.status, 303);
        const { url } = await browser.navigate(new URL(posted.headers.get('location') ?? '', action).href);
        assert.equal(url, `${portalUrl}/login`);
      });

      it('the form_post response mode carries the code to the app on the same Spanish page', async () => {
        const config = await relyingParty(server);
        const verifier = oidc.randomPKCECodeVerifier();
        const url = oidc.buildAuthorizationUrl(config, {
          redirect_uri: serverRedirect,
          scope: 'openid',
          state: 'estado-1',
          response_mode: 'form_post',
          code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
          code_challenge_method: 'S256',
        });
        // The browser as /autorizar plays it, keeping the last answer: the page that carries the code.
        const browser = new TestBrowser(api.issuer);
        browser.portalToken = await login(api.app, person.email, person.password);
        const asked = await browser.navigate(url.href);
        const uid = new URL(asked.url).searchParams.get('interaccion');
        assert.ok(uid, asked.url);
        const answer = await browser.portalCall(`/oidc/interaccion/${uid}/continuar`, { method: 'POST', body: {} });
        const { redirectTo } = (await answer.json()) as { redirectTo: string };
        const { response } = await browser.navigate(redirectTo);
        const html = await response.text();
        assert.equal(response.status, 200);
        assert.match(html, /<html lang="es">/);
        assert.match(html, /Volviendo a la aplicación/);
        assert.doesNotMatch(html, /Submitting|Continue|JavaScript/);
        scriptAllowed(html, response.headers.get('content-security-policy') ?? '');
        assert.match(html, new RegExp(`action="${serverRedirect}"`));
        const code = /name="code" value="([^"]+)"/.exec(html)?.[1];
        assert.ok(code);
        assert.match(html, /name="state" value="estado-1"/);
        // The code on the page is a real one: the app exchanges it.
        const tokens = await oidc.authorizationCodeGrant(
          config,
          new URL(`${serverRedirect}?code=${code}&state=estado-1&iss=${encodeURIComponent(api.issuer)}`),
          { pkceCodeVerifier: verifier, expectedState: 'estado-1' },
        );
        assert.ok(tokens.access_token);
      });

      it('signing in as somebody else in the same browser ends the first provider session on a Spanish page', async () => {
        const other = { email: 'otra@planta.test', password: 'clave-de-la-otra-1' };
        await createUser(api.app, { ...other, status: 'active' });
        const config = await relyingParty(server);
        const authorizationUrl = async (prompt?: string) =>
          oidc.buildAuthorizationUrl(config, {
            redirect_uri: serverRedirect,
            scope: 'openid',
            code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()),
            code_challenge_method: 'S256',
            ...(prompt ? { prompt } : {}),
          }).href;
        const browser = new TestBrowser(api.issuer);
        browser.portalToken = await login(api.app, person.email, person.password);
        assert.ok((await browser.signInTo(await authorizationUrl())).startsWith(serverRedirect));
        // Asked to sign in again, the other person signs in on the portal's page, which answers with their session.
        const asked = await browser.navigate(await authorizationUrl('login'));
        const uid = new URL(asked.url).searchParams.get('interaccion');
        assert.ok(uid, asked.url);
        browser.portalToken = await login(api.app, other.email, other.password);
        const answer = await browser.portalCall(`/oidc/interaccion/${uid}/continuar`, { method: 'POST', body: {} });
        assert.equal(answer.status, 200);
        const { redirectTo } = (await answer.json()) as { redirectTo: string };
        const { response } = await browser.navigate(redirectTo);
        const html = await response.text();
        assert.equal(response.status, 200);
        assert.match(html, /<html lang="es">/);
        assert.match(html, /Cerrando sesión/);
        assert.doesNotMatch(html, /Submitting|Continue|JavaScript/);
        assert.match(html, new RegExp(`action="${api.issuer}/oidc/session/end/confirm"`));
        scriptAllowed(html, response.headers.get('content-security-policy') ?? '');
      });

      it('errors are never a library page: an unknown client is sent to the portal with a fixed reason', async () => {
        const browser = new TestBrowser(api.issuer);
        const { url } = await browser.navigate(
          `${api.issuer}/oidc/auth?client_id=desconocido&response_type=code&scope=openid&redirect_uri=${encodeURIComponent(serverRedirect)}`,
        );
        assert.equal(url, `${portalUrl}/autorizar/error?motivo=cliente_desconocido`);
      });
    });

    describe('CORS preflight of the client endpoints', () => {
      const endpoints = {
        token: '/oidc/token',
        revocation: '/oidc/token/revocation',
        userinfo: '/oidc/me',
        introspection: '/oidc/token/introspection',
      } as const;

      const preflight = async (path: string, origin: string) => {
        const response = await fetch(`${api.issuer}${path}`, {
          method: 'OPTIONS',
          headers: {
            origin,
            'access-control-request-method': 'POST',
            'access-control-request-headers': 'content-type,authorization',
          },
        });
        await response.arrayBuffer();
        const granted = Object.fromEntries(
          [...response.headers].filter(([name]) => name.startsWith('access-control-')),
        ) as Record<string, string>;
        return { status: response.status, granted };
      };

      it("an evil origin's preflight is granted nowhere", async () => {
        for (const path of Object.values(endpoints)) {
          assert.deepEqual(await preflight(path, evilOrigin), { status: 204, granted: {} }, path);
          assert.deepEqual(await preflight(path, 'null'), { status: 204, granted: {} }, `${path} null`);
        }
      });

      it("a public client's origin: token, revocation and userinfo; never introspection", async () => {
        for (const path of [endpoints.token, endpoints.revocation]) {
          assert.deepEqual(
            await preflight(path, spaOrigin),
            {
              status: 204,
              granted: {
                'access-control-allow-origin': spaOrigin,
                'access-control-allow-methods': 'POST',
                'access-control-allow-headers': 'content-type,authorization',
                'access-control-max-age': '3600',
              },
            },
            path,
          );
        }
        const info = await preflight(endpoints.userinfo, spaOrigin);
        assert.equal(info.granted['access-control-allow-origin'], spaOrigin);
        assert.equal(info.granted['access-control-allow-methods'], 'GET,POST');
        assert.deepEqual(await preflight(endpoints.introspection, spaOrigin), { status: 204, granted: {} });
      });

      it("a confidential client's origin: userinfo only (its secret never belongs in a browser)", async () => {
        assert.equal(
          (await preflight(endpoints.userinfo, serverOrigin)).granted['access-control-allow-origin'],
          serverOrigin,
        );
        for (const path of [endpoints.token, endpoints.revocation, endpoints.introspection]) {
          assert.deepEqual(await preflight(path, serverOrigin), { status: 204, granted: {} }, path);
        }
      });

      it('the actual request from a granted origin still works: a public client refreshes from the browser', async () => {
        const config = await relyingParty(spa);
        const tokens = await signIn(config, spaRedirect, 'openid offline_access');
        assert.ok(tokens.refresh_token);
        const response = await fetch(`${api.issuer}/oidc/token`, {
          method: 'POST',
          headers: { origin: spaOrigin, 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({
            grant_type: 'refresh_token',
            refresh_token: tokens.refresh_token,
            client_id: spa.clientId,
          }),
        });
        assert.equal(response.status, 200);
        assert.equal(response.headers.get('access-control-allow-origin'), spaOrigin);
      });

      it('a redirect address removed, or the client deleted, takes its origin out at once', async () => {
        const admin = (method: 'PUT' | 'DELETE', payload?: object) =>
          api.app.inject({
            method,
            url: `/admin/clientes-oidc/${spa.clientId}`,
            headers: { authorization: `Bearer ${adminToken}` },
            ...(payload ? { payload } : {}),
          });
        const moved = await admin('PUT', {
          nombre: 'Control Max 360 (web)',
          redirectUris: ['http://localhost:5180/callback'],
          publico: true,
          primeraParte: true,
          scopes: ['openid', 'profile', 'offline_access'],
        });
        assert.equal(moved.statusCode, 200, moved.body);
        await api.app.sessionState.sync();
        assert.deepEqual(await preflight(endpoints.token, spaOrigin), { status: 204, granted: {} });
        const granted = await preflight(endpoints.token, 'http://localhost:5180');
        assert.equal(granted.granted['access-control-allow-origin'], 'http://localhost:5180');
        const deleted = await admin('DELETE');
        assert.equal(deleted.statusCode, 204, deleted.body);
        await api.app.sessionState.sync();
        assert.deepEqual(await preflight(endpoints.token, 'http://localhost:5180'), { status: 204, granted: {} });
      });
    });
  });
});

/** The part of the plan claim a partner reads to decide (its origin and company are the one plan rule's). */
function pick(claim: unknown) {
  const plan = claim as Plan | null | undefined;
  return plan ? { id: plan.id, nombre: plan.nombre, fechaVencimiento: plan.fechaVencimiento } : plan;
}
