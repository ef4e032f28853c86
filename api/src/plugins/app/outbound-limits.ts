import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { messages, retryLater } from '../../lib/errors.js';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * A preHandler that limits a route which makes the API reach out to an address someone typed (a company's provider
     * read before saving, a domain's TXT record, a partner's event receiver): per owner of the address (`ownerOf`: the
     * company, the OpenID Connect client) and per address the request came from, whatever the route.
     */
    outboundLimit(ownerOf: (request: FastifyRequest) => string): (request: FastifyRequest) => Promise<void>;
  }
}

/** Tries of one owner (a company, a client) in a window, over all the outbound routes. */
export const outboundPerOwner = 20;
/** Tries from one address in a window, over all the outbound routes and owners. */
export const outboundPerAddress = 40;
export const outboundWindowMs = 10 * 60_000;

/**
 * Each try counts in the shared counters (Redis when configured), after authentication and access: a stranger's
 * requests never spend a company's tries. Over either limit the answer is the Spanish 429 with Retry-After, and
 * nothing is fetched.
 */
export default fp(
  async (app) => {
    app.decorate('outboundLimit', (ownerOf: (request: FastifyRequest) => string) => async (request: FastifyRequest) => {
      for (const [key, max] of [
        [`salida:dueno:${ownerOf(request)}`, outboundPerOwner],
        [`salida:ip:${request.ip}`, outboundPerAddress],
      ] as const) {
        const { count, resetAt } = await app.counters.increment(key, outboundWindowMs);
        if (count > max) {
          const wait = Math.max(0, resetAt - app.clock());
          throw retryLater(429, messages.tooManyRequests(Math.max(1, Math.ceil(wait / 1000))), 'RATE_LIMITED', wait);
        }
      }
    });
  },
  { name: 'outbound-limits', dependencies: ['counters'] },
);
