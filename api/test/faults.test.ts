// Faults with real processes: the API runs as `node api/dist/server.js` child processes on a PostgreSQL server of this
// file's own (so it can be stopped), a real SMTP sink that is stopped and started again, and the machine's Redis.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import pg from 'pg';
import { isDatabaseUnavailable, messages } from '../src/lib/errors.js';
import { registration, testRedisUrl } from './helpers/accounts.js';
import { generateEcKeyPem } from './helpers/keys.js';
import { createPostgresCluster, type PostgresCluster } from './helpers/postgres-cluster.js';
import { type Answer, call as callWithin, sleep, startApi, waitFor, type ApiProcess } from './helpers/processes.js';
import { codeInReceived, startSink, type SmtpSink } from './helpers/smtp-sink.js';

/** One HTTP call as a client makes it: it gives up after 10 s, and then the answer counts as status 0. */
const call = (api: ApiProcess, method: string, path: string, body?: unknown, token?: string) =>
  callWithin(api, method, path, body, token, 10_000);

const password = registration('x@y.z').password as string;
const unavailable = { statusCode: 503, message: messages.unavailable, code: 'SERVICE_UNAVAILABLE' };

let cluster: PostgresCluster | undefined;
let sink: SmtpSink;
let a: ApiProcess | undefined;
let b: ApiProcess | undefined;
let db: pg.Pool;
let redis: Redis;
const prefix = `faults-${randomBytes(4).toString('hex')}:`;
const dataDir = mkdtempSync(join(tmpdir(), 'portal-faults-'));

describe('faults.test.ts', () => {
  before(async () => {
    redis = new Redis(testRedisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
    await redis.connect();
    cluster = await createPostgresCluster();
    sink = await startSink();
    db = new pg.Pool({ connectionString: cluster.url, max: 2 });
    db.on('error', () => {});
    const env = {
      DATABASE_URL: cluster.url,
      SMTP_URL: sink.url,
      MAIL_FROM: 'Portal <no-reply@portal.test>',
      REDIS_URL: testRedisUrl,
      REDIS_KEY_PREFIX: prefix,
      DATA_DIR: dataDir,
      // One signing key for both instances, as in a deployment: a token from one is valid on the other.
      JWT_PRIVATE_KEY: generateEcKeyPem(),
      // The per-IP limits are checked below with their own route; the traffic here must stay under them.
      LOGIN_RATE_LIMIT_PER_MINUTE: '200',
      AUTH_RATE_LIMIT_PER_MINUTE: '100',
    };
    [a, b] = await Promise.all([startApi(env), startApi(env)]);
  });

  after(async () => {
    // An instance that died on its own says why.
    for (const api of [a, b]) {
      if (api && api.child.exitCode !== null) process.stderr.write(`API ${api.url} exited:\n${api.output()}\n`);
    }
    await Promise.all([a?.stop(), b?.stop()]);
    await db?.end().catch(() => {});
    await Promise.all([cluster?.drop(), sink?.close()]);
    rmSync(dataDir, { recursive: true, force: true });
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });

  const mailsTo = (email: string) => sink.received.filter((mail) => mail.to.includes(email));

  /** The code of the last mail `email` got, waiting for one to arrive. */
  async function awaitCode(email: string): Promise<string> {
    const mails = await waitFor(`a mail to ${email}`, () => mailsTo(email).length > 0 && mailsTo(email), 40_000);
    const code = codeInReceived(mails.at(-1)!);
    assert.ok(code, `no code in the mail to ${email}`);
    return code;
  }

  /** Registers through `api`, verifies the mailed code through `verifier`, and answers the session's token. */
  async function activeAccount(api: ApiProcess, email: string, verifier = api): Promise<string> {
    const registered = await call(api, 'POST', '/auth/register', registration(email));
    assert.equal(registered.status, 201);
    // The registration's id makes its password the account's; without it the account has none.
    const { registrationId } = registered.body as { registrationId: string };
    const verified = await call(verifier, 'POST', '/auth/verify-registration', {
      email,
      code: await awaitCode(email),
      registrationId,
    });
    assert.equal(verified.status, 200, JSON.stringify(verified.body));
    return verified.body!.access_token!;
  }

  async function rows(table: 'users' | 'mail_outbox', column: string, emails: string[]): Promise<Set<string>> {
    const sql = `SELECT DISTINCT ${column} AS email FROM ${table} WHERE ${column} = ANY($1)`;
    const result = await db.query<{ email: string }>(sql, [emails]);
    return new Set(result.rows.map((row) => row.email));
  }

  describe('faults', () => {
    it('answers 503 in Spanish while PostgreSQL is down, writes nothing by halves, and serves again without a restart', async () => {
      const api = a!;
      const pid = api.child.pid;
      const token = await activeAccount(api, 'activa@portal.test');

      // Traffic from three clients, each one call after another, until told to stop (and never more than `cap` calls).
      type Kind = 'register' | 'login' | 'user';
      type Phase = 'up' | 'down' | 'back';
      let phase = 'up' as Phase;
      let running = true;
      const answers: Array<Answer & { kind: Kind; phase: Phase }> = [];
      const registered = new Map<string, number>();
      const traffic = (kind: Kind, cap: number, request: (i: number) => Promise<Answer>) =>
        (async () => {
          for (let i = 0; running && i < cap; i++) {
            const started = phase;
            const answer = await request(i);
            answers.push({ ...answer, kind, phase: started });
            await sleep(100);
          }
        })();
      const register = async (email: string) => {
        const answer = await call(api, 'POST', '/auth/register', registration(email));
        registered.set(email, answer.status);
        return answer;
      };
      const clients = [
        traffic('register', 40, (i) => register(`trafico-${i}@portal.test`)),
        traffic('login', 100, () => call(api, 'POST', '/auth/login', { email: 'activa@portal.test', password })),
        traffic('user', 100, () => call(api, 'GET', '/auth/user', undefined, token)),
      ];
      const answered = (kind: Kind, status: number, inPhase: Phase) =>
        answers.some((answer) => answer.kind === kind && answer.phase === inPhase && answer.status === status);
      const kinds: Array<[Kind, number]> = [
        ['register', 201],
        ['login', 200],
        ['user', 200],
      ];
      await waitFor('traffic to be served', () => kinds.every(([kind, ok]) => answered(kind, ok, 'up')));

      // Registrations caught in the middle of their transaction: held on a table lock when the server goes away. A
      // prepared transaction holds the lock, not a session: a fast shutdown ends every session in an order of its own,
      // and a session's lock freed before a waiter is told to stop would let that waiter commit its registration.
      const lock = 'faults-account-codes';
      const locker = new pg.Client({ connectionString: cluster!.url });
      locker.on('error', () => {});
      await locker.connect();
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE account_codes IN SHARE MODE');
      await locker.query(`PREPARE TRANSACTION '${lock}'`);
      await locker.end();
      const unlock = () => db.query(`ROLLBACK PREPARED '${lock}'`);
      try {
        // Two of the test's own, whether or not the traffic's registrations are still coming (they stop at their cap).
        const caught = register('atrapada@portal.test');
        const caughtToo = register('atrapada-2@portal.test');
        // A prepared transaction's lock shows as held by pid 0.
        await waitFor(
          'two registrations waiting on the lock',
          async () =>
            (
              await db.query<{ n: number }>(
                `SELECT count(*)::int AS n FROM pg_stat_activity WHERE 0 = ANY(pg_blocking_pids(pid))`,
              )
            ).rows[0]!.n >= 2,
        );

        phase = 'down';
        await cluster!.stop();
        assert.deepEqual((await caught).body, unavailable, 'the registration in flight gets the 503');
        assert.deepEqual((await caughtToo).body, unavailable, 'the registration in flight gets the 503');
        await waitFor('every kind of call to get its 503', () => kinds.every(([kind]) => answered(kind, 503, 'down')));
        const health = await call(api, 'GET', '/health');
        assert.equal(health.status, 503);
        assert.deepEqual(health.body, unavailable);
        // Answered at once (the cooldown lives in Redis); the mail is prepared afterwards, and that fails now.
        assert.equal((await call(api, 'POST', '/auth/forgot-password', { email: 'activa@portal.test' })).status, 200);

        phase = 'back';
        await cluster!.start();
        // The lock came back with the server; from here on registrations go through.
        await waitFor('the lock to be let go', unlock);
        await waitFor(
          'the same process to serve again',
          async () => (await call(api, 'GET', '/auth/user', undefined, token)).status === 200,
        );
        await waitFor('every kind of call to be served again', () =>
          kinds.every(([kind, ok]) => answered(kind, ok, 'back')),
        );
        // Both instances listen again on the channels that wake their workers (back-channel logouts, partner events):
        // the restart ended the connections that listened, and only new ones show here.
        await waitFor('both instances to listen again', async () => {
          const { rows: listening } = await db.query<{ query: string; n: number }>(
            `SELECT query, count(*)::int AS n FROM pg_stat_activity WHERE query LIKE 'LISTEN %' GROUP BY query`,
          );
          const count = (channel: string) => listening.find((row) => row.query === `LISTEN ${channel}`)?.n ?? 0;
          return count('portal_oidc_logout') === 2 && count('portal_partner_events') === 2;
        });
      } finally {
        // Whatever happened above, the other tests get their database and the traffic stops.
        running = false;
        await Promise.all(clients);
        if (phase === 'down') await cluster!.start();
        await unlock().catch(() => {});
      }

      assert.equal(api.child.exitCode, null, 'the API never stopped');
      assert.equal(api.child.pid, pid);
      for (const answer of answers) {
        assert.ok(
          [200, 201, 503].includes(answer.status),
          `${answer.kind} answered ${answer.status}: ${JSON.stringify(answer.body)}`,
        );
        if (answer.status === 503) assert.deepEqual(answer.body, unavailable);
      }
      assert.equal((await call(api, 'GET', '/health')).status, 200);
      // The code mail prepared while the database was down never left: asking again is not held by the cooldown.
      assert.equal(
        (await call(api, 'POST', '/auth/forgot-password', { email: 'activa@portal.test' })).status,
        200,
        'the cooldown of the failed background work was given back',
      );

      // Whoever got the 503 tries again, and gets an account and a code like anyone else.
      const failed = [...registered].filter(([, status]) => status === 503).map(([email]) => email);
      assert.ok(failed.includes('atrapada@portal.test') && failed.includes('atrapada-2@portal.test'));
      assert.deepEqual(await rows('users', 'email', failed), new Set(), 'a registration answered 503 left no account');
      assert.deepEqual(await rows('mail_outbox', 'recipient', failed), new Set(), 'nor a mail');
      for (const email of failed) {
        assert.equal(
          (await call(api, 'POST', '/auth/register', registration(email))).status,
          201,
          `${email} registers again`,
        );
      }
      // Nothing by halves: every email has its account and its code mail, and every code verifies.
      const emails = [...registered.keys()];
      assert.deepEqual(await rows('users', 'email', emails), new Set(emails));
      assert.deepEqual(await rows('mail_outbox', 'recipient', emails), new Set(emails));
      for (const email of emails) {
        const verified = await call(api, 'POST', '/auth/verify-registration', { email, code: await awaitCode(email) });
        assert.equal(verified.status, 200, `${email}: ${JSON.stringify(verified.body)}`);
      }
    });

    it('tells a database that went away or is still starting from a query it rejected', () => {
      // node-postgres's errors as opening a transaction's connection raises them, unwrapped (seen above as 500s).
      const starting = Object.assign(new Error('the database system is starting up'), { code: '57P03' });
      assert.equal(isDatabaseUnavailable(starting), true);
      assert.equal(isDatabaseUnavailable(new Error('Connection terminated unexpectedly')), true);
      assert.equal(isDatabaseUnavailable(new Error('timeout exceeded when trying to connect')), true);
      assert.equal(isDatabaseUnavailable(Object.assign(new Error('duplicate key value'), { code: '23505' })), false);
      assert.equal(isDatabaseUnavailable(new Error('Cannot read properties of undefined')), false);
    });

    it('registers everyone while SMTP is down and delivers every code mail once it is back', async () => {
      const api = a!;
      await sink.stop();
      const emails = Array.from({ length: 10 }, (_, i) => `sin-correo-${i}@portal.test`);
      const answers = await Promise.all(
        emails.map((email) => call(api, 'POST', '/auth/register', registration(email))),
      );
      assert.deepEqual(
        answers.map((answer) => answer.status),
        emails.map(() => 201),
      );
      // Each mail was tried (and refused) while the sink was down, and waits in the outbox.
      await waitFor(
        'a failed delivery attempt for every mail',
        async () =>
          (
            await db.query<{ n: number }>(
              'SELECT count(*)::int AS n FROM mail_outbox WHERE recipient = ANY($1) AND attempts >= 1 AND sent_at IS NULL',
              [emails],
            )
          ).rows[0]!.n === emails.length,
      );
      assert.deepEqual(
        emails.filter((email) => mailsTo(email).length > 0),
        [],
      );

      await sink.start();
      for (const email of emails) {
        const verified = await call(api, 'POST', '/auth/verify-registration', { email, code: await awaitCode(email) });
        assert.equal(verified.status, 200, `${email}: ${JSON.stringify(verified.body)}`);
      }
      assert.deepEqual(
        emails.map((email) => mailsTo(email).length),
        emails.map(() => 1),
        'each mail arrives once',
      );
    });

    describe('two API instances on one PostgreSQL and one Redis', () => {
      it('share the sign-in lock', async () => {
        await activeAccount(a!, 'bloqueo@portal.test', b!);
        const bad = { email: 'bloqueo@portal.test', password: 'incorrecta' };
        const failures = [];
        for (const api of [a!, b!, a!, b!, a!]) failures.push(await call(api, 'POST', '/auth/login', bad));
        assert.deepEqual(
          failures.map((answer) => answer.status),
          [401, 401, 401, 401, 401],
        );
        assert.equal(failures[4]!.retryAfter, '30', 'the fifth failure locks');
        const right = await call(b!, 'POST', '/auth/login', { email: 'bloqueo@portal.test', password });
        assert.equal(right.status, 401, 'the lock holds on the other instance, even with the right password');
        assert.equal(right.body?.message, 'Credenciales inválidas');
        assert.ok(Number(right.retryAfter) > 0);
      });

      it('count the per-IP limit across both', async () => {
        const statuses = [];
        for (let i = 0; i < 100; i++) {
          statuses.push(
            (await call(i % 2 ? b! : a!, 'POST', '/auth/verificar-email', { email: `ip-${i}@portal.test` })).status,
          );
        }
        assert.deepEqual(
          statuses,
          statuses.map(() => 200),
        );
        for (const api of [a!, b!]) {
          const over = await call(api, 'POST', '/auth/verificar-email', { email: 'ip@portal.test' });
          assert.equal(over.status, 429);
          assert.match(over.body?.message ?? '', /^Demasiadas solicitudes\. Inténtalo de nuevo en \d+ segundos\.$/);
        }
      });

      it('refuse on one a token revoked on the other', async () => {
        const login = await call(b!, 'POST', '/auth/login', { email: 'activa@portal.test', password });
        assert.equal(login.status, 200);
        const token = login.body!.access_token!;
        assert.equal((await call(a!, 'GET', '/auth/user', undefined, token)).status, 200);
        assert.equal((await call(a!, 'POST', '/auth/logout', undefined, token)).status, 204);
        const refused = await call(b!, 'GET', '/auth/user', undefined, token);
        assert.equal(refused.status, 401);
        assert.equal(refused.body?.message, messages.unauthenticated);
      });
    });
  });
});
