import rateLimit, { type FastifyRateLimitStore } from '@fastify/rate-limit';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { HttpError, messages, retryLater } from '../../lib/errors.js';

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

/** The route option that marks a page a browser navigates to: over its limit it answers as `browserAnswer` says. */
export const browserNavigation = { browserNavigation: true } as const;

/**
 * How the routes of `app` marked `browserNavigation` answer a browser over their per-address limit (a page, a
 * redirect to /login) instead of the API's JSON 429; every other error goes on to the app's own handler.
 */
export function answerBrowserOverLimit(
  app: FastifyInstance,
  browserAnswer: (error: HttpError, request: FastifyRequest, reply: FastifyReply) => unknown,
): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const navigation = (request.routeOptions.config as { browserNavigation?: boolean }).browserNavigation === true;
    if (!(navigation && error instanceof HttpError && error.code === 'RATE_LIMITED')) throw error;
    if (error.retryAfter) reply.header('retry-after', String(error.retryAfter));
    return browserAnswer(error, request, reply);
  });
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
