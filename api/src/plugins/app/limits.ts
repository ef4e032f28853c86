import fp from 'fastify-plugin';
import { type AccountLimits, createAccountLimits } from '../../domain/sign-in-limits/limits.js';

declare module 'fastify' {
  interface FastifyInstance {
    limits: AccountLimits;
  }
}

export default fp(
  async (app) => {
    app.decorate('limits', createAccountLimits(app.counters, app.clock, app.metrics));
  },
  { name: 'limits', dependencies: ['counters', 'metrics'] },
);
