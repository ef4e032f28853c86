// A PostgreSQL server that hangs instead of going away, and what the logs say about an outage: the API as a real
// process (`node api/dist/server.js`) on a PostgreSQL server of this file's own, frozen with SIGSTOP and stopped. The
// traffic is a number of calls, not a number of seconds; the slack over each deadline is stretched by the machine's
// measured slowness (helpers/slowness.ts).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { messages } from '../src/lib/errors.js';
import { buildTestApp, login } from './helpers/app.js';
import { createPostgresCluster, type PostgresCluster } from './helpers/postgres-cluster.js';
import { logLines, sleep, startApi, waitFor, type ApiProcess } from './helpers/processes.js';
import { scaled } from './helpers/slowness.js';

interface Timed {
  path: string;
  status: number;
  ms: number;
  body: { message?: string; code?: string } | null;
  headers: Headers | undefined;
}

/** One call as a patient client makes it (30 s), timed. Status 0: no answer at all. */
async function timedCall(api: ApiProcess, path: string, body?: unknown): Promise<Timed> {
  const started = performance.now();
  try {
    const response = await fetch(`${api.url}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
    const text = await response.text();
    return {
      path,
      status: response.status,
      ms: performance.now() - started,
      body: text ? JSON.parse(text) : null,
      headers: response.headers,
    };
  } catch (error) {
    return { path, status: 0, ms: performance.now() - started, body: { message: String(error) }, headers: undefined };
  }
}

/** Calls that each need the database: the balancer's check, a public list, a sign-in, the anonymous email check. */
const calls: Array<[string, unknown?]> = [
  ['/health'],
  ['/apps/listar'],
  ['/auth/login', { email: 'nadie@portal.test', password: 'una-clave-cualquiera' }],
  ['/auth/verificar-email', { email: 'nadie@portal.test' }],
];

/**
 * Sends `count` calls, `perSecond` a second at most (round-robin over `calls`); answers the calls, still waiting for
 * their answers.
 */
async function traffic(api: ApiProcess, perSecond: number, count: number): Promise<Array<Promise<Timed>>> {
  const pending: Array<Promise<Timed>> = [];
  for (let i = 0; i < count; i++) {
    const [path, body] = calls[i % calls.length]!;
    pending.push(timedCall(api, path, body));
    await sleep(1000 / perSecond);
  }
  return pending;
}

function countBy(answers: Timed[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const answer of answers) counts[answer.status] = (counts[answer.status] ?? 0) + 1;
  return counts;
}

const unavailable = { statusCode: 503, message: messages.unavailable, code: 'SERVICE_UNAVAILABLE' };

function assertSpanish503(answer: Timed) {
  assert.deepEqual(answer.body, unavailable, `${answer.path}: ${JSON.stringify(answer.body)}`);
  assert.equal(answer.headers?.get('x-content-type-options'), 'nosniff', `${answer.path} carries the security headers`);
  assert.match(answer.headers?.get('content-security-policy') ?? '', /default-src 'none'/);
}

const databaseTimeoutMs = 2_000;
const requestTimeoutMs = 4_000;
/** Scheduling on a busy 2-core machine, as loaded as it is now. */
const slackMs = scaled(1_500);

let cluster: PostgresCluster;
let api: ApiProcess | undefined;
const dataDir = mkdtempSync(join(tmpdir(), 'portal-faults-hang-'));

describe('faults-hang.test.ts', () => {
  before(async () => {
    cluster = await createPostgresCluster();
    api = await startApi({
      DATABASE_URL: cluster.url,
      DATA_DIR: dataDir,
      SMTP_URL: undefined,
      REDIS_URL: undefined,
      LOG_LEVEL: 'warn',
      DATABASE_TIMEOUT_MS: String(databaseTimeoutMs),
      REQUEST_TIMEOUT_MS: String(requestTimeoutMs),
      LOGIN_RATE_LIMIT_PER_MINUTE: '10000',
      AUTH_RATE_LIMIT_PER_MINUTE: '10000',
    });
  });

  after(async () => {
    await cluster?.thaw();
    if (api && api.child.exitCode !== null) process.stderr.write(`API exited:\n${api.output()}\n`);
    await api?.stop();
    await cluster?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  describe('a PostgreSQL server that hangs', () => {
    it('answers every request within REQUEST_TIMEOUT_MS (503 in Spanish), /health within its 2 s, and serves again after SIGCONT', async (t) => {
      const pid = api!.child.pid;
      // Ten connections open and pooled, as under traffic: the next calls take them and then hang with the server.
      const warm = await Promise.all(
        Array.from({ length: 12 }, (_, i) => timedCall(api!, ...(calls[i % calls.length]! as [string, unknown?]))),
      );
      assert.deepEqual(
        warm.map((answer) => answer.status).filter((status) => status >= 500 || status === 0),
        [],
      );
      const linesBefore = logLines(api!, 40).length;

      const frozenPids = await cluster.freeze();
      assert.ok(frozenPids.length >= 3, `the postmaster and its processes: ${frozenPids.length}`);
      // 80 calls, 10 a second, against the frozen server: 8 s or more.
      const sent = await traffic(api!, 10, 80);
      // Still frozen while the last calls wait for their answers (or past their bound, if they hang).
      await Promise.race([Promise.all(sent), sleep(requestTimeoutMs + slackMs)]);
      await cluster.thaw();
      const answers = await Promise.all(sent);

      const slowest = (list: Timed[]) => Math.round(Math.max(...list.map((answer) => answer.ms)));
      t.diagnostic(
        `frozen: ${answers.length} calls, slowest ${slowest(answers)} ms, slowest /health ` +
          `${slowest(answers.filter((answer) => answer.path === '/health'))} ms, statuses ${JSON.stringify(countBy(answers))}`,
      );
      for (const answer of answers) {
        assert.ok(
          answer.ms <= requestTimeoutMs + slackMs,
          `${answer.path} answered after ${Math.round(answer.ms)} ms (status ${answer.status})`,
        );
        assert.ok(
          [200, 503].includes(answer.status),
          `${answer.path} answered ${answer.status}: ${JSON.stringify(answer.body)}`,
        );
        if (answer.status === 503) assertSpanish503(answer);
      }
      const health = answers.filter((answer) => answer.path === '/health');
      assert.ok(
        health.every((answer) => answer.status === 503),
        'the balancer hears that this instance cannot serve',
      );
      const slowestHealth = Math.max(...health.map((answer) => answer.ms));
      assert.ok(slowestHealth <= 2_000 + slackMs, `/health answered after ${Math.round(slowestHealth)} ms`);
      // Calls that need the database were refused (none of them hung and none got a 500).
      assert.ok(answers.filter((answer) => answer.status === 503).length >= answers.length / 2);

      // The same process serves again once the server runs.
      await waitFor(
        'the API to serve after SIGCONT',
        async () => (await timedCall(api!, '/apps/listar')).status === 200,
        20_000,
      );
      const again = await Promise.all(calls.map(([path, body]) => timedCall(api!, path, body)));
      assert.deepEqual(
        again.map((answer) => answer.status),
        [200, 200, 401, 200],
      );
      assert.equal(api!.child.exitCode, null);
      assert.equal(api!.child.pid, pid);

      // The outage was told once, when it started and when it ended.
      const lines = logLines(api!, 40).slice(linesBefore);
      await waitFor(
        'the end of the outage in the log',
        () => logLines(api!, 40).some((line) => line.msg === 'database available again'),
        10_000,
      );
      assert.deepEqual(
        lines.filter((line) => line.level >= 50).map((line) => line.msg),
        ['database unavailable: requests are answered 503 until it is back'],
      );
    });
  });

  describe('a PostgreSQL server that is down', () => {
    it('logs the outage once when it starts, with its cause, and once when it ends, with the count of refused requests', async (t) => {
      const linesBefore = logLines(api!, 0).length;
      const warnBefore = logLines(api!, 40).length;
      const errorBefore = logLines(api!, 50).length;
      const outputBefore = api!.output().length;
      await cluster.stop();
      let sent: Array<Promise<Timed>>;
      try {
        // 125 calls, 25 a second (5 s or more): a stack trace each would be 125 error lines.
        sent = await traffic(api!, 25, 125);
      } finally {
        await cluster.start();
      }
      const answers = await Promise.all(sent);
      const refused = answers.filter((answer) => answer.status === 503);
      await sleep(3_000); // the end of the outage is told after the server is back
      const written = api!.output().slice(outputBefore);
      t.diagnostic(
        `down: ${refused.length} refused; warn+ lines ${logLines(api!, 40).length - warnBefore}, ` +
          `error lines ${logLines(api!, 50).length - errorBefore}, ${written.length} bytes of log`,
      );
      assert.ok(refused.length >= 50, `${refused.length} refused`);
      for (const answer of refused) assertSpanish503(answer);

      const ended = await waitFor(
        'the end of the outage in the log',
        () =>
          logLines(api!, 0)
            .slice(linesBefore)
            .find((line) => line.msg === 'database available again'),
        15_000,
      );
      const lines = logLines(api!, 40).slice(linesBefore);
      const errors = lines.filter((line) => line.level >= 50);
      assert.equal(
        errors.length,
        1,
        `one error line for the whole outage, not one per request:\n${errors.map((line) => line.msg).join('\n')}`,
      );
      assert.equal(errors[0]!.msg, 'database unavailable: requests are answered 503 until it is back');
      assert.match(JSON.stringify(errors[0]!.err), /ECONNREFUSED|terminat|shut/i, 'with its cause');
      assert.equal(
        lines.length,
        2,
        `only the start and the end at warn level or above:\n${lines.map((line) => line.msg).join('\n')}`,
      );
      assert.equal(ended.level, 40);
      assert.equal(ended.refusedRequests, refused.length, 'the end tells how many requests were refused');
      assert.ok(Number(ended.durationMs) >= 5_000);
    });
  });

  describe('PGlite held by a transaction that never ends', () => {
    it("bounds the session state's barrier: it stops trusting memory instead of waiting for ever", {
      timeout: 30_000,
    }, async () => {
      const t = await buildTestApp('pglite', {}, { waitForChannel: false });
      let release = () => {};
      try {
        // The memory is trusted once a ping came back lately; a busy machine can keep the first ones waiting.
        await waitFor('the memory in use before the database is held', () => t.app.sessionState.serving, 20_000, 20);
        const held = t.app.database.transaction(
          () =>
            new Promise<void>((resolve) => {
              release = resolve;
            }),
        );
        const started = performance.now();
        await Promise.race([
          t.app.sessionState.sync(),
          sleep(10_000).then(() => {
            throw new Error('the barrier waited for the transaction');
          }),
        ]);
        const ms = performance.now() - started;
        assert.ok(ms < 2_000 + slackMs, `returned after ${Math.round(ms)} ms`);
        assert.equal(t.app.sessionState.serving, false, 'memory no longer used until the channel is back');
        release();
        await held;
      } finally {
        release();
        await t.close();
      }
    });

    it('answers the requests waiting behind it, reads and writes, with the Spanish 503 within REQUEST_TIMEOUT_MS', {
      timeout: 30_000,
    }, async () => {
      // Requests as they come, without the suites' wait for the session-state channel (its barrier would wait behind the
      // transaction too, and this test is about what a person gets).
      const t = await buildTestApp('pglite', { requestTimeoutMs: 1_000 }, { waitForChannel: false });
      let release = () => {};
      try {
        // Signed in and served from memory before the hold: the logout below reaches its database write and its barrier.
        const token = await login(t.app);
        const me = { authorization: `Bearer ${token}` };
        assert.equal((await t.app.inject({ method: 'GET', url: '/auth/user', headers: me })).statusCode, 200);
        // PGlite runs one statement at a time: a transaction kept open makes every other query wait for it.
        const held = t.app.database.transaction(
          () =>
            new Promise<void>((resolve) => {
              release = resolve;
            }),
        );
        const started = performance.now();
        const answered = Promise.all([
          t.app.inject({ method: 'GET', url: '/apps/listar' }),
          t.app.inject({ method: 'GET', url: '/health' }),
          t.app.inject({ method: 'POST', url: '/auth/logout', headers: me }),
        ]);
        const [list, health, logout] = await Promise.race([
          answered,
          sleep(10_000).then(() => {
            throw new Error('no answer within 10 s: the requests wait for the transaction');
          }),
        ]);
        const ms = performance.now() - started;
        assert.ok(ms < 1_000 + slackMs, `answered after ${Math.round(ms)} ms`);
        for (const response of [list, health, logout]) {
          assert.equal(response.statusCode, 503);
          assert.deepEqual(response.json(), unavailable);
          assert.equal(response.headers['x-content-type-options'], 'nosniff');
        }
        // Liveness needs no database: the process is fine, only readiness (/health) says otherwise.
        const live = await t.app.inject({ method: 'GET', url: '/health/live' });
        assert.equal(live.statusCode, 200);
        assert.deepEqual(live.json(), { status: 'ok' });
        release();
        await held;
        assert.equal((await t.app.inject({ method: 'GET', url: '/apps/listar' })).statusCode, 200);
      } finally {
        release();
        await t.close();
      }
    });
  });
});
