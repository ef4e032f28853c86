// The per-instance session memory (api/src/domain/sessions/state-cache.ts) with its channel in the test's hands:
// notifications are delivered when the test says, so the order of a change, its notification and the reads in between
// is fixed instead of left to the machine's load (the two-instance suites, session-state.test.ts, meet the same orders
// by chance).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FastifyBaseLogger } from 'fastify';
import type { ListenHandlers } from '../src/db/client.js';
import { createSessionStateCache, defaultSessionStateLimits } from '../src/domain/sessions/state-cache.js';

interface Row {
  id: number;
  status: 'active' | 'suspended';
  tokenVersion: number;
}
interface Flags {
  revoked: boolean;
}

const silent = { info() {}, debug() {}, warn() {}, error() {} } as unknown as FastifyBaseLogger;

/** A cache whose channel is up, and `deliver` to hand it a notification as the database would. */
async function cacheWithChannel() {
  let handlers: ListenHandlers | undefined;
  const cache = createSessionStateCache<Row, Flags, string>(
    {
      listen: async (_channel, given) => {
        handlers = given;
        return { pid: undefined, ping: async () => {}, close: async () => {} };
      },
    },
    async () => {},
    silent,
    defaultSessionStateLimits,
  );
  await cache.start();
  assert.equal(cache.serving, true);
  return { cache, deliver: (payload: string) => handlers?.notify(payload) };
}

describe('session memory: a read newer than the kept row', () => {
  it('a new sign-in read after a reactivation is answered as active, before the notification arrives', async () => {
    const { cache, deliver } = await cacheWithChannel();
    const suspended: Row = { id: 7, status: 'suspended', tokenVersion: 3 };
    const active: Row = { id: 7, status: 'active', tokenVersion: 3 };
    // The suspension was seen here and kept (its notification came, then a read stored the suspended row).
    deliver('7');
    cache.storeSession(cache.ticket(), 7, suspended, 'old-session', { revoked: false });
    // Another instance reactivates the account; its notification is still on the way. A new session is read here
    // from the database: the row read is the newer one, and it is what the request is answered with.
    const answered = cache.storeSession(cache.ticket(), 7, active, 'new-session', { revoked: false });
    assert.equal(answered.status, 'active');
    assert.equal(cache.session(7, 'new-session')?.user.status, 'active');
    // The entry's older sessions went with the older row: they are read again, not answered from it.
    assert.equal(cache.session(7, 'old-session'), undefined);
    // The notification arrives: nothing kept for the user any more.
    deliver('7');
    assert.equal(cache.session(7, 'new-session'), undefined);
    await cache.stop();
  });

  it('the same row read again keeps the entry and its other sessions', async () => {
    const { cache } = await cacheWithChannel();
    const row: Row = { id: 9, status: 'active', tokenVersion: 1 };
    const kept = cache.storeSession(cache.ticket(), 9, row, 'a', { revoked: false });
    const again = cache.storeSession(cache.ticket(), 9, { ...row }, 'b', { revoked: false });
    assert.equal(again, kept, 'the kept row, so the GET /auth/user answer built from it may be kept too');
    assert.ok(cache.session(9, 'a'));
    assert.ok(cache.session(9, 'b'));
    await cache.stop();
  });

  it('a read that began before a notification for its user is answered but never kept', async () => {
    const { cache, deliver } = await cacheWithChannel();
    const ticket = cache.ticket();
    deliver('5');
    const row: Row = { id: 5, status: 'active', tokenVersion: 2 };
    assert.equal(cache.storeSession(ticket, 5, row, 's', { revoked: false }), row);
    assert.equal(cache.session(5, 's'), undefined);
    await cache.stop();
  });
});
