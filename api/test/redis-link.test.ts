import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import { HttpError } from '../src/lib/errors.js';
import { persistenceOf } from '../src/plugins/external/redis.js';
import { testRedisUrl } from './helpers/accounts.js';
import { buildTestApp, type TestApp } from './helpers/app.js';
import { waitFor } from './helpers/processes.js';

describe('what Redis says of its persistence', () => {
  it('keeps what it is told across a restart only with the append-only file on', () => {
    assert.equal(persistenceOf('# Persistence\r\nloading:0\r\naof_enabled:1\r\naof_rewrite_in_progress:0\r\n'), true);
    assert.equal(
      persistenceOf('# Persistence\r\nloading:0\r\naof_enabled:0\r\nrdb_changes_since_last_save:3\r\n'),
      false,
    );
    assert.equal(persistenceOf('# Persistence\r\nloading:0\r\n'), false, 'an INFO without the field');
    assert.equal(persistenceOf('aof_enabled:10\r\n'), false, 'the whole value, not its first digit');
  });
});

describe('the Redis link judging a reply', () => {
  let api: TestApp;
  let redis: Redis;
  before(async () => {
    api = await buildTestApp('pglite', {
      redisUrl: testRedisUrl,
      redisKeyPrefix: `link-${randomBytes(4).toString('hex')}:`,
    });
    redis = new Redis(testRedisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
    await redis.connect();
  });
  after(async () => {
    redis.disconnect();
    await api?.close();
  });

  it("keeps a script's error a bug of ours (a 500), not an outage that would refuse everyone's sign-in", async () => {
    const link = api.app.redisLink;
    assert.ok(link);
    await assert.rejects(
      link.call(() => redis.eval("return redis.error_reply('ERR the script failed')", 0)),
      (error: Error) => !(error instanceof HttpError) && /the script failed/.test(error.message),
    );
    assert.equal(link.up, true);
    assert.equal(link.outages, 0);
    assert.equal(await link.call(() => redis.ping()), 'PONG', 'the next command goes to Redis');
  });

  it('takes a live Redis that says "not now" (loading its data) for an outage: 503 at once, until a probe finds it back', async () => {
    const link = api.app.redisLink;
    assert.ok(link);
    await assert.rejects(
      link.call(() => redis.eval("return redis.error_reply('LOADING Redis is loading the dataset in memory')", 0)),
      (error: HttpError) => error.statusCode === 503 && error.code === 'SERVICE_UNAVAILABLE' && error.retryAfter === 5,
    );
    assert.equal(link.up, false);
    assert.equal(link.outages, 1);
    let sent = false;
    await assert.rejects(
      link.call(async () => {
        sent = true;
        return redis.ping();
      }),
      (error: HttpError) => error.statusCode === 503,
    );
    assert.equal(sent, false, 'nothing is sent to Redis during the outage');
    // A probe every 250 ms: the bound only stops a hung test.
    await waitFor('the probe to end the outage', () => link.up, 20_000, 50);
    assert.equal(await link.call(() => redis.ping()), 'PONG');
  });
});
