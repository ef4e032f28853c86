// Brute-force limits under concurrent bursts: every attempt takes its slot before the password or code is looked at,
// so a burst fired all at once gets no more evaluations than the same requests sent one after another. Run on each
// backend with one instance (counters in memory), and on two instances sharing PostgreSQL and Redis.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { generate } from 'otplib';
import { accountCodes } from '../src/db/schema.js';
import { serviceUnavailable } from '../src/lib/errors.js';
import {
  accountThrottleThreshold,
  lockoutThreshold,
  maxWrongCodesPerDay,
} from '../src/domain/sign-in-limits/limits.js';
import { maxCodeAttempts } from '../src/domain/account-codes/codes.js';
import { SIGN_IN_TICKET_TRIES } from '../src/domain/second-factor/sign-in-tickets.js';
import { testRedisUrl } from './helpers/accounts.js';
import { backends, buildTestApp, buildTestAppPair, createUser, forEachBackend, type TestApp } from './helpers/app.js';

const password = 'clave-de-la-cuenta';
const limitsOff = { authRateLimitPerMinute: 100_000, loginRateLimitPerMinute: 100_000 };

/** Counts the argon2 verifications of every instance: what a burst really got evaluated. */
function countVerifications(apps: FastifyInstance[]) {
  const counter = { count: 0 };
  for (const app of apps) {
    const verify = app.passwords.verify.bind(app.passwords);
    app.passwords.verify = (hash, guess) => {
      counter.count += 1;
      return verify(hash, guess);
    };
  }
  return counter;
}

/** Counts the wrong second-step codes every instance evaluated, as the metrics count them. */
function countSecondStepFailures(apps: FastifyInstance[]) {
  const counter = { count: 0 };
  for (const app of apps) {
    const signIn = app.metrics.signIn.bind(app.metrics);
    app.metrics.signIn = (method, result) => {
      if (method === 'second_step' && result === 'failure') counter.count += 1;
      signIn(method, result);
    };
  }
  return counter;
}

const signIn = (app: FastifyInstance, email: string, secret: string, remoteAddress: string) =>
  app.inject({ method: 'POST', url: '/auth/login', payload: { email, password: secret }, remoteAddress });

function defineBursts(instances: () => FastifyInstance[], tag: string) {
  const email = (name: string) => `${name}-${tag}@portal.test`;
  const on = (index: number) => instances()[index % instances().length]!;

  it('sign-ins that fail before anything is evaluated (the database gave out) count as no failure', async () => {
    const owner = email('apagon');
    for (const app of instances()) await createUser(app, { email: owner, password, status: 'active' }).catch(() => {});
    const outage = serviceUnavailable();
    const verifies = instances().map((app) => app.passwords.verify);
    for (const app of instances()) app.passwords.verify = async () => Promise.reject(outage);
    try {
      const answers = await Promise.all(
        Array.from({ length: 2 * lockoutThreshold }, (_, i) => signIn(on(i), owner, password, '203.0.113.9')),
      );
      // Each answer is the outage's 503, or, while five attempts of the address are still in flight (their
      // reservations not yet given back, as on two instances sharing Redis), the lock's 401: never a sign-in.
      const statuses = answers.map((answer) => answer.statusCode);
      assert.ok(statuses.includes(503), `the outage answered: ${statuses}`);
      assert.ok(
        statuses.every((status) => status === 503 || status === 401),
        `only the outage or the in-flight lock: ${statuses}`,
      );
    } finally {
      instances().forEach((app, i) => {
        app.passwords.verify = verifies[i]!;
      });
    }
    const after = await signIn(on(0), owner, password, '203.0.113.9');
    assert.equal(after.statusCode, 200, `the owner is not locked out by an outage: ${after.body}`);
  });

  it(`20 concurrent wrong passwords from one address: ${lockoutThreshold} evaluated, the rest get the lock`, async () => {
    const victim = email('rafaga');
    for (const app of instances()) await createUser(app, { email: victim, password, status: 'active' }).catch(() => {});
    const verifications = countVerifications(instances());
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => signIn(on(i), victim, `adivina-${i}`, '203.0.113.7')),
    );
    assert.deepEqual(new Set(answers.map((answer) => answer.statusCode)), new Set([401]));
    assert.equal(verifications.count, lockoutThreshold, 'passwords evaluated');
    assert.equal(answers.filter((answer) => answer.headers['retry-after']).length, 20 - lockoutThreshold + 1);
    const locked = await signIn(on(0), victim, password, '203.0.113.7');
    assert.equal(locked.statusCode, 401, 'even the right password waits');
    assert.equal(locked.json().message, 'Credenciales inválidas');
    assert.ok(locked.json().retryAfter > 0);
  });

  it(`60 concurrent guesses from 12 addresses: the account throttle holds at ${accountThrottleThreshold}`, async () => {
    const victim = email('distribuida');
    for (const app of instances()) await createUser(app, { email: victim, password, status: 'active' }).catch(() => {});
    // The owner's address signs in first: the account throttle lets a known address through.
    assert.equal((await signIn(on(0), victim, password, '198.51.100.250')).statusCode, 200);
    const verifications = countVerifications(instances());
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) => signIn(on(i), victim, `adivina-${i}`, `198.51.100.${i % 12}`)),
    );
    assert.deepEqual(new Set(answers.map((answer) => answer.statusCode)), new Set([401]));
    assert.equal(verifications.count, accountThrottleThreshold, 'passwords evaluated');
    const fresh = await signIn(on(1), victim, password, '192.0.2.200');
    assert.equal(fresh.statusCode, 401, 'a new address waits, right password or not');
    assert.ok(fresh.json().retryAfter > 0);
    assert.equal((await signIn(on(1), victim, password, '198.51.100.250')).statusCode, 200, 'the owner signs in');
  });

  it(`20 concurrent wrong codes on one ticket: at most ${SIGN_IN_TICKET_TRIES} evaluated`, async () => {
    const victim = email('ticket');
    const app = on(0);
    await createUser(app, { email: victim, password, status: 'active' });
    const token = (await signIn(app, victim, password, '127.0.0.1')).json<{ access_token: string }>().access_token;
    const bearer = { authorization: `Bearer ${token}` };
    const setup = await app.inject({ method: 'POST', url: '/auth/totp', headers: bearer });
    assert.equal(setup.statusCode, 200, setup.body);
    const { secret } = setup.json<{ secret: string }>();
    const epoch = Math.floor(app.clock() / 1000);
    const confirm = { code: await generate({ secret, epoch }) };
    const confirmed = await app.inject({
      method: 'POST',
      url: '/auth/totp/confirmar',
      headers: bearer,
      payload: confirm,
    });
    assert.equal(confirmed.statusCode, 200, confirmed.body);

    const first = await signIn(app, victim, password, '127.0.0.1');
    assert.equal(first.statusCode, 403, first.body);
    const { ticket } = first.json<{ ticket: string }>();
    const right = await generate({ secret, epoch: epoch + 30 });
    const wrong = (i: number) => String((Number(right) + 1 + i) % 1_000_000).padStart(6, '0');
    // Each from its own address, so that only the ticket's own limit can hold the burst.
    const failures = countSecondStepFailures(instances());
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        on(i).inject({
          method: 'POST',
          url: '/auth/login/segundo-paso',
          payload: { ticket, code: wrong(i) },
          remoteAddress: `203.0.113.${100 + i}`,
        }),
      ),
    );
    assert.deepEqual(new Set(answers.map((answer) => answer.statusCode)), new Set([401]));
    // Every evaluated wrong code is counted as a failed second step. (The account's failures on record are no
    // measure here: the burst's twentieth reservation starts the account throttle, which stays if that attempt is
    // one of those evaluated, whichever order the two instances and Redis saw them in.)
    assert.ok(failures.count <= SIGN_IN_TICKET_TRIES, `${failures.count} codes evaluated on one ticket`);
    assert.ok(failures.count > 0, 'the wrong codes were evaluated');
    const late = await on(1).inject({
      method: 'POST',
      url: '/auth/login/segundo-paso',
      payload: { ticket, code: right },
      remoteAddress: '203.0.113.99',
    });
    assert.equal(late.statusCode, 401);
    assert.equal(late.json().code, 'SIGN_IN_TICKET_EXPIRED', 'a used-up ticket takes no right code');
  });

  it(`40 concurrent wrong reset codes: at most ${maxWrongCodesPerDay} evaluated, ${maxCodeAttempts} on the code`, async () => {
    const victim = email('codigos');
    const app = on(0);
    const userId = await createUser(app, { email: victim, password, status: 'active' });
    const code = await app.codes.issue(app.db, userId, 'reset_password');
    const wrong = (i: number) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0');
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        on(i).inject({
          method: 'POST',
          url: '/auth/change-password',
          payload: { email: victim, code: wrong(i), newPassword: 'clave-nueva-9' },
          remoteAddress: `203.0.113.${i}`,
        }),
      ),
    );
    const codes = answers.map((answer) => answer.json<{ code: string }>().code);
    const dayClosed = codes.filter((answer) => answer === 'CODE_GUESSES_EXCEEDED').length;
    assert.equal(40 - dayClosed, maxWrongCodesPerDay, `answers: ${codes.join(' ')}`);
    assert.ok(codes.filter((answer) => answer === 'INVALID_CODE').length <= maxCodeAttempts - 1);
    const [row] = await app.db
      .select({ attempts: accountCodes.attempts })
      .from(accountCodes)
      .where(and(eq(accountCodes.userId, userId), eq(accountCodes.purpose, 'reset_password')));
    assert.equal(row?.attempts, maxCodeAttempts);
    const late = await on(1).inject({
      method: 'POST',
      url: '/auth/change-password',
      payload: { email: victim, code, newPassword: 'clave-nueva-9' },
    });
    assert.equal(late.statusCode, 429, 'the right code is not looked at once the day is closed');
  });
}

forEachBackend((backend) => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp(backend, limitsOff);
  });
  after(() => t.close());
  describe('one instance', () => defineBursts(() => [t.app], backend));
});

if (backends.includes('postgres')) {
  describe('two API instances sharing PostgreSQL and REDIS_URL', () => {
    const prefix = `test-concurrent-${randomBytes(4).toString('hex')}:`;
    let pair: Awaited<ReturnType<typeof buildTestAppPair>>;
    before(async () => {
      pair = await buildTestAppPair({ ...limitsOff, redisUrl: testRedisUrl, redisKeyPrefix: prefix });
    });
    after(async () => {
      await pair.close();
      const redis = new Redis(testRedisUrl);
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length > 0) await redis.del(...keys);
      await redis.quit();
    });
    defineBursts(() => [pair.a, pair.b], 'pair');
  });
}
