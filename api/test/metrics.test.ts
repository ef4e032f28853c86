import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { ConfigError, loadConfig } from '../src/config.js';
import { mailOutbox } from '../src/db/schema.js';
import { capturingTransport, codeIn, mailsTo, manualClock, post, registration } from './helpers/accounts.js';
import { adminEmail, adminPassword, buildTestApp, forEachBackend, type TestApp } from './helpers/app.js';

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

    it('says the database is down when the scrape cannot read it', async () => {
      await t.database.close();
      const text = await (await fetch(`${metricsAddress}/metrics`)).text();
      assert.equal(sample(text, 'portal_database_up'), 0);
    });
  });
});
