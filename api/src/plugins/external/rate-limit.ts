import rateLimit from '@fastify/rate-limit'
import fp from 'fastify-plugin'
import { HttpError, messages } from '../../lib/errors.js'

// Limits are per route (`config.rateLimit`), not global: only the endpoints that attract guessing get one.
// Counters live in memory, so each instance counts on its own until a shared store is configured.
export default fp(async (app) => {
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: (_request, context) =>
      new HttpError(429, messages.tooManyRequests(Math.max(1, Math.ceil(context.ttl / 1000))), 'RATE_LIMITED'),
  })
}, { name: 'rate-limit' })
