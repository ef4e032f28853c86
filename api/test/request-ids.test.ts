// An operator follows one request through the logs by its id: the balancer's X-Request-Id when the connection comes
// from a proxy TRUST_PROXY names, else one the API makes; the answer carries it, and so does every line the request
// writes. What a person typed as a secret never reaches those lines.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildTestApp, type TestApp } from './helpers/app.js';
import { codeIn, capturingTransport, mailsTo, post, registration } from './helpers/accounts.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** The app's JSON log lines, as an operator's collector would receive them. */
function collectingLogs() {
  const lines: Record<string, unknown>[] = [];
  return {
    lines,
    raw: [] as string[],
    write(line: string) {
      this.raw.push(line);
      lines.push(JSON.parse(line) as Record<string, unknown>);
    },
  };
}

async function appWith(trustProxy: false | number | string[]) {
  const logs = collectingLogs();
  const transport = capturingTransport();
  const t = await buildTestApp(
    'pglite',
    { trustProxy, logLevel: 'info', authRateLimitPerMinute: 10_000, loginRateLimitPerMinute: 10_000 },
    { logStream: logs, mailTransport: transport },
  );
  return { t, logs, transport };
}

describe('without a trusted proxy', () => {
  let t: TestApp;
  let logs: ReturnType<typeof collectingLogs>;
  let transport: ReturnType<typeof capturingTransport>;
  before(async () => {
    ({ t, logs, transport } = await appWith(false));
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

  it('writes no password or code of a sign-in, a registration or its verification into the log', async () => {
    const password = 'Clave-que-nadie-debe-leer-7';
    await post(t.app, '/auth/login', { email: 'nadie@correo.test', password });
    const email = 'registro-log@correo.test';
    await post(t.app, '/auth/register', registration(email, { password }));
    const code = codeIn((await mailsTo(t.app, transport, email)).at(-1));
    const verified = await post(t.app, '/auth/verify-registration', {
      email,
      code,
      profile: { name: 'Ana', lastName: 'Pérez', phone: '+51987654321', password },
    });
    assert.equal(verified.statusCode, 200, verified.body);
    const token = verified.json().access_token as string;
    await t.app.inject({ method: 'GET', url: '/auth/user', headers: { authorization: `Bearer ${token}` } });
    const everything = logs.raw.join('\n');
    for (const secret of [password, code, token]) assert.ok(!everything.includes(secret), `${secret} in the log`);
  });

  it("writes an address's path and parameter names, never the values of its query (a provider's code, a token hint)", async () => {
    const code = 'codigo-del-proveedor-4f9a2c';
    const hint = 'eyJhbGciOiJFUzI1NiJ9.pista-del-token.firma';
    await t.app.inject({ method: 'GET', url: `/auth/google/callback?code=${code}&state=estado-secreto-1` });
    await t.app.inject({ method: 'GET', url: `/oidc/session/end?id_token_hint=${hint}&state=estado-secreto-2` });
    const everything = logs.raw.join('\n');
    for (const secret of [code, hint, 'estado-secreto-1', 'estado-secreto-2'])
      assert.ok(!everything.includes(secret), `${secret} in the log`);
    const urls = logs.lines
      .filter((line) => line.msg === 'incoming request')
      .map((line) => (line.req as { url: string }).url);
    assert.ok(urls.includes('/auth/google/callback?code=[redacted]&state=[redacted]'), urls.join('\n'));
    assert.ok(urls.includes('/oidc/session/end?id_token_hint=[redacted]&state=[redacted]'), urls.join('\n'));
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
