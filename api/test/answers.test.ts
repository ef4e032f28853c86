// When the API's answers leave (plugins/app/answers.ts). Every request is answered within REQUEST_TIMEOUT_MS, at
// worst with the Spanish 503, and the answer a handler decided is the one sent even when a later hook holds it past
// the deadline. Two requests read in one turn are both handled before either answer is written (the reader is woken
// once for both), and an answer alone is not held past its turn. The whole API runs with it in every other test; what
// the deadline does with a frozen database is faults-hang.test.ts, what the batching buys under load is
// docs/benchmarks.md.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import Fastify, { type FastifyInstance } from 'fastify';
import { loadConfig } from '../src/config.js';
import { errorHandler } from '../src/error-handler.js';
import { messages } from '../src/lib/errors.js';
import answers from '../src/plugins/app/answers.js';

const timeoutMs = 300;

describe('answers', () => {
  let app: FastifyInstance;
  let port: number;
  const events: string[] = [];
  const logged: string[] = [];
  let released = () => {};

  before(async () => {
    app = Fastify({
      logger: { level: 'warn', stream: { write: (line: string) => logged.push(line) } },
      // A request left unanswered by a regression must not keep `close()` waiting.
      forceCloseConnections: true,
    });
    app.decorate('config', { ...loadConfig({}), requestTimeoutMs: timeoutMs });
    app.setErrorHandler(errorHandler);
    app.register(answers);
    app.addHook('onRequest', (request, reply, done) => {
      const { n } = request.query as { n?: string };
      const writeHead = reply.raw.writeHead;
      reply.raw.writeHead = function (this: typeof reply.raw, ...args: Parameters<typeof writeHead>) {
        events.push(`written ${n}`);
        return writeHead.apply(this, args);
      } as typeof writeHead;
      done();
    });
    // Like the session state's barrier: a later hook that holds a decided answer (here past the deadline).
    const failed = new WeakSet<object>();
    app.addHook('onSend', async (request, _reply, payload) => {
      const { hold, fail } = request.query as { hold?: string; fail?: string };
      if (hold) await sleep(2 * timeoutMs);
      if (fail && !failed.has(request)) {
        failed.add(request);
        throw new Error('el gancho falló');
      }
      return payload;
    });
    app.get('/', async (request) => {
      const { n } = request.query as { n: string };
      events.push(`handled ${n}`);
      setImmediate(() => events.push(`check phase after ${n}`));
      setTimeout(() => events.push(`next turn after ${n}`), 0);
      return { n };
    });
    app.get('/never', () => new Promise(() => {}));
    // Sends, and returns nothing (the userinfo from memory does so).
    app.get('/sends', async (request, reply) => {
      reply.send({ sent: (request.query as { n: string }).n });
    });
    app.get('/late', async () => {
      await new Promise<void>((resolve) => {
        released = resolve;
      });
      return { late: true };
    });
    app.get('/by-itself', (_request, reply) => {
      reply.hijack();
      setTimeout(() => reply.raw.end('escrito por su cuenta'), 2 * timeoutMs);
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    port = (app.server.address() as { port: number }).port;
  });
  after(() => app.close());

  /** A connection the server has accepted (and so reads from in its next poll). */
  async function opened(): Promise<Socket> {
    const accepted = once(app.server, 'connection');
    const socket = connect(port, '127.0.0.1');
    await Promise.all([once(socket, 'connect'), accepted]);
    return socket;
  }

  /** Sends a GET on the socket and resolves with the whole answer once the server closes the connection. */
  function ask(socket: Socket, path: string): Promise<string> {
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk) => {
      answer += chunk;
    });
    const closed = once(socket, 'end').then(() => answer);
    socket.write(`GET ${path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`);
    return closed;
  }

  const unavailable = JSON.stringify({
    statusCode: 503,
    message: messages.unavailable,
    code: 'SERVICE_UNAVAILABLE',
  });

  it('handles every request read in the same turn before writing any of their answers, each to its own asker', async () => {
    events.length = 0;
    const a = await opened();
    const b = await opened();
    // Written in one go: the server, in this process, reads both in its next poll.
    const answers = await Promise.all([ask(a, '/?n=a'), ask(b, '/?n=b')]);
    assert.match(answers[0]!, /^HTTP\/1\.1 200 OK[\s\S]*\r\n\r\n\{"n":"a"\}$/);
    assert.match(answers[1]!, /^HTTP\/1\.1 200 OK[\s\S]*\r\n\r\n\{"n":"b"\}$/);
    const firstWrite = events.findIndex((event) => event.startsWith('written'));
    const handledFirst = events.slice(0, firstWrite).filter((event) => event.startsWith('handled'));
    assert.deepEqual(handledFirst.sort(), ['handled a', 'handled b'], events.join(', '));
  });

  it('writes an answer alone before the loop turns again', async () => {
    events.length = 0;
    const answer = await ask(await opened(), '/?n=solo');
    assert.match(answer, /\{"n":"solo"\}$/);
    // The client may read the answer before the server's timer runs: wait for that timer, then compare.
    while (!events.includes('next turn after solo')) await new Promise((resolve) => setImmediate(resolve));
    assert.ok(events.indexOf('written solo') < events.indexOf('next turn after solo'), events.join(', '));
  });

  /** Resolves once the server holds no connection, and their closes have been counted. */
  async function noneOpen(): Promise<void> {
    const open = () => new Promise<number>((resolve) => app.server.getConnections((_error, n) => resolve(n)));
    while ((await open()) > 0) await sleep(5);
    await new Promise((resolve) => setImmediate(resolve));
  }

  it('writes the answer on the only open connection in the turn that made it, and holds it while another is open', async () => {
    // Alone, nothing else can be read in its turn: the answer goes before that turn's check phase.
    await noneOpen();
    events.length = 0;
    assert.match(await ask(await opened(), '/?n=alone'), /\{"n":"alone"\}$/);
    while (!events.includes('check phase after alone')) await sleep(1);
    assert.ok(events.indexOf('written alone') < events.indexOf('check phase after alone'), events.join(', '));

    // With another connection open (idle here), it waits for the check phase, where the answers of its turn leave.
    await noneOpen();
    const idle = await opened();
    events.length = 0;
    assert.match(await ask(await opened(), '/?n=beside'), /\{"n":"beside"\}$/);
    idle.destroy();
    while (!events.includes('check phase after beside')) await sleep(1);
    assert.ok(events.indexOf('check phase after beside') < events.indexOf('written beside'), events.join(', '));
  });

  it('answers once, with what it sent, a handler that sends and returns nothing', async () => {
    logged.length = 0;
    const answer = await ask(await opened(), '/sends?n=uno');
    assert.match(answer, /^HTTP\/1\.1 200 OK[\s\S]*\r\n\r\n\{"sent":"uno"\}$/);
    assert.deepEqual(logged, []);
  });

  it('answers a request whose handler never does with the Spanish 503, each one counted from its own arrival', async () => {
    const first = ask(await opened(), '/never?n=first');
    await sleep(timeoutMs / 2);
    const second = ask(await opened(), '/never?n=second');
    const order: string[] = [];
    const answered = await Promise.all([
      first.then((answer) => {
        order.push('first');
        return answer;
      }),
      second.then((answer) => {
        order.push('second');
        return answer;
      }),
    ]);
    for (const answer of answered) {
      assert.match(answer, /^HTTP\/1\.1 503 Service Unavailable\r\n/);
      assert.ok(answer.endsWith(`\r\n\r\n${unavailable}`), answer);
    }
    assert.deepEqual(order, ['first', 'second']);
  });

  it('keeps the 503 when the handler answers after its deadline, and says so in the log', async () => {
    logged.length = 0;
    const answer = ask(await opened(), '/late?n=late');
    assert.ok((await answer).endsWith(unavailable), await answer);
    released();
    while (!logged.some((line) => line.includes('FST_ERR_REP_ALREADY_SENT'))) await sleep(10);
  });

  it('sends the answer its handler decided when a later hook holds it past the deadline', async () => {
    const answer = await ask(await opened(), '/?n=held&hold=1');
    assert.match(answer, /^HTTP\/1\.1 200 OK[\s\S]*\r\n\r\n\{"n":"held"\}$/);
  });

  it("answers with the error handler's 500 when a later hook fails the handler's answer", {
    timeout: 5_000,
  }, async () => {
    const answer = await ask(await opened(), '/?n=fails&fail=1');
    assert.match(answer, /^HTTP\/1\.1 500 Internal Server Error\r\n/);
    assert.ok(answer.endsWith(JSON.stringify({ statusCode: 500, message: messages.internal })), answer);
  });

  it('leaves an answer the route writes by itself (the identity provider) to the route, past the deadline', async () => {
    const answer = await ask(await opened(), '/by-itself');
    assert.match(answer, /^HTTP\/1\.1 200 OK[\s\S]*\r\n\r\nescrito por su cuenta$/);
  });
});
