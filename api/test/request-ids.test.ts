// An operator follows one request through the logs by its id: the balancer's X-Request-Id when the connection comes
// from a proxy TRUST_PROXY names, else one the API makes; the answer carries it, and so does every line the request
// writes, and whatever the request causes: the mail it queued, its audit rows, an error of the OpenID Connect provider.
// That no secret reaches any of those lines is no-secrets-in-logs.test.ts.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { and, eq, sql } from 'drizzle-orm';
import { auditLog, mailOutbox } from '../src/db/schema.js';
import type { OutgoingMail } from '../src/domain/mail/mailer.js';
import { buildTestApp, forEachBackend, login, type TestApp } from './helpers/app.js';
import { manualClock, registration } from './helpers/accounts.js';
import { collectingLogs } from './helpers/logs.js';
import { type OidcTestApi, registerClient, startOidcApi } from './helpers/oidc.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

async function appWith(trustProxy: false | number | string[]) {
  const logs = collectingLogs();
  const t = await buildTestApp('pglite', { trustProxy, logLevel: 'info' }, { logStream: logs });
  return { t, logs };
}

describe('without a trusted proxy', () => {
  let t: TestApp;
  let logs: ReturnType<typeof collectingLogs>;
  before(async () => {
    ({ t, logs } = await appWith(false));
  });
  after(() => t.close());

  it('names each request with an id of its own, whatever the client sends, in the answer and in its log lines', async () => {
    const answer = await t.app.inject({ method: 'GET', url: '/health', headers: { 'x-request-id': 'elegido-por-mi' } });
    const id = answer.headers['x-request-id'];
    assert.match(String(id), UUID);
    const again = await t.app.inject({ method: 'GET', url: '/health' });
    assert.notEqual(again.headers['x-request-id'], id);
    const lines = logs.lines.filter((line) => line.reqId === id);
    assert.deepEqual(
      lines.map((line) => line.msg),
      ['incoming request', 'request completed'],
    );
  });

  it('names refusals too: a 401, a 404 and a body that is no JSON', async () => {
    const refused = await t.app.inject({ method: 'GET', url: '/auth/user' });
    assert.equal(refused.statusCode, 401);
    assert.match(String(refused.headers['x-request-id']), UUID);
    const missing = await t.app.inject({ method: 'GET', url: '/no-existe' });
    assert.equal(missing.statusCode, 404);
    assert.match(String(missing.headers['x-request-id']), UUID);
    const broken = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"email":',
    });
    assert.equal(broken.statusCode, 400);
    assert.match(String(broken.headers['x-request-id']), UUID);
  });
});

describe('behind a trusted proxy', () => {
  it("takes the balancer's id when the hop count trusts it, and answers with it", async () => {
    const { t, logs } = await appWith(1);
    try {
      const answer = await t.app.inject({
        method: 'GET',
        url: '/health',
        headers: { 'x-request-id': '7f3a9c1e-balanceador' },
      });
      assert.equal(answer.headers['x-request-id'], '7f3a9c1e-balanceador');
      assert.equal(logs.lines.filter((line) => line.reqId === '7f3a9c1e-balanceador').length, 2);
      // An id that could hide something in a log line, or that is too short or too long, is replaced.
      for (const sent of ['con espacios 123', 'a<b>c"d\'e', 'corto', 'x'.repeat(129)]) {
        const replaced = await t.app.inject({ method: 'GET', url: '/health', headers: { 'x-request-id': sent } });
        assert.match(String(replaced.headers['x-request-id']), UUID, sent);
      }
    } finally {
      await t.close();
    }
  });

  it('with a list of balancers, takes the id only from a connection that comes from one of them', async () => {
    const { t } = await appWith(['10.0.0.0/8']);
    try {
      const headers = { 'x-request-id': 'del-balanceador-42' };
      const fromBalancer = await t.app.inject({ method: 'GET', url: '/health', headers, remoteAddress: '10.1.2.3' });
      assert.equal(fromBalancer.headers['x-request-id'], 'del-balanceador-42');
      const direct = await t.app.inject({ method: 'GET', url: '/health', headers, remoteAddress: '192.0.2.7' });
      assert.match(String(direct.headers['x-request-id']), UUID);
    } finally {
      await t.close();
    }
  });
});

forEachBackend((backend) =>
  describe('one request, followed through every line it causes', () => {
    let api: OidcTestApi;
    let logs: ReturnType<typeof collectingLogs>;
    const clock = manualClock(Date.now());
    /** The mail server refuses the first send, then takes every mail. */
    const sent: OutgoingMail[] = [];
    let refusals = 1;
    const transport = {
      async send(mail: OutgoingMail) {
        if (refusals-- > 0) throw new Error('451 buzón no disponible por ahora');
        sent.push(mail);
      },
    };
    before(async () => {
      logs = collectingLogs();
      api = await startOidcApi(
        backend,
        { trustProxy: false, logLevel: 'info', authRateLimitPerMinute: 10_000, loginRateLimitPerMinute: 10_000 },
        { logStream: logs, mailTransport: transport, clock },
      );
    });
    after(() => api.close());

    const linesOf = (id: string) => logs.lines.filter((line) => line.reqId === id);

    it("a registration's id is on its request lines and on its mail's lines, the refused send and the one that went out", async () => {
      // Over a real connection, the body arriving in two pieces: it is read on the socket's events, and the handler runs
      // from the last one; the id must survive that.
      const body = JSON.stringify(registration('seguida@correo.test'));
      const pieces = new ReadableStream<Uint8Array>({
        async start(controller) {
          controller.enqueue(new TextEncoder().encode(body.slice(0, 20)));
          await new Promise((resolve) => setTimeout(resolve, 50));
          controller.enqueue(new TextEncoder().encode(body.slice(20)));
          controller.close();
        },
      });
      const answer = await fetch(`${api.issuer}/auth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: pieces,
        duplex: 'half',
      } as RequestInit);
      assert.equal(answer.status, 201, await answer.text());
      const id = String(answer.headers.get('x-request-id'));
      const [queued] = await api.app.db
        .select()
        .from(mailOutbox)
        .where(eq(mailOutbox.recipient, 'seguida@correo.test'));
      assert.equal(queued?.requestId, id);

      await api.app.mailer.deliverDue();
      clock.advance(60_000);
      await api.app.mailer.deliverDue();
      assert.equal(sent.filter((mail) => mail.to === 'seguida@correo.test').length, 1);
      const lines = linesOf(id);
      // The first send may start before the answer is written: the order of those two lines is the machine's.
      assert.deepEqual(lines.map((line) => line.msg).sort(), [
        'incoming request',
        'mail delivery failed; will retry',
        'mail sent',
        'request completed',
      ]);
      const refused = lines.find((line) => line.msg === 'mail delivery failed; will retry');
      const delivered = lines.find((line) => line.msg === 'mail sent');
      assert.equal(refused?.level, 40);
      assert.match(JSON.stringify(refused?.err), /451 buzón/);
      assert.equal(refused?.mailId, queued?.id);
      assert.equal(delivered?.mailId, queued?.id);
    });

    it("an administrator's change names its request in the audit entry", async () => {
      const token = await login(api.app);
      const answer = await api.app.inject({
        method: 'POST',
        url: '/admin/clientes-oidc',
        headers: { authorization: `Bearer ${token}` },
        payload: { nombre: 'App seguida', redirectUris: ['https://seguida.example.com/cb'] },
      });
      assert.equal(answer.statusCode, 201, answer.body);
      const [entry] = await api.app.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, 'oidc_client.create'), eq(auditLog.targetType, 'oidc_client')));
      assert.equal(entry?.requestId, answer.headers['x-request-id']);
    });

    it("an error of the OpenID Connect provider is logged with the id of the request it failed, without the query's values", async () => {
      const client = await registerClient(api.app, {
        nombre: 'App del error',
        redirectUris: ['https://error.example.com/cb'],
      });
      const refreshToken = 'token-de-refresco-que-nadie-debe-leer-91c2';
      // The provider's storage fails under it: the lookup of the refresh token is a failed query.
      await api.app.db.execute(sql`ALTER TABLE oidc_payloads RENAME TO oidc_payloads_aparte`);
      try {
        const answer = await fetch(`${api.issuer}/oidc/token`, {
          method: 'POST',
          headers: {
            'content-type': 'application/x-www-form-urlencoded',
            authorization: `Basic ${Buffer.from(`${client.clientId}:${client.clientSecret}`).toString('base64')}`,
          },
          body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken }).toString(),
        });
        assert.equal(answer.status, 500, await answer.text());
        const id = String(answer.headers.get('x-request-id'));
        const lines = linesOf(id);
        const error = lines.find((line) => line.msg === 'OpenID Connect provider error');
        assert.ok(error, JSON.stringify(lines));
        assert.equal(error.level, 50);
        // The failed statement is named; its parameters (the refresh token among them) are not.
        assert.match(JSON.stringify(error.err), /Failed query: select/);
        const everything = logs.raw.join('\n');
        for (const secret of [refreshToken, String(client.clientSecret)])
          assert.ok(!everything.includes(secret), `${secret} in the log`);
      } finally {
        await api.app.db.execute(sql`ALTER TABLE oidc_payloads_aparte RENAME TO oidc_payloads`);
      }
    });
  }),
);
