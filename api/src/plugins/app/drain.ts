// How an instance leaves its load balancer before it stops (docs/decisions/0059-leaving-the-balancer.md): readiness
// turns 503 while everything is still served, then the requests a balancer retries elsewhere are closed unanswered
// until it stops sending any, and only then does the instance stop listening. Requests that come after `close()` began
// are refused the same way, or with the API's own 503 when a balancer could not send them elsewhere.
import fp from 'fastify-plugin';
import { serviceUnavailable } from '../../lib/errors.js';

/**
 * `serving`: ready. `draining`: readiness answers 503, every request is served and its connection closed after the
 * answer. `handing-off`: as draining, but idempotent requests (GET, HEAD) get their connection closed unanswered,
 * which a balancer retries on another instance and counts against this one. `closed`: `close()` began, idempotent
 * requests are closed unanswered, the others refused with the 503.
 */
export type DrainState = 'serving' | 'draining' | 'handing-off' | 'closed';

export interface HandOffTiming {
  /** The hand-off ends once no request has arrived for this long: the balancer sends its work elsewhere. */
  quietMs: number;
  /** ...or after this long, whatever the traffic. */
  maxMs: number;
}

export interface Drain {
  readonly state: DrainState;
  /** Readiness turns 503 for `drainMs` while everything is served; then the hand-off. Ends early if the app closes. */
  leave(drainMs: number, timing?: HandOffTiming): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    drain: Drain;
  }
}

export const handOffTiming: HandOffTiming = {
  // Long enough for requests a balancer had already routed here to arrive; a balancer that moved on sends nothing.
  quietMs: 250,
  // For clients that keep calling this instance directly (no balancer to move them).
  maxMs: 2_000,
};
/** Liveness answers while the process lives: an orchestrator must not restart an instance that is leaving. */
const livenessPath = '/health/live';

export default fp(
  async (app) => {
    let state: DrainState = 'serving';
    let lastArrival = performance.now();
    const arrived = () => {
      lastArrival = performance.now();
    };
    // A connection counts as soon as it is accepted: its request may still be on the way.
    app.server.on('connection', arrived);

    // The drain's waits, cut short when the app closes.
    const waits = new Set<() => void>();
    const sleep = (ms: number) =>
      new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          waits.delete(wake);
          resolve();
        };
        const timer = setTimeout(wake, ms);
        waits.add(wake);
      });

    app.addHook('preClose', async () => {
      state = 'closed';
      for (const wake of [...waits]) wake();
    });
    // A callback hook: the serving case (every request) costs no promise. Arrivals count only once leaving began (the
    // hand-off starts its quiet period afresh), so a serving instance does not read the clock for each request.
    app.addHook('onRequest', (request, reply, done) => {
      if (state === 'serving') return done();
      arrived();
      // Node closes the connection after this answer: a balancer or client opens its next one elsewhere.
      reply.header('connection', 'close');
      const retriable =
        (request.method === 'GET' || request.method === 'HEAD') && request.routeOptions.url !== livenessPath;
      if (retriable && state !== 'draining') {
        // Unanswered, as from an instance that is gone: nginx tries an idempotent request so closed elsewhere and sets
        // this instance aside. Not the 503, which the API answers when its database or Redis is away: every instance
        // shares those, so a balancer passes that 503 on instead of counting it (decision 0066).
        request.log.info('closed unanswered: the instance is leaving, a balancer sends it elsewhere');
        reply.hijack();
        reply.raw.destroy();
        return;
      }
      if (state !== 'closed') return done();
      // Through the route's error handler: the API's Spanish 503, or SCIM's error body under /scim/v2.
      done(serviceUnavailable());
    });

    app.decorate('drain', {
      get state() {
        return state;
      },
      async leave(drainMs: number, { quietMs, maxMs } = handOffTiming) {
        if (state !== 'serving') return;
        state = 'draining';
        await sleep(drainMs);
        if (state !== 'draining') return;
        state = 'handing-off';
        const started = performance.now();
        arrived();
        while (state === 'handing-off') {
          const now = performance.now();
          const quietFor = now - lastArrival;
          if (quietFor >= quietMs || now - started >= maxMs) return;
          await sleep(Math.min(quietMs - quietFor, maxMs - (now - started)));
        }
      },
    } satisfies Drain);
  },
  { name: 'drain' },
);
