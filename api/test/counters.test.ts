import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import { memoryCounterStore, redisCounterStore, type CounterStore } from '../src/domain/sign-in-limits/counters.js';
import { lockDurationMs } from '../src/domain/sign-in-limits/limits.js';
import { manualClock, post, testRedisUrl } from './helpers/accounts.js';
import { buildTestApp, createUser, forEachBackend, type TestApp } from './helpers/app.js';

const stores: Array<[string, (clock: () => number) => CounterStore]> = [
  ['memory', (clock) => memoryCounterStore(clock)],
  ['redis', (clock) => redisCounterStore(redis, `test-${randomBytes(4).toString('hex')}:`, clock)],
];

let redis: Redis;
describe('counters.test.ts', () => {
  before(async () => {
    redis = new Redis(testRedisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
    await redis.connect();
  });
  after(() => redis.quit());

  for (const [name, create] of stores) {
    describe(`${name} counter store`, () => {
      it('counts in a fixed window that opens with the first event', async () => {
        const clock = manualClock();
        const store = create(clock);
        const start = clock();
        assert.deepEqual(await store.increment('k', 1000), { count: 1, resetAt: start + 1000 });
        clock.advance(600);
        assert.deepEqual(await store.increment('k', 1000), { count: 2, resetAt: start + 1000 });
        clock.advance(400);
        assert.deepEqual(await store.increment('k', 1000), { count: 1, resetAt: start + 2000 });
        await store.delete('k');
        assert.equal((await store.increment('k', 1000)).count, 1);
      });

      it('holds a key until its time is up, unless replaced', async () => {
        const clock = manualClock();
        const store = create(clock);
        assert.equal(await store.heldFor('h'), 0);
        assert.equal(await store.hold('h', 60_000), 0);
        clock.advance(15_000);
        assert.equal(await store.hold('h', 60_000), 45_000);
        assert.equal(await store.heldFor('h'), 45_000);
        assert.equal(await store.hold('h', 5_000, true), 0);
        assert.equal(await store.heldFor('h'), 5_000);
        clock.advance(5_000);
        assert.equal(await store.heldFor('h'), 0);
        assert.equal(await store.hold('h', 1_000), 0);
        await store.delete('h');
        assert.equal(await store.heldFor('h'), 0);
      });

      it('lets exactly one of many concurrent callers take a hold', async () => {
        const store = create(manualClock());
        const answers = await Promise.all(Array.from({ length: 20 }, () => store.hold('once', 60_000)));
        assert.equal(answers.filter((answer) => answer === 0).length, 1);
      });

      it('lets no more than the threshold of many concurrent callers take a slot, and gives a slot back', async () => {
        const store = create(manualClock());
        const rule = { threshold: 3, lock: { key: 'slot-lock', ms: [1000, 2000] } };
        const answers = await Promise.all(Array.from({ length: 20 }, () => store.take('slot', 60_000, rule)));
        const taken = answers.filter((answer) => answer.taken);
        assert.equal(taken.length, 3);
        assert.equal(await store.heldFor('slot-lock'), 1000, 'the slot that reached the threshold started the lock');
        const third = taken.find((answer) => answer.count === 3)!;
        await store.giveBack('slot', third, 'slot-lock');
        assert.equal(await store.heldFor('slot-lock'), 0, 'given back, its lock is undone');
        const capped = await Promise.all(Array.from({ length: 10 }, () => store.take('cap', 60_000, { threshold: 4 })));
        assert.equal(capped.filter((answer) => answer.taken).length, 4);
      });
    });
  }

  it('answers 503 when Redis goes away, never skipping the limits', async () => {
    const lost = new Redis(testRedisUrl, { lazyConnect: true, maxRetriesPerRequest: 0, enableOfflineQueue: false });
    await lost.connect();
    lost.disconnect();
    const store = redisCounterStore(lost, 'test-lost:', manualClock());
    await assert.rejects(store.hold('k', 1000), { statusCode: 503 });
    await assert.rejects(store.increment('k', 1000), { statusCode: 503 });
  });

  it('refuses to start with a REDIS_URL nobody answers, naming the variable', async () => {
    await assert.rejects(buildTestApp('pglite', { redisUrl: 'redis://127.0.0.1:1' }), /REDIS_URL/);
  });

  it('locks for 30 s at the fifth failure, doubling to at most 15 minutes', () => {
    assert.deepEqual(
      [1, 4, 5, 6, 7, 8, 9, 10, 11, 50].map(lockDurationMs),
      [0, 0, 30_000, 60_000, 120_000, 240_000, 480_000, 900_000, 900_000, 900_000],
    );
  });

  forEachBackend((backend) => {
    describe('two API instances sharing REDIS_URL', () => {
      let first: TestApp;
      let second: TestApp;
      const clock = manualClock();
      const prefix = `test-${randomBytes(4).toString('hex')}:`;
      before(async () => {
        const shared = { redisUrl: testRedisUrl, redisKeyPrefix: prefix, authRateLimitPerMinute: 4 };
        first = await buildTestApp(backend, shared, { clock });
        second = await buildTestApp(backend, shared, { clock });
      });
      after(async () => {
        await first.close();
        await second.close();
        const keys = await redis.keys(`${prefix}*`);
        if (keys.length > 0) await redis.del(...keys);
      });

      it('share the sign-in lock', async () => {
        await createUser(first.app, { email: 'compartido@portal.test', password: 'clave-buena', status: 'active' });
        for (const t of [first, second, first, second]) {
          assert.equal(
            (await post(t.app, '/auth/login', { email: 'compartido@portal.test', password: 'mala' })).statusCode,
            401,
          );
        }
        const fifth = await post(second.app, '/auth/login', { email: 'compartido@portal.test', password: 'mala' });
        assert.equal(fifth.headers['retry-after'], '30');
        const elsewhere = await post(first.app, '/auth/login', { email: 'compartido@portal.test', password: 'mala' });
        assert.equal(elsewhere.headers['retry-after'], '30', 'the other instance sees the lock');
      });

      it('share the resend cooldown and the per-IP limits', async () => {
        assert.equal((await post(first.app, '/auth/forgot-password', { email: 'comun@portal.test' })).statusCode, 200);
        const cooled = await post(second.app, '/auth/forgot-password', { email: 'comun@portal.test' });
        assert.equal(cooled.statusCode, 429);
        assert.equal(cooled.json().code, 'CODE_COOLDOWN');

        const answers = [];
        for (const t of [first, second, first, second, first]) {
          answers.push((await post(t.app, '/auth/verificar-email', { email: 'ip@portal.test' })).statusCode);
        }
        assert.deepEqual(answers, [200, 200, 200, 200, 429]);
      });
    });
  });
});
