import rateLimit, { type FastifyRateLimitStore } from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { messages, retryLater } from '../../lib/errors.js';

type StoreAnswer = (error: Error | null, result?: { current: number; ttl: number }) => void;

/**
 * The per-IP windows in the shared counter store (Redis): one owner for every counter that crosses instances, so a
 * Redis outage answers the same Spanish 503 here as for the sign-in locks. `app.counters` is read per request: it is
 * decorated after this plugin.
 */
function sharedStore(app: FastifyInstance) {
  return class SharedWindows implements FastifyRateLimitStore {
    constructor(
      _options: unknown,
      private readonly route = '',
    ) {}

    incr(key: string, answer: StoreAnswer, timeWindow: number) {
      app.counters.increment(`ip:${this.route}${key}`, timeWindow).then(
        ({ count, resetAt }) => answer(null, { current: count, ttl: Math.max(0, resetAt - app.clock()) }),
        (error: Error) => answer(error),
      );
    }

    // The plugin hands over the route's limit with its `routeInfo` (its types say a route's options).
    child(routeOptions: Parameters<FastifyRateLimitStore['child']>[0]) {
      const { method, url } = (routeOptions as unknown as { routeInfo: { method: string; url: string } }).routeInfo;
      return new SharedWindows(undefined, `${method}${url}-`);
    }
  };
}

// Limits are per route (`config.rateLimit`), not global: only the endpoints that attract guessing get one.
// Counters live in memory, each instance counting on its own, unless REDIS_URL gives them a shared store.
export default fp(
  async (app) => {
    await app.register(rateLimit, {
      global: false,
      ...(app.redis ? { store: sharedStore(app) } : {}),
      errorResponseBuilder: (_request, context) =>
        retryLater(
          429,
          messages.tooManyRequests(Math.max(1, Math.ceil(context.ttl / 1000))),
          'RATE_LIMITED',
          context.ttl,
        ),
    });
  },
  { name: 'rate-limit', dependencies: ['redis'] },
);
