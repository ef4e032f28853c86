// Redis away, on real processes: the API (`node api/dist/server.js`) on each backend, with a Redis server of this file's
// own that is killed, frozen and started again (helpers/redis-server.ts). What a Redis outage means is decided in
// docs/decisions/0065-redis-away-and-restarted.md: refused at once with the Spanish 503, never let through. "At once"
// is shown as an order, whatever the machine's load: no request's deadline fired (the API logs each one that does), and
// every 503 is the outage's refusal, with its Retry-After, which the deadline's 503 never carries.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { messages } from '../src/lib/errors.js';
import { registration } from './helpers/accounts.js';
import { adminEmail, adminPassword, type Backend, forEachBackend } from './helpers/app.js';
import { generateEcKeyPem } from './helpers/keys.js';
import {
  type Answer,
  call,
  freePort,
  logLines,
  sleep,
  startApi,
  waitFor,
  type ApiProcess,
} from './helpers/processes.js';
import { type RedisServer, startRedisServer } from './helpers/redis-server.js';

const signIn = (api: ApiProcess, password = adminPassword, email = adminEmail) =>
  call(api.url, 'POST', '/auth/login', { email, password });

/** A metric's value from the instance's metrics listener (0 when absent). */
async function metric(metricsUrl: string, name: string): Promise<number> {
  const text = await (await fetch(`${metricsUrl}/metrics`)).text();
  const line = text.split('\n').find((row) => row.startsWith(`${name} `));
  return line ? Number(line.split(' ')[1]) : 0;
}

/** The database a backend's API process uses: a folder of its own (PGlite) or a database of its own (PostgreSQL). */
async function databaseFor(backend: Backend): Promise<{ env: Record<string, string>; drop(): Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-faults-redis-'));
  if (backend === 'pglite') {
    return { env: { DATA_DIR: dataDir }, drop: async () => rmSync(dataDir, { recursive: true, force: true }) };
  }
  const server = new URL(process.env.DATABASE_URL as string);
  const name = `portal_redis_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: server.href });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(server.href);
  url.pathname = `/${name}`;
  return {
    env: { DATA_DIR: dataDir, DATABASE_URL: url.href },
    async drop() {
      rmSync(dataDir, { recursive: true, force: true });
      const client = new pg.Client({ connectionString: server.href });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

const unavailable = { statusCode: 503, message: messages.unavailable, code: 'SERVICE_UNAVAILABLE' };
/** The request deadline (REQUEST_TIMEOUT_MS); each request it answers is logged as timed out (error-handler.ts). */
const deadlineMs = 8_000;

/** The log lines of requests whose deadline fired, since `from` lines. */
const timedOut = (api: ApiProcess, from = 0) =>
  logLines(api)
    .slice(from)
    .filter((line) => line.msg.startsWith('Request timed out'))
    .map((line) => line.msg);

forEachBackend((backend) => {
  let redis: RedisServer;
  let api: ApiProcess;
  let metricsUrl: string;
  let database: Awaited<ReturnType<typeof databaseFor>>;

  before(async () => {
    [redis, database] = await Promise.all([startRedisServer(), databaseFor(backend)]);
    const metricsPort = await freePort();
    metricsUrl = `http://127.0.0.1:${metricsPort}`;
    api = await startApi({
      ...database.env,
      REDIS_URL: redis.url,
      REDIS_KEY_PREFIX: `faults-redis-${randomBytes(4).toString('hex')}:`,
      JWT_PRIVATE_KEY: generateEcKeyPem(),
      ADMIN_EMAIL: adminEmail,
      ADMIN_PASSWORD: adminPassword,
      ADMIN_SECOND_FACTOR: 'optional',
      METRICS_PORT: String(metricsPort),
      REQUEST_TIMEOUT_MS: String(deadlineMs),
      LOGIN_RATE_LIMIT_PER_MINUTE: '10000',
      AUTH_RATE_LIMIT_PER_MINUTE: '10000',
    });
  });

  after(async () => {
    if (api?.child.exitCode !== null && api) process.stderr.write(`API exited:\n${api.output()}\n`);
    await api?.stop();
    await Promise.all([redis?.close(), database?.drop()]);
  });

  describe('Redis away', () => {
    it('refuses what needs a counter at once with the Spanish 503 and Retry-After, keeps signed-in people served, and serves again within seconds of Redis', async () => {
      const token = (await signIn(api)).body?.access_token;
      assert.ok(token, 'the administrator signs in while Redis is up');

      type Kind = 'login' | 'wrong' | 'register' | 'user';
      type Phase = 'up' | 'down' | 'back';
      let phase: Phase = 'up';
      let running = true;
      const answers: Array<Answer & { kind: Kind; phase: Phase }> = [];
      const traffic = (kind: Kind, request: (i: number) => Promise<Answer>) =>
        (async () => {
          for (let i = 0; running && i < 400; i++) {
            const at = phase;
            answers.push({ ...(await request(i)), kind, phase: at });
            await sleep(20);
          }
        })();
      const run = `${randomBytes(3).toString('hex')}`;
      const clients = [
        traffic('login', () => signIn(api)),
        traffic('wrong', (i) => signIn(api, 'clave-equivocada', `nadie-${run}-${i}@portal.test`)),
        traffic('register', (i) =>
          call(api.url, 'POST', '/auth/register', registration(`nueva-${run}-${i}@portal.test`)),
        ),
        traffic('user', () => call(api.url, 'GET', '/auth/user', undefined, token)),
      ];

      await sleep(800);
      await redis.kill('SIGKILL');
      phase = 'down';
      await sleep(1_500);
      const ready = await call(api.url, 'GET', '/health/ready');
      const metricsDown = {
        up: await metric(metricsUrl, 'portal_redis_up'),
        refused: await metric(metricsUrl, 'portal_redis_refused_requests_total'),
      };
      await sleep(1_500);
      await redis.start();
      phase = 'back';
      const backAt = performance.now();
      await waitFor('a sign-in once Redis is back', async () => (await signIn(api)).status === 200, 20_000, 100);
      const recoveredMs = performance.now() - backAt;
      await sleep(500);
      running = false;
      await Promise.all(clients);

      const during = answers.filter((answer) => answer.phase === 'down');
      const summary = (list: typeof answers) => {
        const groups = new Map<string, number[]>();
        for (const answer of list) {
          const key = `${answer.kind} ${answer.status}`;
          groups.set(key, [...(groups.get(key) ?? []), answer.ms]);
        }
        return [...groups]
          .map(([key, ms]) => `${key} ×${ms.length} (max ${Math.round(Math.max(...ms))} ms)`)
          .join(', ');
      };
      process.stdout.write(
        `# ${backend}, Redis killed for 3 s: ${summary(during)}; back in ${Math.round(recoveredMs)} ms\n`,
      );

      // Nothing broke and nothing was held: no 500, no answer at the deadline, on any path, in any phase.
      const broken = answers.filter((answer) => answer.status === 0 || (answer.status >= 500 && answer.status !== 503));
      assert.deepEqual(broken, [], 'no 500 and no hang');
      // A refusal is at once: none waited for its deadline (an answer that does the work, a password hashed, may take
      // longer on a busy machine, but not that long either), and every 503 is the outage's own, with its Retry-After.
      assert.deepEqual(timedOut(api), [], 'no answer held until the deadline');
      assert.deepEqual(
        answers
          .filter((answer) => answer.status === 503 && !(Number(answer.retryAfter) >= 1))
          .map((answer) => `${answer.kind} ${Math.round(answer.ms)} ms`),
        [],
        "every 503 the outage's refusal, not the deadline's",
      );
      // While Redis is away: what needs a counter is refused in Spanish, with a time to come back; never let in.
      const needsCounter = during.filter((answer) => answer.kind !== 'user');
      assert.ok(needsCounter.length >= 6, `traffic while Redis was away: ${needsCounter.length} answers`);
      const refused = needsCounter.filter((answer) => answer.status === 503);
      assert.ok(refused.length >= needsCounter.length - 3, `refused while away: ${summary(needsCounter)}`);
      for (const answer of refused) {
        assert.deepEqual({ ...answer.body, retryAfter: undefined }, { ...unavailable, retryAfter: undefined });
        assert.ok(Number(answer.retryAfter) >= 1, 'a Retry-After header');
      }
      assert.deepEqual(
        needsCounter.filter(
          (answer) => answer.status !== 503 && answer.status !== 200 && answer.status !== 201 && answer.status !== 401,
        ),
        [],
      );
      // A signed-in person needs no counter: their session keeps being answered.
      assert.deepEqual(
        answers.filter((answer) => answer.kind === 'user' && answer.status !== 200).map((answer) => answer.status),
        [],
      );
      // Said once at warn, with its end; counted; readiness says Redis is away.
      const lines = logLines(api);
      const away = lines.filter((line) => line.msg.startsWith('redis unavailable'));
      assert.equal(away.length, 1, 'one warn line for the outage');
      assert.equal(away[0]?.level, 40);
      assert.equal(lines.filter((line) => line.msg === 'redis available again').length, 1);
      assert.equal(metricsDown.up, 0);
      assert.ok(metricsDown.refused > 0);
      assert.equal(await metric(metricsUrl, 'portal_redis_up'), 1);
      // Still ready (every instance shares Redis: taking them all out would stop what works), saying what is down.
      assert.equal(ready.status, 200);
      assert.deepEqual(ready.body, { status: 'degraded', database: 'ok', redis: 'down' });
      assert.deepEqual((await call(api.url, 'GET', '/health/ready')).body, {
        status: 'ok',
        database: 'ok',
        redis: 'ok',
      });
      // Back: the sign-in of someone who got a 503 works, and wrong passwords are counted again.
      assert.equal((await signIn(api)).status, 200);
    });

    it('answers a frozen Redis (no answer at all) with the 503 at once, and serves again once it thaws', async (t) => {
      const linesBefore = logLines(api).length;
      redis.freeze();
      try {
        // Each waits for Redis's answer until the command's own bound (1 s), long before the request's deadline.
        const tries = await Promise.all(Array.from({ length: 6 }, () => signIn(api)));
        const statuses = tries.map((answer) => answer.status);
        assert.deepEqual(statuses, Array(6).fill(503), JSON.stringify(tries.map((t) => t.body)));
        for (const answer of tries) assert.ok(Number(answer.retryAfter) >= 1, "the outage's refusal, with Retry-After");
        // Refused without asking Redis again while the outage lasts: sooner than any that had to wait for Redis.
        const later = await signIn(api);
        t.diagnostic(
          `refused after ${tries.map((answer) => Math.round(answer.ms)).join(', ')} ms, then ${Math.round(later.ms)} ms`,
        );
        assert.equal(later.status, 503);
        assert.ok(Number(later.retryAfter) >= 1);
        assert.ok(later.ms < Math.min(...tries.map((answer) => answer.ms)), 'refused without waiting for Redis');
        assert.deepEqual(timedOut(api, linesBefore), [], 'no answer held until the deadline');
      } finally {
        redis.thaw();
      }
      await waitFor('a sign-in once Redis thaws', async () => (await signIn(api)).status === 200, 20_000, 100);
    });

    it('says at start that this Redis keeps nothing on disk, so a restart would forget the sign-in locks', async () => {
      const warning = logLines(api).filter((line) => line.msg.startsWith('redis keeps nothing on disk'));
      assert.equal(warning.length, 1);
      assert.equal(warning[0]?.level, 40);
      assert.equal(await metric(metricsUrl, 'portal_redis_persistent'), 0);
    });
  });
});

describe('a Redis with an append-only file, as docs/operations.md asks', () => {
  let redis: RedisServer;
  let api: ApiProcess;
  let database: Awaited<ReturnType<typeof databaseFor>>;

  before(async () => {
    [redis, database] = await Promise.all([startRedisServer({ appendonly: true }), databaseFor('pglite')]);
    api = await startApi({
      ...database.env,
      REDIS_URL: redis.url,
      JWT_PRIVATE_KEY: generateEcKeyPem(),
      ADMIN_EMAIL: adminEmail,
      ADMIN_PASSWORD: adminPassword,
      ADMIN_SECOND_FACTOR: 'optional',
      LOGIN_RATE_LIMIT_PER_MINUTE: '10000',
      AUTH_RATE_LIMIT_PER_MINUTE: '10000',
    });
  });

  after(async () => {
    await api?.stop();
    await Promise.all([redis?.close(), database?.drop()]);
  });

  it('keeps a sign-in lock through a restart of Redis, killed or shut down', async () => {
    assert.equal(
      logLines(api).filter((line) => line.msg.startsWith('redis keeps nothing on disk')).length,
      0,
      'no warning for a Redis that keeps its file',
    );
    for (let i = 0; i < 12; i++) assert.equal((await signIn(api, `equivocada-${i}`)).status, 401);
    // The right password gets the wrong one's answer during the lock, with the time to wait.
    const locked = await signIn(api);
    assert.equal(locked.status, 401, 'the right password is refused during the lock');
    assert.ok(Number(locked.retryAfter) > 0);

    // Every second, Redis writes its file to disk (appendfsync everysec): a kill after that loses nothing.
    await sleep(1_500);
    await redis.kill('SIGKILL');
    await redis.start();
    await waitFor('Redis back for the API', async () => (await signIn(api)).status !== 503, 20_000, 100);
    const afterKill = await signIn(api);
    assert.equal(afterKill.status, 401, 'still locked after kill -9');
    assert.ok(Number(afterKill.retryAfter) > 0);

    await redis.kill('SIGTERM');
    await redis.start();
    await waitFor('Redis back for the API', async () => (await signIn(api)).status !== 503, 20_000, 100);
    const afterShutdown = await signIn(api);
    assert.equal(afterShutdown.status, 401, 'still locked after a shutdown');
    assert.ok(Number(afterShutdown.retryAfter) > 0);
  });
});
