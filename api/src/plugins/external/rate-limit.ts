import rateLimit from '@fastify/rate-limit';
import fp from 'fastify-plugin';
import { messages, retryLater } from '../../lib/errors.js';

// Limits are per route (`config.rateLimit`), not global: only the endpoints that attract guessing get one.
// Counters live in memory, each instance counting on its own, unless REDIS_URL gives them a shared store.
export default fp(
  async (app) => {
    await app.register(rateLimit, {
      global: false,
      ...(app.redis ? { redis: app.redis, nameSpace: `${app.config.redisKeyPrefix}ip:` } : {}),
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
