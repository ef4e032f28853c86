// nginx from the deployment's template (deploy/nginx/portal.conf.template) in front of stand-ins for the API's
// instances, each made to fail the way the test chooses: answering, closing a GET's connection unanswered (as an
// instance does while it leaves), answering the API's 503 (as every instance does while the database they share is
// away), never answering, or not listening. What is checked is nginx's part: which failures it retries and counts
// against an instance, and its own answers, which must read like the API's. balancer.test.ts runs the same template in
// front of the real API.
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import { after, describe, it } from 'node:test';
import { bodyLimitBytes } from '../src/app.js';
import { messages } from '../src/lib/errors.js';
import { ScimError, scimErrorBody, scimMessages } from '../src/domain/companies/scim/errors.js';
import { scimContentType } from '../src/routes/scim/index.js';
import { startNginx, type Nginx } from './helpers/nginx.js';
import { freePort, sleep, waitFor } from './helpers/processes.js';

type Mode = 'answer' | 'close' | 'unavailable' | 'hang';

/** The API's 503, as an instance whose database is away answers it (and as nginx answers it for none). */
const unavailable = { statusCode: 503, message: messages.unavailable, code: 'SERVICE_UNAVAILABLE' };
const origin = 'http://portal.portal.test';

/** A stand-in for one API instance on a port of its own, which it can leave and take again. */
class Instance {
  mode: Mode = 'answer';
  /** Every request that reached it, as `METHOD /path`. */
  readonly received: string[] = [];
  /** The headers of each of those requests. */
  readonly receivedHeaders: http.IncomingHttpHeaders[] = [];
  private server: http.Server | undefined;

  constructor(
    readonly name: string,
    readonly port: number,
  ) {}

  async listen(): Promise<void> {
    this.server = http.createServer((request, response) => {
      this.received.push(`${request.method} ${request.url}`);
      this.receivedHeaders.push(request.headers);
      if (this.mode === 'hang') return;
      // The whole body read first, as the API does.
      request.resume();
      request.on('end', () => {
        if (this.mode === 'close') response.destroy();
        else if (this.mode === 'unavailable')
          response.writeHead(503, { 'content-type': 'application/json' }).end(JSON.stringify(unavailable));
        else response.end(this.name);
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(this.port, '127.0.0.1', resolve));
  }

  /** Stops listening: connections are refused, as from an instance that is gone. */
  async close(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** What a client sees of a call through nginx. */
async function call(nginx: Nginx, path: string, init: RequestInit = {}): Promise<Answer> {
  const response = await fetch(`${nginx.url}${path}`, {
    ...init,
    headers: { origin, ...(init.headers as Record<string, string>) },
  });
  return { status: response.status, headers: Object.fromEntries(response.headers), body: await response.text() };
}

/** A request written byte for byte (one a client library would refuse to send), and nginx's answer to it. */
function raw(nginx: Nginx, request: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(nginx.port, '127.0.0.1', () => socket.write(request));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head = '', ...rest] = text.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(
        lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
      );
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: rest.join('\r\n\r\n') });
    });
  });
}

/** nginx's own answer carries the API's error headers and its request id, and Retry-After only on the 503. */
function assertNginxHeaders(answer: Answer, what: string, contentType = 'application/json; charset=utf-8') {
  assert.match(answer.headers['x-request-id'] ?? '', /^[0-9a-f]{32}$/, what);
  assert.equal(answer.headers['content-type'], contentType, what);
  assert.equal(answer.headers['access-control-allow-origin'], origin, what);
  assert.equal(answer.headers.vary, 'Origin', what);
  assert.equal(answer.headers['cache-control'], 'no-store', what);
  assert.equal(answer.headers['x-content-type-options'], 'nosniff', what);
  assert.equal(answer.headers['content-security-policy'], "default-src 'none';frame-ancestors 'none'", what);
  assert.equal(answer.headers['retry-after'], answer.status === 503 ? '5' : undefined, what);
}

describe("nginx in front of the API's instances (stand-ins)", () => {
  const started: Nginx[] = [];
  const instances: Instance[] = [];

  after(async () => {
    await Promise.all(started.map((nginx) => nginx.stop()));
    await Promise.all(instances.map((instance) => instance.close()));
  });

  /** Two instances, answering, and a fresh nginx in front of them: nothing set aside yet. */
  async function deployment() {
    const pair = [new Instance('A', await freePort()), new Instance('B', await freePort())];
    instances.push(...pair);
    await Promise.all(pair.map((instance) => instance.listen()));
    const nginx = await startNginx(
      pair.map((instance) => instance.port),
      pair[0]!.port,
    );
    started.push(nginx);
    // startNginx's own probe reached one of them.
    for (const instance of pair) {
      instance.received.length = 0;
      instance.receivedHeaders.length = 0;
    }
    return { nginx, a: pair[0]!, b: pair[1]! };
  }

  /**
   * nginx's access-log line of an answer, found by its request id. nginx writes it once the request is finished, which
   * on a busy machine can come after the client has read the answer: looked for again (the bound stops a hung test).
   */
  const logLine = (nginx: Nginx, answer: Answer) =>
    waitFor(
      `the access-log line of ${String(answer.headers['x-request-id'])}`,
      () => nginx.accessLog().find((entry) => entry.request_id === answer.headers['x-request-id']),
      20_000,
      50,
    );

  it("tells the API the host, protocol and client it saw itself, whatever a client's X-Forwarded-* headers claim", async () => {
    const { nginx, a, b } = await deployment();
    const answer = await call(nginx, '/.well-known/openid-configuration', {
      headers: { 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https', 'x-forwarded-for': '192.0.2.7' },
    });
    assert.equal(answer.status, 200);
    const [headers] = [...a.receivedHeaders, ...b.receivedHeaders];
    assert.equal(headers?.['x-forwarded-host'], '127.0.0.1');
    assert.equal(headers?.['x-forwarded-proto'], 'http');
    // The client's entry passes on, nginx's reading of the client last: the one a hop count of 1 believes.
    assert.equal(headers?.['x-forwarded-for'], '192.0.2.7, 127.0.0.1');
  });

  it("refuses a body over the API's limit, a header too large and a request it cannot read in the API's shape and language", async () => {
    const { nginx, a, b } = await deployment();
    const json = { 'content-type': 'application/json' };

    // Exactly the API's limit goes through to an instance; a byte more is refused by nginx, which sends nothing on.
    const atLimit = await call(nginx, '/auth/login', {
      method: 'POST',
      headers: json,
      body: 'x'.repeat(bodyLimitBytes),
    });
    assert.equal(atLimit.status, 200);
    const over = await call(nginx, '/auth/login', {
      method: 'POST',
      headers: json,
      body: 'x'.repeat(bodyLimitBytes + 1),
    });
    assert.equal(over.status, 413);
    assert.deepEqual(JSON.parse(over.body), {
      statusCode: 413,
      message: messages.bodyTooLarge,
      code: 'BODY_TOO_LARGE',
    });
    assertNginxHeaders(over, '413');
    assert.deepEqual([...a.received, ...b.received], ['POST /auth/login']);

    // Cookies beyond nginx's header buffers (8 KB a line): nginx's 494, answered as a 400.
    const cookies = await call(nginx, '/auth/user', { headers: { cookie: `sesion=${'c'.repeat(10_000)}` } });
    assert.equal(cookies.status, 400);
    assert.deepEqual(JSON.parse(cookies.body), {
      statusCode: 400,
      message: 'Las cabeceras de la petición son demasiado grandes (¿demasiadas cookies?)',
      code: 'HEADERS_TOO_LARGE',
    });
    assertNginxHeaders(cookies, '494');

    // Two Host headers: a request nginx refuses to read.
    const twoHosts = await raw(
      nginx,
      `GET /auth/user HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: ${origin}\r\nHost: 127.0.0.1\r\n\r\n`,
    );
    assert.equal(twoHosts.status, 400);
    assert.deepEqual(JSON.parse(twoHosts.body), { statusCode: 400, message: messages.badRequest, code: 'BAD_REQUEST' });
    assertNginxHeaders(twoHosts, '400');
    assert.equal(a.received.length + b.received.length, 1, 'only the body at the limit reached an instance');
  });

  it("answers the API's own 503, with Retry-After, when no instance answers: none listening, none answering in time, a POST lost", async () => {
    const { nginx, a, b } = await deployment();
    await Promise.all([a.close(), b.close()]);
    const refused = await call(nginx, '/auth/user');
    assert.equal(refused.status, 503);
    assert.deepEqual(JSON.parse(refused.body), unavailable);
    assertNginxHeaders(refused, 'connections refused');
    assert.match((await logLine(nginx, refused))?.upstream_status ?? '', /^502(, 502)+$/);

    // A POST an instance read and then dropped is never sent to another (it may have run): nginx's 503 instead.
    const other = await deployment();
    other.a.mode = 'close';
    other.b.mode = 'close';
    const lost = await call(other.nginx, '/auth/register', { method: 'POST', body: '{}' });
    assert.equal(lost.status, 503);
    assert.deepEqual(JSON.parse(lost.body), unavailable);
    assertNginxHeaders(lost, 'a POST lost');
    assert.equal(other.a.received.length + other.b.received.length, 1, 'sent once');

    // Instances that never answer: after proxy_read_timeout (15 s), too late to try another.
    const slow = await deployment();
    slow.a.mode = 'hang';
    slow.b.mode = 'hang';
    const late = await call(slow.nginx, '/auth/user');
    assert.equal(late.status, 503);
    assert.deepEqual(JSON.parse(late.body), unavailable);
    assertNginxHeaders(late, 'a timeout');
    assert.equal((await logLine(slow.nginx, late))?.upstream_status, '504');
  });

  it("answers a directory under /scim/ with SCIM's error, as the API does there: none listening, a body over the limit", async () => {
    const { nginx, a, b } = await deployment();
    const scimJson = { 'content-type': 'application/scim+json' };
    const over = await call(nginx, '/scim/v2/Users', {
      method: 'POST',
      headers: scimJson,
      body: 'x'.repeat(bodyLimitBytes + 1),
    });
    assert.equal(over.status, 413);
    assert.deepEqual(JSON.parse(over.body), scimErrorBody(new ScimError(413, scimMessages.bodyTooLarge)));
    assertNginxHeaders(over, 'SCIM 413', scimContentType);

    await Promise.all([a.close(), b.close()]);
    for (const [method, path] of [
      ['GET', '/scim/v2/Users?filter=userName%20eq%20%22ana%40acme.cl%22'],
      ['PATCH', '/scim/v2/Groups/5c1b7e3e-0000-4000-8000-000000000000'],
    ] as const) {
      const refused = await call(nginx, path, {
        method,
        headers: scimJson,
        ...(method === 'GET' ? {} : { body: '{}' }),
      });
      assert.equal(refused.status, 503, path);
      assert.deepEqual(JSON.parse(refused.body), scimErrorBody(new ScimError(503, scimMessages.unavailable)), path);
      assertNginxHeaders(refused, `SCIM ${method} 503`, scimContentType);
    }
    // Outside /scim/, the API's own shape still.
    assert.deepEqual(JSON.parse((await call(nginx, '/auth/user')).body), unavailable);
  });

  it('tries a GET closed unanswered on another instance and sets the first aside; passes the API 503 on, neither retried nor counted', async () => {
    const leaving = await deployment();
    leaving.a.mode = 'close';
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push(await call(leaving.nginx, '/auth/user'));
    assert.deepEqual(
      answers.map((answer) => `${answer.status} ${answer.body}`),
      Array(6).fill('200 B'),
    );
    // One GET closed unanswered, and nginx sent nothing more there.
    assert.deepEqual(leaving.a.received, ['GET /auth/user']);

    // Every instance answers the API's 503 (their database is away): each answer is passed on as it came, from the
    // one instance it was sent to, and both keep getting their share.
    const shared = await deployment();
    shared.a.mode = 'unavailable';
    shared.b.mode = 'unavailable';
    const refused = [];
    for (let i = 0; i < 6; i++) refused.push(await call(shared.nginx, '/auth/user'));
    for (const answer of refused) {
      assert.equal(answer.status, 503);
      assert.deepEqual(JSON.parse(answer.body), unavailable);
      assert.equal(answer.headers['retry-after'], undefined, "the API's answer, not nginx's");
      assert.doesNotMatch((await logLine(shared.nginx, answer))?.upstream_addr ?? '', /,/, 'sent to one instance');
    }
    assert.deepEqual([shared.a.received.length, shared.b.received.length], [3, 3]);
    // Its database back, each instance answers at once: neither was set aside.
    shared.a.mode = 'answer';
    shared.b.mode = 'answer';
    const back = [];
    for (let i = 0; i < 4; i++) back.push((await call(shared.nginx, '/auth/user')).body);
    assert.deepEqual(back.sort(), ['A', 'A', 'B', 'B']);
  });

  it('once every instance is set aside, tries them again at once: answered as soon as one is back, never "no live upstreams"', async () => {
    const { nginx, a, b } = await deployment();
    await Promise.all([a.close(), b.close()]);
    assert.equal((await call(nginx, '/auth/user')).status, 503);
    // Both were refused, so both are set aside for fail_timeout (5 s); one is back well within it.
    await b.listen();
    const answers = [];
    for (let i = 0; i < 3; i++) {
      answers.push(await call(nginx, '/auth/user'));
      await sleep(100);
    }
    assert.deepEqual(
      answers.map((answer) => `${answer.status} ${answer.body}`),
      Array(3).fill('200 B'),
    );
    assert.doesNotMatch(nginx.errorLog(), /no live upstreams/);
  });
});
