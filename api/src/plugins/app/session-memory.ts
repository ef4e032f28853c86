import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { createSessionMemory, type SessionMemory } from '../../domain/sessions/memory.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The session state kept in memory while its notification channel is up (domain/sessions/state-cache.ts). */
    sessionState: SessionMemory;
  }
  interface FastifyContextConfig {
    /** A POST that changes nothing (a question such as token introspection): answered without the write barrier. */
    readOnly?: boolean;
  }
}

const withoutBarrier = new WeakSet<FastifyRequest>();

/**
 * Marks a write whose changes no instance can hold in its session memory (an account the request itself created, to
 * which nobody is signed in): its answer leaves without waiting for the barrier.
 */
export function changesNoSessionState(request: FastifyRequest): void {
  withoutBarrier.add(request);
}

/** The session memory's lifecycle: listening from start to close, and each write's barrier before its answer. */
export default fp(
  async (app) => {
    const state = createSessionMemory(app.database, app.db, app.log);
    app.addHook('onClose', () => state.stop());
    // A request that may have changed something answers only once this instance has applied its changes, so the
    // person's next request here never sees the state from before (domain/sessions/state-cache.ts, `sync`).
    // A callback hook, not an async one: the reads (most requests) go on without a promise of their own.
    // Not after a 5xx: such an answer promises nothing (a timed-out handler's transaction may even commit later), and a
    // barrier behind a stuck database would keep the Spanish 503 past REQUEST_TIMEOUT_MS.
    app.addHook('onSend', (request, reply, payload, done) => {
      if (
        request.method === 'GET' ||
        request.method === 'HEAD' ||
        request.method === 'OPTIONS' ||
        request.routeOptions.config.readOnly === true ||
        withoutBarrier.has(request) ||
        reply.statusCode >= 500
      )
        return done(null, payload);
      state.sync().then(() => done(null, payload), done);
    });
    // Waits for LISTEN once at start (a failure only leaves the memory unused until it reconnects).
    await state.start();
    app.decorate('sessionState', state);
  },
  { name: 'session-memory', dependencies: ['database'] },
);
