// A client that sends a request's headers and then its body slowly, or never finishes it, on the API as a real
// process: the deadline's 503 ends its connection, so such clients cannot hold sockets open; a bystander is served
// meanwhile and a kept-alive connection whose request was whole stays open (plugins/app/answers.ts, decision 0023).
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { messages } from '../src/lib/errors.js';
import { logLines, sleep, startApi, waitFor, type ApiProcess } from './helpers/processes.js';

const requestTimeoutMs = 1_500;
/** Generous bounds on a busy two-core machine: a wait for something that must happen, not a speed assertion. */
const answerWithinMs = 20_000;

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** A raw connection to the API that keeps what it received and knows when the server ended it. */
class RawConnection {
  readonly socket: Socket;
  private received = Buffer.alloc(0);
  private consumed = 0;
  ended = false;
  readonly closed: Promise<void>;

  constructor(api: ApiProcess) {
    const { port } = new URL(api.url);
    this.socket = connect(Number(port), '127.0.0.1');
    this.socket.on('data', (chunk: Buffer) => {
      this.received = Buffer.concat([this.received, chunk]);
    });
    this.socket.on('end', () => {
      this.ended = true;
    });
    // A reset after the answer is still the server closing the connection.
    this.socket.on('error', () => {});
    this.closed = once(this.socket, 'close').then(() => {});
  }

  async ready(): Promise<void> {
    if (this.socket.connecting) await once(this.socket, 'connect');
  }

  send(text: string): void {
    this.socket.write(text);
  }

  /** The next whole answer on this connection (headers and a Content-Length body). */
  async answer(): Promise<Answer> {
    const parsed = await waitFor('a whole answer', () => this.parse(), answerWithinMs, 20);
    this.consumed = parsed.end;
    return parsed.answer;
  }

  private parse(): { answer: Answer; end: number } | undefined {
    const text = this.received.subarray(this.consumed);
    const headEnd = text.indexOf('\r\n\r\n');
    if (headEnd < 0) return undefined;
    const [statusLine, ...lines] = text.subarray(0, headEnd).toString('latin1').split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const length = Number(headers['content-length'] ?? 0);
    if (text.length < headEnd + 4 + length) return undefined;
    return {
      answer: {
        status: Number(statusLine!.split(' ')[1]),
        headers,
        body: text.subarray(headEnd + 4, headEnd + 4 + length).toString(),
      },
      end: this.consumed + headEnd + 4 + length,
    };
  }
}

/** A POST whose headers announce more body than is sent: the rest never comes. */
function unfinishedPost(path: string, sent: string, announced: number): string {
  return (
    `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` +
    `Content-Length: ${announced}\r\nConnection: keep-alive\r\n\r\n${sent}`
  );
}

const get = (path: string) => `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n`;

const unavailable = { statusCode: 503, message: messages.unavailable, code: 'SERVICE_UNAVAILABLE' };

let api: ApiProcess;
const dataDir = mkdtempSync(join(tmpdir(), 'portal-slow-bodies-'));

describe('slow-bodies.test.ts', () => {
  before(async () => {
    api = await startApi({
      DATA_DIR: dataDir,
      DATABASE_URL: undefined,
      REDIS_URL: undefined,
      SMTP_URL: undefined,
      REQUEST_TIMEOUT_MS: String(requestTimeoutMs),
    });
  });

  after(async () => {
    if (api && api.child.exitCode !== null) process.stderr.write(`API exited:\n${api.output()}\n`);
    await api?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  describe('a request body that does not arrive in time', () => {
    it("gets the Spanish 503 at the deadline with Connection: close, and the server closes its connection; a bystander's request is answered meanwhile", async () => {
      const slow = Array.from({ length: 10 }, () => new RawConnection(api));
      await Promise.all(slow.map((connection) => connection.ready()));
      for (const connection of slow) connection.send(unfinishedPost('/auth/login', '{"email":"len', 200));
      // A few more bytes now and then, as a slow client sends them.
      await sleep(300);
      for (const connection of slow) connection.send('to@portal.');

      // Meanwhile, on a connection of its own, a whole request is served as usual.
      const bystander = new RawConnection(api);
      await bystander.ready();
      bystander.send(get('/apps/listar'));
      const served = await bystander.answer();
      assert.equal(served.status, 200, served.body);
      assert.ok(Array.isArray(JSON.parse(served.body).data));

      for (const [i, connection] of slow.entries()) {
        const answer = await connection.answer();
        assert.equal(answer.status, 503, `connection ${i}: ${answer.body}`);
        assert.deepEqual(JSON.parse(answer.body), unavailable);
        assert.equal(answer.headers.connection, 'close', `connection ${i}`);
      }
      const closedInTime = await Promise.race([
        Promise.all(slow.map((connection) => connection.closed)).then(() => true),
        sleep(answerWithinMs).then(() => false),
      ]);
      assert.ok(
        closedInTime,
        `connections still open ${answerWithinMs} ms after their answer: ${slow.filter((c) => !c.socket.closed).length}`,
      );
      assert.ok(
        slow.every((connection) => connection.ended),
        'the server ended each connection',
      );

      // The bystander's connection was whole: it stays open and serves its next request.
      assert.equal(bystander.socket.closed, false);
      bystander.send(get('/health/live'));
      assert.equal((await bystander.answer()).status, 200);
      bystander.socket.destroy();
    });

    it('leaves a kept-alive connection whose request was whole open past the deadline', async () => {
      const connection = new RawConnection(api);
      await connection.ready();
      connection.send(get('/health/live'));
      const first = await connection.answer();
      assert.equal(first.status, 200);
      assert.notEqual(first.headers.connection, 'close');
      // Past the deadline of the request it answered, and then some: nothing closes it.
      await sleep(2 * requestTimeoutMs);
      assert.equal(connection.socket.closed, false);
      assert.equal(connection.ended, false);
      connection.send(get('/health/live'));
      assert.equal((await connection.answer()).status, 200);
      connection.socket.destroy();
    });

    it('answers headers that never end, too large headers and bytes that are not HTTP in Spanish, and closes them', async () => {
      const trickle = new RawConnection(api);
      const huge = new RawConnection(api);
      const garbage = new RawConnection(api);
      await Promise.all([trickle.ready(), huge.ready(), garbage.ready()]);
      // The headers' first line, then nothing more: Node's headers timeout (headersTimeoutMs) ends it.
      trickle.send('POST /auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\n');
      huge.send(`GET /health/live HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: ${'a'.repeat(20_000)}\r\n\r\n`);
      garbage.send('\x16\x03\x01 this is not HTTP\r\n\r\n');
      const expected = [
        [trickle, 408, messages.requestTimeout, 'REQUEST_TIMEOUT'],
        [huge, 431, messages.headersTooLarge, 'HEADERS_TOO_LARGE'],
        [garbage, 400, messages.badRequest, 'BAD_REQUEST'],
      ] as const;
      for (const [connection, statusCode, message, code] of expected) {
        const answer = await connection.answer();
        assert.equal(answer.status, statusCode, answer.body);
        assert.deepEqual(JSON.parse(answer.body), { statusCode, message, code });
        assert.equal(answer.headers['content-type'], 'application/json; charset=utf-8');
        assert.equal(answer.headers.connection, 'close');
        assert.equal(answer.headers['x-content-type-options'], 'nosniff');
        await waitFor('the server to close the connection', () => connection.socket.closed, answerWithinMs);
      }
    });

    it('logs no error for a connection it closed', () => {
      assert.deepEqual(logLines(api, 50), []);
    });
  });
});
