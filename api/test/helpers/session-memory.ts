// A test app's session memory (domain/sessions/state-cache.ts) and what is kept beside it, as the suites about them
// watch it: made to answer from memory, and a change seen through its channel before the memory's own expiry could have
// shown it (docs/decisions/0167-tests-and-the-clock.md): an order, not a number of milliseconds.
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { keptTokenMs, tokenMemoryOf } from '../../src/domain/companies/scim/token-memory.js';
import { defaultSessionStateLimits } from '../../src/domain/sessions/state-cache.js';
import { waitFor } from './processes.js';

/**
 * Asks `ask` until one of its requests is answered from `app`'s memory (the hit counter moves). The notifications of
 * the writes just made may still be on their way and empty the entry once more; a busy machine may delay the ping the
 * memory's trust needs. The bound only stops a hung test.
 */
export async function answeredFromMemory(app: FastifyInstance, ask: () => Promise<unknown>): Promise<void> {
  await waitFor(
    'an answer from memory',
    async () => {
      const hits = app.sessionState.stats.hits;
      await ask();
      return app.sessionState.stats.hits > hits;
    },
    20_000,
    5,
  );
}

/**
 * `seen` asks until `changed` holds, failing once `expiresFrom` (epoch ms) has come: a memory whose entries live until
 * no sooner than then could have shown the change by itself, so a change seen in time came through the channel (or
 * from the memory no longer trusting a silent one), never from time passing. It answers the milliseconds it took, for
 * the record.
 */
function beforeExpiry(expiresFrom: number) {
  return {
    async seen(what: string, changed: () => Promise<boolean>): Promise<number> {
      const started = performance.now();
      for (;;) {
        // A request answered from memory never waits on I/O, so back-to-back injects would keep the event loop from
        // ever reading the listener's socket; a real request arrives through I/O, which lets it. Yield as one would.
        await new Promise((resolve) => setImmediate(resolve));
        const shown = await changed();
        assert.ok(Date.now() < expiresFrom, `${what}: not seen before the memory's own expiry could have shown it`);
        if (shown) return performance.now() - started;
      }
    },
  };
}

/** Makes `app` forget what its session memory keeps of `userId`: what it keeps again lives its `ttlMs` from now. */
export function watchMemory(app: FastifyInstance, userId: number) {
  app.sessionState.forget(userId);
  return beforeExpiry(Date.now() + defaultSessionStateLimits.ttlMs);
}

/** Makes `app` forget the directory tokens it keeps: what it keeps again lives `keptTokenMs` from now. */
export function watchTokenMemory(app: FastifyInstance) {
  tokenMemoryOf(app.sessionState).forgetAll();
  return beforeExpiry(Date.now() + keptTokenMs);
}
