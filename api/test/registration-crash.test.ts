// A process killed (SIGKILL) in the middle of a registration, after the code-mail cooldown would have been taken and
// before the commit, must not leave the email without a code: the retry mails one at once. Real processes, as
// faults.test.ts: the API as `node api/dist/server.js` on a PostgreSQL server of this file's own, a real SMTP sink, and the
// machine's Redis (where the cooldown used to be reserved inside the transaction).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import pg from 'pg';
import { registration, testRedisUrl } from './helpers/accounts.js';
import { generateEcKeyPem } from './helpers/keys.js';
import { createPostgresCluster, type PostgresCluster } from './helpers/postgres-cluster.js';
import { startApi, waitFor, type ApiProcess } from './helpers/processes.js';
import { codeInReceived, startSink, type SmtpSink } from './helpers/smtp-sink.js';

let cluster: PostgresCluster | undefined;
let sink: SmtpSink;
let db: pg.Pool;
let redis: Redis;
let env: Record<string, string>;
const started: ApiProcess[] = [];
const prefix = `crash-${randomBytes(4).toString('hex')}:`;
const dataDir = mkdtempSync(join(tmpdir(), 'portal-crash-'));

describe('registration-crash.test.ts', () => {
  before(async () => {
    redis = new Redis(testRedisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
    await redis.connect();
    cluster = await createPostgresCluster();
    sink = await startSink();
    db = new pg.Pool({ connectionString: cluster.url, max: 3 });
    db.on('error', () => {});
    env = {
      DATABASE_URL: cluster.url,
      SMTP_URL: sink.url,
      MAIL_FROM: 'Portal <no-reply@portal.test>',
      REDIS_URL: testRedisUrl,
      REDIS_KEY_PREFIX: prefix,
      DATA_DIR: dataDir,
      JWT_PRIVATE_KEY: generateEcKeyPem(),
      AUTH_RATE_LIMIT_PER_MINUTE: '100',
    };
  });

  after(async () => {
    await Promise.all(started.map((api) => api.stop()));
    await db?.end().catch(() => {});
    await Promise.all([cluster?.drop(), sink?.close()]);
    rmSync(dataDir, { recursive: true, force: true });
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });

  async function api(): Promise<ApiProcess> {
    const started_ = await startApi(env);
    started.push(started_);
    return started_;
  }

  async function post(
    target: ApiProcess,
    path: string,
    body: unknown,
  ): Promise<{ status: number; body: Record<string, unknown> }> {
    const response = await fetch(`${target.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(15_000),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  const mailsTo = (email: string) => sink.received.filter((mail) => mail.to.includes(email));

  /**
   * Holds `mail_outbox` so that no mail can be written, runs `start` (a request that will write one), waits until that
   * request's transaction is stuck on the lock (everything before it done: the account row, the code, the cooldown),
   * kills the API with SIGKILL, and releases the lock: PostgreSQL rolls the dead client's transaction back.
   */
  async function killMidTransaction(target: ApiProcess, start: () => Promise<unknown>): Promise<void> {
    const blocker = await db.connect();
    try {
      await blocker.query('BEGIN');
      await blocker.query('LOCK TABLE mail_outbox IN EXCLUSIVE MODE');
      const request = start().catch(() => undefined);
      await waitFor(
        'a transaction waiting to write its mail',
        async () => {
          const { rows } = await db.query<{ n: number }>(
            "SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query ILIKE '%insert into \"mail_outbox\"%'",
          );
          return rows[0]!.n > 0;
        },
        20_000,
        50,
      );
      target.child.kill('SIGKILL');
      await request;
      await waitFor('the API to die', () => target.child.exitCode !== null || target.child.signalCode !== null);
    } finally {
      await blocker.query('ROLLBACK').catch(() => {});
      blocker.release();
    }
    // The dead client's backend ends (and its transaction is rolled back) once it finds the connection closed.
    await waitFor('the dead transaction to end', async () => {
      const { rows } = await db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM pg_stat_activity WHERE query ILIKE '%insert into \"mail_outbox\"%' AND pid <> pg_backend_pid() AND state <> 'idle'",
      );
      return rows[0]!.n === 0;
    });
  }

  describe('a registration killed before its commit', () => {
    it('leaves nothing behind: registering again mails a code at once, and that code verifies', async () => {
      const email = 'cortada@portal.test';
      await killMidTransaction(await api(), () => post(started.at(-1)!, '/auth/register', registration(email)));
      const { rows } = await db.query('SELECT 1 FROM users WHERE email = $1', [email]);
      assert.equal(rows.length, 0, 'the killed registration left no account');

      const restarted = await api();
      const again = await post(restarted, '/auth/register', registration(email));
      assert.equal(again.status, 201);
      const mails = await waitFor(`a code mail to ${email}`, () => mailsTo(email).length > 0 && mailsTo(email), 20_000);
      const code = codeInReceived(mails.at(-1)!);
      assert.ok(code);
      const verified = await post(restarted, '/auth/verify-registration', {
        email,
        code,
        registrationId: again.body.registrationId,
      });
      assert.equal(verified.status, 200, JSON.stringify(verified.body));
      assert.equal(
        (await post(restarted, '/auth/login', { email, password: registration(email).password })).status,
        200,
      );
    });

    it('a resend killed before its commit does not stop the next registration from mailing its code', async () => {
      const email = 'reenvio-cortado@portal.test';
      const first = await api();
      assert.equal((await post(first, '/auth/register', registration(email))).status, 201);
      await waitFor(`the first code mail to ${email}`, () => mailsTo(email).length === 1, 20_000);
      // Past the cooldown, a resend is answered 200 and its background work dies mid-transaction with the process.
      await redis.del(`${prefix}counter:code-cooldown:verify_email:${email}`);
      await db.query("UPDATE account_codes SET created_at = created_at - interval '2 minutes'");
      await killMidTransaction(first, async () => {
        const answer = await post(first, '/auth/resend-verification', { email });
        assert.equal(answer.status, 200);
      });
      const restarted = await api();
      // The answer already promised a code; within the minute the person is told how long to wait (no silent loss) …
      const early = await post(restarted, '/auth/resend-verification', { email });
      assert.equal(early.status, 429);
      assert.match(String(early.body.message), /^Espera \d+ segundos? antes de pedir otro código$/);
      // … and a registration meanwhile mails its code: the cooldown that counts is the one kept with the code.
      const again = await post(restarted, '/auth/register', registration(email, { password: 'otra-clave-2' }));
      assert.equal(again.status, 201);
      await waitFor(`a second code mail to ${email}`, () => mailsTo(email).length === 2, 20_000);
      const code = codeInReceived(mailsTo(email).at(-1)!);
      const verified = await post(restarted, '/auth/verify-registration', {
        email,
        code,
        registrationId: again.body.registrationId,
      });
      assert.equal(verified.status, 200, JSON.stringify(verified.body));
    });
  });
});
