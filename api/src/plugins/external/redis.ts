import fp from 'fastify-plugin';
import { Redis } from 'ioredis';

declare module 'fastify' {
  interface FastifyInstance {
    /** The shared Redis when `REDIS_URL` is set; null keeps rate-limit counters in this process. */
    redis: Redis | null;
  }
}

export default fp(
  async (app) => {
    const url = app.config.redisUrl;
    if (!url) {
      app.decorate('redis', null);
      return;
    }
    const redis = new Redis(url, {
      lazyConnect: true,
      // A request waiting on a counter fails after one retry instead of queueing while Redis is down.
      maxRetriesPerRequest: 1,
    });
    // Without a listener a lost connection would crash the process; ioredis reconnects by itself.
    redis.on('error', (error) => app.log.warn({ err: error }, 'redis connection error'));
    try {
      await redis.connect();
    } catch (error) {
      redis.disconnect();
      throw new Error(`No se pudo conectar con Redis (REDIS_URL): ${(error as Error).message}`);
    }
    app.addHook('onClose', async () => {
      await redis.quit();
    });
    app.decorate('redis', redis);
  },
  { name: 'redis' },
);
