import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { generate } from 'otplib';
import { ConfigError, loadConfig } from '../src/config.js';
import { mailOutbox } from '../src/db/schema.js';
import { capturingTransport, codeIn, mailsTo, manualClock, post, registration } from './helpers/accounts.js';
import {
  adminEmail,
  adminPassword,
  buildTestApp,
  createUser,
  forEachBackend,
  login,
  type TestApp,
} from './helpers/app.js';
import { startIdentityProvider, type IdentityProvider } from './helpers/identity-provider.js';
import { OAuthBrowser } from './helpers/oauth-browser.js';
import {
  type LogoutReceiver,
  type OidcTestApi,
  registerClient,
  serverApp,
  startLogoutReceiver,
  startOidcApi,
  TestBrowser,
} from './helpers/oidc.js';
import { waitFor } from './helpers/processes.js';
import { SoftAuthenticator } from './helpers/soft-authenticator.js';

const token = 'metricas-de-prueba-0123456789abcdef0123456789';

/** The value of one sample of a scrape (0 when the series is absent), labels matched exactly. */
function sample(scrape: string, name: string, labels: Record<string, string> = {}): number {
  const wanted = Object.entries(labels)
    .map(([key, value]) => `${key}="${value}"`)
    .sort()
    .join(',');
  for (const line of scrape.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const have = (match[2] ?? '')
      .split(/,(?=[a-z_]+=")/)
      .filter(Boolean)
      .sort()
      .join(',');
    if (have === wanted) return Number(match[3]);
  }
  return 0;
}

async function scrape(app: FastifyInstance): Promise<string> {
  const response = await app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${token}` } });
  assert.equal(response.statusCode, 200);
  assert.match(String(response.headers['content-type']), /^text\/plain; version=0\.0\.4/);
  return response.body;
}

/** What `work` moved: the difference of one series between a scrape before it and one after. */
async function movedBy(app: FastifyInstance, work: () => Promise<unknown>) {
  const before = await scrape(app);
  await work();
  const after = await scrape(app);
  return (name: string, labels: Record<string, string> = {}) =>
    sample(after, name, labels) - sample(before, name, labels);
}

describe('metrics configuration', () => {
  const refused = (env: Record<string, string>, pattern: RegExp) =>
    assert.throws(
      () => loadConfig(env),
      (error: Error) => error instanceof ConfigError && pattern.test(error.message),
    );

  it('has no metrics listener and no /metrics on the API port unless asked', () => {
    assert.deepEqual(loadConfig({}).metrics, { port: undefined, host: '127.0.0.1', token: undefined });
    assert.deepEqual(loadConfig({ METRICS_PORT: '9464' }).metrics, {
      port: 9464,
      host: '127.0.0.1',
      token: undefined,
    });
  });

  it('refuses, in Spanish, the public port, a short secret and a host without a port', () => {
    refused({ PORT: '3000', METRICS_PORT: '3000' }, /^Configuración inválida: METRICS_PORT debe ser distinto de PORT/);
    refused({ METRICS_PORT: 'nueve' }, /^Configuración inválida: METRICS_PORT debe ser un número entero/);
    refused({ METRICS_TOKEN: 'corto' }, /^Configuración inválida: METRICS_TOKEN debe tener al menos 32 caracteres/);
    refused({ METRICS_HOST: '0.0.0.0' }, /^Configuración inválida: METRICS_HOST solo tiene sentido con METRICS_PORT/);
  });
});

forEachBackend((backend) => {
  describe('GET /metrics on the API port, behind METRICS_TOKEN', () => {
    let t: TestApp;
    const transport = capturingTransport();
    const clock = manualClock();
    before(async () => {
      t = await buildTestApp(
        backend,
        {
          loginRateLimitPerMinute: 1000,
          authRateLimitPerMinute: 1000,
          metrics: { port: undefined, host: '127.0.0.1', token },
        },
        { mailTransport: transport, clock },
      );
    });
    after(() => t.close());

    it('refuses a scrape without the secret or with a wrong one', async () => {
      const none = await t.app.inject({ method: 'GET', url: '/metrics' });
      assert.equal(none.statusCode, 401);
      assert.equal(none.headers['www-authenticate'], 'Bearer');
      assert.deepEqual(none.json(), {
        statusCode: 401,
        message: 'Las métricas piden el token de métricas (Authorization: Bearer …)',
        code: 'METRICS_TOKEN_REQUIRED',
      });
      const wrong = await t.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: `Bearer ${token.slice(0, -1)}x` },
      });
      assert.equal(wrong.statusCode, 401);
      assert.doesNotMatch(wrong.body, /portal_/);
    });

    it('counts sign-ins, locks and codes by exactly what happened, with fixed labels', async () => {
      const before = await scrape(t.app);
      const signIns = (text: string, result: string) =>
        sample(text, 'portal_sign_ins_total', { method: 'password', result });

      assert.equal((await post(t.app, '/auth/login', { email: adminEmail, password: 'mal' })).statusCode, 401);
      assert.equal((await post(t.app, '/auth/login', { email: adminEmail, password: adminPassword })).statusCode, 200);
      // Five wrong passwords for one address: the fifth opens its lock, the sixth is refused unseen.
      for (let i = 0; i < 5; i++) await post(t.app, '/auth/login', { email: 'nadie@portal.test', password: 'mal' });
      const locked = await post(t.app, '/auth/login', { email: 'nadie@portal.test', password: 'mal' });
      assert.equal(locked.statusCode, 401);
      assert.ok(locked.headers['retry-after']);

      assert.equal((await post(t.app, '/auth/register', registration('medida@portal.test'))).statusCode, 201);
      const code = codeIn((await mailsTo(t.app, transport, 'medida@portal.test'))[0]);
      const wrongCode = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
      const refusedCode = await post(t.app, '/auth/verify-registration', {
        email: 'medida@portal.test',
        code: wrongCode,
      });
      assert.equal(refusedCode.statusCode, 400);

      const after = await scrape(t.app);
      const moved = (name: string, labels: Record<string, string> = {}) =>
        sample(after, name, labels) - sample(before, name, labels);
      assert.equal(signIns(after, 'failure') - signIns(before, 'failure'), 6);
      assert.equal(signIns(after, 'success') - signIns(before, 'success'), 1);
      assert.equal(signIns(after, 'locked') - signIns(before, 'locked'), 1);
      assert.equal(moved('portal_sign_in_locks_total', { scope: 'address' }), 1);
      assert.equal(moved('portal_sign_in_locks_total', { scope: 'account' }), 0);
      assert.equal(moved('portal_codes_sent_total', { purpose: 'verify_email' }), 1);
      assert.equal(moved('portal_codes_refused_total', { purpose: 'verify_email', reason: 'wrong' }), 1);
      assert.equal(moved('portal_codes_verified_total', { purpose: 'verify_email' }), 0);
      assert.equal(moved('portal_mail_sent_total'), 1);
      assert.equal(moved('portal_mail_send_failures_total'), 0);
      // No address, email or code of these calls ended up in a label.
      assert.doesNotMatch(after, /nadie|medida|portal\.test|127\.0\.0\.1/);
      assert.ok(!after.includes(code));
    });

    it('counts a right code as verified once, when it is used: not when its registration was pushed out', async () => {
      const email = 'desplazada@portal.test';
      const first = await post(t.app, '/auth/register', registration(email));
      assert.equal(first.statusCode, 201);
      const staleId = first.json().registrationId as string;
      // Five newer registrations of the same address push the first one out of the kept five.
      for (let i = 0; i < 5; i++) {
        clock.advance(1000);
        await post(t.app, '/auth/register', registration(email));
      }
      const code = codeIn((await mailsTo(t.app, transport, email))[0]);

      const expired = await movedBy(t.app, async () => {
        const refused = await post(t.app, '/auth/verify-registration', { email, code, registrationId: staleId });
        assert.equal(refused.json().code, 'REGISTRATION_EXPIRED', refused.body);
      });
      assert.equal(expired('portal_codes_verified_total', { purpose: 'verify_email' }), 0);
      assert.equal(expired('portal_codes_refused_total', { purpose: 'verify_email', reason: 'wrong' }), 0);

      const profile = { password: 'clave-segura-1', name: 'Rosa', lastName: 'Mamani', phone: '+51 987 654 321' };
      const completed = await movedBy(t.app, async () => {
        const verified = await post(t.app, '/auth/verify-registration', {
          email,
          code,
          registrationId: staleId,
          profile,
        });
        assert.equal(verified.statusCode, 200, verified.body);
      });
      assert.equal(completed('portal_codes_verified_total', { purpose: 'verify_email' }), 1);
    });

    it('counts a password-reset code as verified once it has changed the password', async () => {
      const email = 'olvido@portal.test';
      assert.equal((await post(t.app, '/auth/register', registration(email))).statusCode, 201);
      const verify = codeIn((await mailsTo(t.app, transport, email))[0]);
      assert.equal((await post(t.app, '/auth/verify-registration', { email, code: verify })).statusCode, 200);
      clock.advance(61_000);
      assert.equal((await post(t.app, '/auth/forgot-password', { email })).statusCode, 200);
      const mails = await mailsTo(t.app, transport, email);
      const code = codeIn(mails[mails.length - 1]);
      const moved = await movedBy(t.app, async () => {
        const changed = await post(t.app, '/auth/change-password', { email, code, newPassword: 'otra-clave-segura-2' });
        assert.equal(changed.statusCode, 200, changed.body);
      });
      assert.equal(moved('portal_codes_verified_total', { purpose: 'reset_password' }), 1);
    });

    it('times requests by route pattern, never by the raw address', async () => {
      await t.app.inject({ method: 'GET', url: '/admin/users/987654/sessions' });
      await t.app.inject({ method: 'GET', url: '/no-existe/alguien%40correo.test' });
      const text = await scrape(t.app);
      const count = (labels: Record<string, string>) =>
        sample(text, 'portal_http_request_duration_seconds_count', labels);
      assert.ok(count({ route: '/admin/users/:id/sessions', method: 'GET', status_class: '4xx' }) >= 1);
      assert.ok(count({ route: 'unmatched', method: 'GET', status_class: '4xx' }) >= 1);
      assert.ok(count({ route: '/auth/login', method: 'POST', status_class: '2xx' }) >= 1);
      assert.doesNotMatch(text, /987654|alguien|no-existe/);
      // The scrapes themselves are not timed.
      assert.doesNotMatch(text, /route="\/metrics"/);
    });

    it('shows how long the oldest unsent mail has waited', async () => {
      await t.app.mailer.deliverDue();
      const now = clock();
      await t.app.db.insert(mailOutbox).values({
        recipient: 'espera@portal.test',
        subject: 'Pendiente',
        textBody: 'texto',
        htmlBody: '<p>texto</p>',
        // Not due for an hour, so the delivery loop leaves it where it is.
        nextAttemptAt: new Date(now + 60 * 60_000),
        createdAt: new Date(now - 7 * 60_000),
      });
      const text = await scrape(t.app);
      assert.equal(sample(text, 'portal_mail_outbox_pending'), 1);
      assert.equal(sample(text, 'portal_mail_outbox_oldest_age_seconds'), 420);
      assert.equal(sample(text, 'portal_database_up'), 1);
      assert.equal(sample(text, 'portal_session_memory_channel_up'), 1);
      assert.match(text, /^# TYPE portal_session_memory_hits_total counter$/m);
      assert.match(text, /^# TYPE process_cpu_user_seconds_total counter$/m);
      assert.match(text, /^# TYPE nodejs_eventloop_lag_seconds gauge$/m);
    });

    it('counts every statement that fails, in a transaction or not, whatever the reason', async () => {
      const moved = await movedBy(t.app, async () => {
        const failedWith = (reason: RegExp) => (error: Error) => reason.test(String(error.cause));
        await assert.rejects(t.app.db.execute(sql`select 1 / 0`), failedWith(/division by zero/));
        await assert.rejects(
          t.app.db.transaction(async (tx) => tx.execute(sql`select * from tabla_que_no_existe`)),
          failedWith(/tabla_que_no_existe/),
        );
        await t.app.db.execute(sql`select 1`);
      });
      assert.equal(moved('portal_database_query_failures_total'), 2);
    });

    it("counts the session memory's invalidations: a logout reaches it through the channel", async () => {
      await createUser(t.app, { email: 'memoria@portal.test', password: 'clave-de-memoria', status: 'active' });
      const session = await login(t.app, 'memoria@portal.test', 'clave-de-memoria');
      const me = () =>
        t.app.inject({ method: 'GET', url: '/auth/user', headers: { authorization: `Bearer ${session}` } });
      assert.equal((await me()).statusCode, 200);
      const moved = await movedBy(t.app, async () => {
        assert.equal((await me()).statusCode, 200);
        const logout = await t.app.inject({
          method: 'POST',
          url: '/auth/logout',
          headers: { authorization: `Bearer ${session}` },
        });
        assert.equal(logout.statusCode, 204);
        assert.equal((await me()).statusCode, 401);
      });
      assert.equal(moved('portal_session_memory_hits_total'), 1);
      assert.ok(moved('portal_session_memory_invalidations_total') >= 1);
    });

    it('shows the pool while it is full: connections in use and statements waiting (none on the embedded database)', async () => {
      // Twelve slow statements for a pool of ten. Read from the registry: a scrape's own query would wait behind them.
      // drizzle sends a query when it is awaited: `Promise.resolve` sends each now.
      const slow = Array.from({ length: 12 }, () => Promise.resolve(t.app.db.execute(sql`select pg_sleep(0.25)`)));
      const figures = async () => {
        const text = await t.app.metrics.registry.metrics();
        return {
          inUse: sample(text, 'portal_database_pool_connections_in_use'),
          waiting: sample(text, 'portal_database_pool_waiting'),
        };
      };
      if (backend === 'postgres') {
        // Every connection of the pool taken, and at least the two statements beyond them queued (the app's own
        // background work may queue one more).
        const full = await waitFor('the pool to fill', async () => {
          const now = await figures();
          return now.waiting >= 2 && now;
        });
        assert.equal(full.inUse, 10);
      } else assert.deepEqual(await figures(), { inUse: 0, waiting: 0 });
      await Promise.all(slow);
      assert.deepEqual((await figures()).waiting, 0);
    });
  });

  describe('sign-ins by every method', () => {
    const apiUrl = 'http://api.portal.test';
    const apple = { clientId: 'com.portal.web', teamId: 'EQUIPO1234', keyId: 'CLAVE12345' };
    const applePem = generateKeyPairSync('ec', { namedCurve: 'P-256' })
      .privateKey.export({ type: 'pkcs8', format: 'pem' })
      .toString();
    const clock = manualClock();
    let t: TestApp;
    let google: IdentityProvider;
    let appleIdp: IdentityProvider;
    before(async () => {
      google = await startIdentityProvider({
        kind: 'google',
        clientId: 'portal-google',
        clientSecret: 'secreto-google',
        redirectUris: [`${apiUrl}/auth/google/callback`],
      });
      appleIdp = await startIdentityProvider({
        kind: 'apple',
        clientId: apple.clientId,
        redirectUris: [`${apiUrl}/auth/apple/callback`],
        apple: { ...apple, privateKeyPem: applePem },
      });
      for (const idp of [google, appleIdp])
        idp.setAccount({ sub: 'sujeto-medido', email: 'social@portal.test', emailVerified: true, givenName: 'Lía' });
      t = await buildTestApp(
        backend,
        {
          apiPublicUrl: apiUrl,
          portalUrl: 'http://portal.test',
          loginRateLimitPerMinute: 1000,
          authRateLimitPerMinute: 1000,
          metrics: { port: undefined, host: '127.0.0.1', token },
          google: { issuer: google.issuer, clientId: 'portal-google', clientSecret: 'secreto-google' },
          apple: { issuer: appleIdp.issuer, ...apple, privateKey: applePem },
        },
        { clock },
      );
    });
    after(async () => {
      await t?.close();
      await Promise.all([google?.close(), appleIdp?.close()]);
    });
    const signIns = (moved: Awaited<ReturnType<typeof movedBy>>, method: string) =>
      Object.fromEntries(
        ['success', 'failure', 'locked', 'second_step', 'refused']
          .map((result) => [result, moved('portal_sign_ins_total', { method, result })])
          .filter(([, count]) => count !== 0),
      );

    it('counts the second step by its result: a right and a wrong authenticator code, a recovery code', async () => {
      const email = 'segundo-paso@portal.test';
      const password = 'clave-segundo-paso';
      await createUser(t.app, { email, password, status: 'active' });
      const session = await login(t.app, email, password);
      const setup = await post(t.app, '/auth/totp', undefined, session);
      const { secret } = setup.json<{ secret: string }>();
      const code = () => generate({ secret, epoch: Math.floor(clock() / 1000) });
      const confirmed = await post(t.app, '/auth/totp/confirmar', { code: await code() }, session);
      assert.equal(confirmed.statusCode, 200, confirmed.body);
      const [recovery] = confirmed.json<{ recoveryCodes: string[] }>().recoveryCodes;
      clock.advance(30_000);
      const ticket = async () =>
        (await post(t.app, '/auth/login', { email, password })).json<{ ticket: string }>().ticket;
      const moved = await movedBy(t.app, async () => {
        const wrong = await post(t.app, '/auth/login/segundo-paso', { ticket: await ticket(), code: '000000' });
        assert.equal(wrong.statusCode, 401, wrong.body);
        const right = await post(t.app, '/auth/login/segundo-paso', { ticket: await ticket(), code: await code() });
        assert.equal(right.statusCode, 200, right.body);
        const byRecovery = await post(t.app, '/auth/login/segundo-paso', { ticket: await ticket(), code: recovery });
        assert.equal(byRecovery.statusCode, 200, byRecovery.body);
      });
      assert.deepEqual(signIns(moved, 'password'), { second_step: 3 });
      assert.deepEqual(signIns(moved, 'second_step'), { success: 2, failure: 1 });
    });

    it('counts a passkey alone as `passkey` and after a password as `second_step`, a refused one as a failure', async () => {
      const email = 'llave-medida@portal.test';
      const password = 'clave-con-llave-medida';
      await createUser(t.app, { email, password, status: 'active' });
      const session = await login(t.app, email, password);
      const device = new SoftAuthenticator({
        rpId: t.app.config.webauthn.rpId,
        origin: t.app.config.webauthn.origins[0]!,
      });
      const creation = (await post(t.app, '/auth/passkeys/opciones-registro', undefined, session)).json();
      const added = await post(
        t.app,
        '/auth/passkeys',
        { ceremonyId: creation.ceremonyId, name: 'Portátil', response: device.register(creation.options) },
        session,
      );
      assert.equal(added.statusCode, 201, added.body);
      const stranger = new SoftAuthenticator({
        rpId: t.app.config.webauthn.rpId,
        origin: t.app.config.webauthn.origins[0]!,
      });
      stranger.register(creation.options);
      const withPasskey = async (authenticator: SoftAuthenticator, ticket?: string) => {
        const options = (await post(t.app, '/auth/passkeys/opciones-inicio', ticket ? { ticket } : {})).json();
        return post(t.app, '/auth/passkeys/iniciar-sesion', {
          ceremonyId: options.ceremonyId,
          response: authenticator.assert(options.options),
          ...(ticket ? { ticket } : {}),
        });
      };
      const moved = await movedBy(t.app, async () => {
        assert.equal((await withPasskey(device)).statusCode, 200);
        assert.equal((await withPasskey(stranger)).statusCode, 401);
        const { ticket } = (await post(t.app, '/auth/login', { email, password })).json<{ ticket: string }>();
        assert.equal((await withPasskey(device, ticket)).statusCode, 200);
      });
      assert.deepEqual(signIns(moved, 'passkey'), { success: 1, failure: 1 });
      assert.deepEqual(signIns(moved, 'second_step'), { success: 1 });
    });

    it('counts Google and Apple sign-ins, and a return the person declined at the provider as a failure', async () => {
      const moved = await movedBy(t.app, async () => {
        for (const provider of ['google', 'apple'] as const) {
          const browser = new OAuthBrowser({ app: t.app, apiUrl, portalUrl: 'http://portal.test' });
          const landed = await browser.signIn(provider, 'sujeto-medido');
          assert.ok(landed.searchParams.get('code'), landed.href);
        }
        const declined = await new OAuthBrowser({ app: t.app, apiUrl, portalUrl: 'http://portal.test' }).signIn(
          'google',
          'cancelar',
        );
        assert.equal(declined.searchParams.get('error'), 'access_denied', declined.href);
      });
      assert.deepEqual(signIns(moved, 'google'), { success: 1, failure: 1 });
      assert.deepEqual(signIns(moved, 'apple'), { success: 1 });
    });
  });

  describe("the OpenID Connect provider's figures", () => {
    const redirect = 'https://medida.example.com/cb';
    let api: OidcTestApi;
    let receiver: LogoutReceiver;
    let client: { clientId: string; clientSecret?: string };
    before(async () => {
      api = await startOidcApi(backend, { metrics: { port: undefined, host: '127.0.0.1', token } });
      receiver = await startLogoutReceiver();
      client = await registerClient(api.app, {
        nombre: 'App medida',
        redirectUris: [redirect],
        backchannelLogoutUri: receiver.url,
        primeraParte: true,
        scopes: ['openid', 'profile', 'email', 'offline_access'],
      });
    });
    after(async () => {
      await api?.close();
      await receiver?.close();
    });

    /** A person signed in to the portal and, through it, to the app; answers the portal token and the app's tokens. */
    async function signedIntoTheApp(email: string) {
      await createUser(api.app, { email, password: 'clave-de-la-app', status: 'active' });
      const browser = new TestBrowser(api.issuer);
      browser.portalToken = await login(api.app, email, 'clave-de-la-app');
      const rp = await serverApp(api.issuer, client.clientId, String(client.clientSecret), redirect);
      const landed = await browser.signInTo(
        await rp.authorizationUrl(['openid', 'offline_access'], { prompt: 'consent' }),
      );
      return { portalToken: browser.portalToken, rp, tokens: await rp.exchange(landed) };
    }
    const logout = (portalToken: string) =>
      api.app.inject({ method: 'POST', url: '/auth/logout', headers: { authorization: `Bearer ${portalToken}` } });

    it('counts the tokens issued by grant type', async () => {
      const moved = await movedBy(api.app, async () => {
        const { rp, tokens } = await signedIntoTheApp('tokens-medidos@portal.test');
        await rp.client.refreshToken(tokens);
      });
      assert.equal(moved('portal_oidc_tokens_issued_total', { grant_type: 'authorization_code' }), 1);
      assert.equal(moved('portal_oidc_tokens_issued_total', { grant_type: 'refresh_token' }), 1);
    });

    it('counts back-channel logouts delivered, and failed when the app answers an error', async () => {
      const delivered = await movedBy(api.app, async () => {
        const { portalToken } = await signedIntoTheApp('salida-entregada@portal.test');
        const before = receiver.tokens.length;
        assert.equal((await logout(portalToken)).statusCode, 204);
        await waitFor('the logout to reach the app', async () => {
          await api.app.identityProvider.logouts.deliverDue();
          return receiver.tokens.length > before;
        });
      });
      assert.equal(delivered('portal_oidc_backchannel_logouts_total', { result: 'delivered' }), 1);
      assert.equal(delivered('portal_oidc_backchannel_logouts_total', { result: 'failed' }), 0);

      receiver.status = 500;
      const failed = await movedBy(api.app, async () => {
        const { portalToken } = await signedIntoTheApp('salida-fallida@portal.test');
        assert.equal((await logout(portalToken)).statusCode, 204);
        await api.app.identityProvider.logouts.deliverDue();
      });
      receiver.status = 200;
      assert.equal(failed('portal_oidc_backchannel_logouts_total', { result: 'failed' }), 1);
      assert.equal(failed('portal_oidc_backchannel_logouts_total', { result: 'delivered' }), 0);
    });
  });

  describe('GET /metrics on METRICS_PORT', () => {
    let t: TestApp;
    let metricsAddress: string;
    let apiAddress: string;
    before(async () => {
      t = await buildTestApp(backend, { metrics: { port: 0, host: '127.0.0.1', token: undefined } });
      apiAddress = await t.app.listen({ port: 0, host: '127.0.0.1' });
      metricsAddress = (await t.app.metrics.listen()) as string;
    });
    after(() => t.close());

    it('answers on its own loopback port and not on the API port', async () => {
      assert.match(metricsAddress, /^http:\/\/127\.0\.0\.1:\d+$/);
      assert.notEqual(new URL(metricsAddress).port, new URL(apiAddress).port);
      const scraped = await fetch(`${metricsAddress}/metrics`);
      assert.equal(scraped.status, 200);
      const text = await scraped.text();
      assert.equal(sample(text, 'portal_database_up'), 1);
      assert.equal((await fetch(`${apiAddress}/metrics`)).status, 404);
      assert.equal(
        (await fetch(`${apiAddress}/metrics`, { headers: { authorization: `Bearer ${token}` } })).status,
        404,
      );
    });

    it('says the database is down when the scrape cannot read it, and counts the statements that failed', async () => {
      const failures = async () =>
        sample(await (await fetch(`${metricsAddress}/metrics`)).text(), 'portal_database_query_failures_total');
      const before = await failures();
      await t.database.close();
      assert.equal((await fetch(`${apiAddress}/health`)).status, 503);
      const text = await (await fetch(`${metricsAddress}/metrics`)).text();
      assert.equal(sample(text, 'portal_database_up'), 0);
      // The request's statement and the scrape's own.
      assert.ok(sample(text, 'portal_database_query_failures_total') >= before + 2, text);
    });
  });
});
