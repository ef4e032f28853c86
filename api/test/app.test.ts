import assert from 'node:assert/strict';
import { once } from 'node:events';
import { type AddressInfo, connect } from 'node:net';
import { after, before, it } from 'node:test';
import type { InjectOptions } from 'fastify';
import { buildTestApp, forEachBackend, type TestApp } from './helpers/app.js';
import { waitFor } from './helpers/processes.js';
import { documentOnlyHeaders } from './helpers/security-headers.js';
import { scaled } from './helpers/slowness.js';

const unavailable = {
  statusCode: 503,
  code: 'SERVICE_UNAVAILABLE',
  message: 'Servicio no disponible temporalmente. Inténtalo de nuevo en unos segundos.',
};

forEachBackend((backend) => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp(backend);
  });
  after(() => t.close());

  it('GET /health reports the service and its database as ok', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/health' });
    assert.equal(response.statusCode, 200);
    assert.deepEqual(response.json(), { status: 'ok', database: 'ok' });
  });

  it('GET /health/live answers without the database, with the security headers of every answer', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/health/live' });
    assert.equal(response.statusCode, 200);
    assert.deepEqual(response.json(), { status: 'ok' });
    assert.equal(response.headers['content-security-policy'], "default-src 'none';frame-ancestors 'none'");
    assert.equal(response.headers['x-frame-options'], 'DENY');
    assert.equal(response.headers['referrer-policy'], 'no-referrer');
    assert.equal(response.headers['x-content-type-options'], 'nosniff');
    assert.equal(response.headers['cross-origin-resource-policy'], 'same-origin');
    assert.equal(response.headers['x-permitted-cross-domain-policies'], 'none');
    assert.match(String(response.headers['strict-transport-security']), /max-age=\d+/);
  });

  it('keeps off a JSON answer the headers a browser reads only on a document it shows', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/health/live' });
    for (const name of documentOnlyHeaders) assert.equal(response.headers[name], undefined, name);
    const refused = await t.app.inject({ method: 'GET', url: '/auth/user' });
    assert.equal(refused.statusCode, 401);
    for (const name of documentOnlyHeaders) assert.equal(refused.headers[name], undefined, name);
    assert.equal(refused.headers['content-security-policy'], "default-src 'none';frame-ancestors 'none'");
  });

  it('GET /health/ready answers 200 while the instance takes work and its database answers', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/health/ready' });
    assert.equal(response.statusCode, 200);
    assert.deepEqual(response.json(), { status: 'ok', database: 'ok' });
    assert.notEqual(response.headers.connection, 'close');
  });

  it('leaving: readiness turns 503 while every request is still served, each on a connection closed after it', async () => {
    const leaving = await buildTestApp(backend);
    let left: Promise<void> | undefined;
    try {
      left = leaving.app.drain.leave(60_000);
      assert.equal(leaving.app.drain.state, 'draining');
      const ready = await leaving.app.inject({ method: 'GET', url: '/health/ready' });
      assert.equal(ready.statusCode, 503);
      assert.deepEqual(ready.json(), unavailable);
      assert.equal(ready.headers.connection, 'close');
      for (const url of ['/health', '/health/live', '/apps/listar']) {
        const served = await leaving.app.inject({ method: 'GET', url });
        assert.equal(served.statusCode, 200, url);
        assert.equal(served.headers.connection, 'close', url);
      }
      const login = await leaving.app.inject({
        method: 'POST',
        url: '/auth/login',
        payload: { email: 'nadie@portal.test', password: 'nada-de-nada' },
      });
      assert.equal(login.statusCode, 401);
      assert.equal(login.headers.connection, 'close');
    } finally {
      await leaving.close();
    }
    // Closed in the middle of its drain, it goes no further.
    await left;
    assert.equal(leaving.app.drain.state, 'closed');
  });

  it('handing off: GETs are closed unanswered (a balancer tries them elsewhere), POSTs and liveness served', async () => {
    const leaving = await buildTestApp(backend);
    try {
      // A quiet time long enough that a slow machine's pauses between these requests never end the hand-off: stretched
      // by the machine's measured slowness.
      const quietMs = scaled(3_000);
      let lastArrival = 0;
      let endedAt = 0;
      const left = leaving.app.drain.leave(0, { quietMs, maxMs: 60_000 }).then(() => {
        endedAt = performance.now();
      });
      await waitFor('the hand-off', () => leaving.app.drain.state === 'handing-off', 20_000, 5);
      const send = (options: InjectOptions) => {
        lastArrival = performance.now();
        return leaving.app.inject(options);
      };
      // Not the 503, which a balancer passes on (the API's answer when the database every instance shares is away):
      // the connection closed with no answer at all, as from an instance that is gone (inject's name for it).
      for (const url of ['/apps/listar', '/health', '/health/ready'])
        await assert.rejects(send({ method: 'GET', url }), { code: 'LIGHT_ECONNRESET' }, url);
      assert.equal((await send({ method: 'GET', url: '/health/live' })).statusCode, 200);
      const login = await send({
        method: 'POST',
        url: '/auth/login',
        payload: { email: 'nadie@portal.test', password: 'nada-de-nada' },
      });
      assert.equal(login.statusCode, 401, 'a POST is served: a balancer could not retry its refusal');
      assert.equal(login.headers.connection, 'close');
      await left;
      // It ended once nothing had arrived for the quiet time, counted from the last request.
      assert.ok(endedAt - lastArrival >= quietMs - 5, `ended ${Math.round(endedAt - lastArrival)} ms after it`);
    } finally {
      await leaving.close();
    }
  });

  it('handing off ends at its bound when it never gets quiet; closing the app ends everything', async () => {
    const busy = await buildTestApp(backend);
    try {
      const started = performance.now();
      // A quiet time never reached: only the bound ends it.
      await busy.app.drain.leave(0, { quietMs: 600_000, maxMs: 300 });
      assert.ok(performance.now() - started >= 295);
      assert.equal(busy.app.drain.state, 'handing-off');
    } finally {
      await busy.close();
    }
    assert.equal(busy.app.drain.state, 'closed');
  });

  it("closed: a request that arrives on an open connection gets the 503 in its API's shape (SCIM under /scim/v2)", async () => {
    const closing = await buildTestApp(backend);
    await closing.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = closing.app.server.address() as AddressInfo;
    // Two connections whose requests have begun (their first header lines sent) before close() begins.
    const begun = async (path: string) => {
      const socket = connect(port, '127.0.0.1');
      await once(socket, 'connect');
      let answer = '';
      socket.on('data', (chunk) => {
        answer += chunk;
      });
      const ended = once(socket, 'close').then(() => answer);
      socket.write(`POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n`);
      return { socket, ended };
    };
    const scim = await begun('/scim/v2/Users');
    const api = await begun('/auth/login');
    await new Promise((resolve) => setTimeout(resolve, 50));
    const closed = closing.close();
    await waitFor('close() to begin', () => closing.app.drain.state === 'closed', 20_000, 1);
    for (const { socket } of [scim, api]) socket.write('Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{}');
    const [scimAnswer, apiAnswer] = await Promise.all([scim.ended, api.ended]);
    await closed;
    const parse = (raw: string) => ({
      status: raw.slice(9, 12),
      type: /content-type: ([^\r]*)/i.exec(raw)?.[1],
      body: JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4)),
    });
    assert.deepEqual(parse(scimAnswer), {
      status: '503',
      type: 'application/scim+json; charset=utf-8',
      body: {
        schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'],
        status: '503',
        detail: unavailable.message,
      },
    });
    assert.deepEqual(parse(apiAnswer), { status: '503', type: 'application/json; charset=utf-8', body: unavailable });
  });

  it('answers an unknown route with 404 in Spanish', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/no-existe' });
    assert.equal(response.statusCode, 404);
    assert.deepEqual(response.json(), { statusCode: 404, message: 'Recurso no encontrado' });
  });

  it('answers malformed JSON with 400 in Spanish', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"email": "a@b.c", "password": ',
    });
    assert.equal(response.statusCode, 400);
    assert.deepEqual(response.json(), { statusCode: 400, message: 'El cuerpo de la petición no es un JSON válido' });
  });

  it('answers a body over 100 KB with 413 in Spanish', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { email: 'a@b.c', password: 'x'.repeat(101 * 1024) },
    });
    assert.equal(response.statusCode, 413);
    assert.deepEqual(response.json(), {
      statusCode: 413,
      message: 'El cuerpo de la petición es demasiado grande (máximo 100 KB)',
    });
  });

  it('refuses an unknown body field with 400 naming it', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { email: 'a@b.c', password: 'secreto', role: 1 },
    });
    assert.equal(response.statusCode, 400);
    assert.deepEqual(response.json(), {
      statusCode: 400,
      code: 'VALIDATION_ERROR',
      message: "Datos inválidos: el campo 'role' no está permitido",
    });
  });

  it('names an unknown field with characters a screen hides written out, and cut', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { email: 'a@b.c', password: 'secreto', 'rol\r\n\u202eadmin': 1 },
    });
    assert.equal(response.statusCode, 400);
    assert.equal(
      response.json().message,
      "Datos inválidos: el campo 'rol\\u000d\\u000a\\u202eadmin' no está permitido",
    );
    const long = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { email: 'a@b.c', password: 'secreto', ['x'.repeat(300)]: 2 },
    });
    assert.equal(long.json().message, `Datos inválidos: el campo '${'x'.repeat(200)}…' no está permitido`);
  });

  it('refuses a wrong-typed body field instead of converting it', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { email: 'a@b.c', password: 123456 },
    });
    assert.equal(response.statusCode, 400);
    assert.equal(response.json().message, "Datos inválidos: 'password' debe ser un texto");
  });

  it('sends the security headers of a JSON-only API', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/health' });
    assert.equal(response.headers['content-security-policy'], "default-src 'none';frame-ancestors 'none'");
    assert.equal(response.headers['x-content-type-options'], 'nosniff');
    assert.equal(response.headers['referrer-policy'], 'no-referrer');
  });

  it('lets the portal origin send the Authorization header cross-origin', async () => {
    const response = await t.app.inject({
      method: 'OPTIONS',
      url: '/auth/user',
      headers: {
        origin: 'http://127.0.0.1:8080',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'authorization',
      },
    });
    assert.equal(response.statusCode, 204);
    assert.equal(response.headers['access-control-allow-origin'], 'http://127.0.0.1:8080');
    assert.equal(response.headers['access-control-allow-credentials'], 'true');
    assert.match(String(response.headers['access-control-allow-headers']), /authorization/i);
  });

  it('does not let other origins read responses', async () => {
    const preflight = await t.app.inject({
      method: 'OPTIONS',
      url: '/auth/user',
      headers: {
        origin: 'https://evil.example',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'authorization',
      },
    });
    assert.equal(preflight.headers['access-control-allow-origin'], undefined);
    const simple = await t.app.inject({
      method: 'GET',
      url: '/apps/listar',
      headers: { origin: 'https://evil.example' },
    });
    assert.equal(simple.headers['access-control-allow-origin'], undefined);
  });

  it('publishes the OpenAPI document built from the route schemas, and its UI', async () => {
    const document = await t.app.inject({ method: 'GET', url: '/docs/json' });
    assert.equal(document.statusCode, 200);
    const openapi = document.json();
    assert.equal(openapi.openapi, '3.1.0');
    for (const path of [
      '/health',
      '/health/live',
      '/health/ready',
      '/apps/listar',
      '/apps/obtener-por-id/{id}',
      '/auth/login',
      '/auth/user',
      '/auth/logout',
    ]) {
      assert.ok(openapi.paths[path], `${path} documented`);
    }
    assert.ok(openapi.paths['/auth/login'].post.requestBody, 'login body documented');
    assert.deepEqual(openapi.components.schemas.ErrorResponse.required, ['statusCode', 'message']);
    const ui = await t.app.inject({ method: 'GET', url: '/docs/' });
    assert.equal(ui.statusCode, 200);
    assert.match(ui.body, /swagger-ui/);
    assert.doesNotMatch(String(ui.headers['content-security-policy']), /default-src 'none'/);
    for (const name of documentOnlyHeaders) assert.ok(ui.headers[name], `the documentation page carries ${name}`);
  });

  it('limits login attempts per client with a Spanish 429', async () => {
    const limited = await buildTestApp(backend, { loginRateLimitPerMinute: 2 });
    try {
      const attempt = () =>
        limited.app.inject({ method: 'POST', url: '/auth/login', payload: { email: 'x@y.z', password: 'nada' } });
      assert.equal((await attempt()).statusCode, 401);
      assert.equal((await attempt()).statusCode, 401);
      const blocked = await attempt();
      assert.equal(blocked.statusCode, 429);
      assert.equal(blocked.json().code, 'RATE_LIMITED');
      assert.match(blocked.json().message, /^Demasiadas solicitudes\. Inténtalo de nuevo en \d+ segundos\.$/);
    } finally {
      await limited.close();
    }
  });

  it('answers 503 in Spanish while the database is unreachable', async () => {
    const broken = await buildTestApp(backend);
    try {
      await broken.database.close();
      for (const url of ['/health', '/health/ready']) {
        const health = await broken.app.inject({ method: 'GET', url });
        assert.equal(health.statusCode, 503, url);
        assert.deepEqual(health.json(), unavailable, url);
      }
      const apps = await broken.app.inject({ method: 'GET', url: '/apps/listar' });
      assert.equal(apps.statusCode, 503);
      assert.deepEqual(apps.json(), unavailable);
    } finally {
      await broken.close();
    }
  });
});

forEachBackend((backend) => {
  it('behind trusted balancers (TRUST_PROXY) the per-IP limits count each client address, not the balancer', async () => {
    const t = await buildTestApp(backend, { trustProxy: ['127.0.0.1'], authRateLimitPerMinute: 2 });
    try {
      const ask = (client: string) =>
        t.app.inject({
          method: 'POST',
          url: '/auth/verificar-email',
          payload: { email: 'nadie@portal.test' },
          headers: { 'x-forwarded-for': client },
          remoteAddress: '127.0.0.1',
        });
      assert.deepEqual(
        [
          (await ask('203.0.113.7')).statusCode,
          (await ask('203.0.113.7')).statusCode,
          (await ask('203.0.113.7')).statusCode,
        ],
        [200, 200, 429],
      );
      assert.equal(
        (await ask('198.51.100.9')).statusCode,
        200,
        'another client behind the same balancer has its own count',
      );
    } finally {
      await t.close();
    }
  });
});
