import fp from 'fastify-plugin';
import type { Clock } from '../../domain/clock.js';
import { type CounterStore, memoryCounterStore, redisCounterStore } from '../../domain/sign-in-limits/counters.js';

declare module 'fastify' {
  interface FastifyInstance {
    clock: Clock;
    counters: CounterStore;
  }
}

export interface CountersPluginOptions {
  clock?: Clock;
}

export default fp<CountersPluginOptions>(
  async (app, options) => {
    const clock = options.clock ?? Date.now;
    app.decorate('clock', clock);
    if (app.redis && app.redisLink) {
      const link = app.redisLink;
      app.decorate(
        'counters',
        redisCounterStore(app.redis, app.config.redisKeyPrefix, clock, (c) => link.call(c)),
      );
      return;
    }
    const store = memoryCounterStore(clock);
    // Expired keys would otherwise stay in memory until asked for again, one per email or IP ever seen.
    const sweeper = setInterval(() => store.sweep(), 60_000);
    sweeper.unref();
    app.addHook('onClose', async () => clearInterval(sweeper));
    app.decorate('counters', store);
  },
  { name: 'counters', dependencies: ['redis'] },
);
