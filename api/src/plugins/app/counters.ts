import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';
import { serviceUnavailable } from '../../lib/errors.js';

/** Milliseconds since the epoch; the app's clock, injected so tests can move time instead of sleeping. */
export type Clock = () => number;

/**
 * Short-lived counters behind the brute-force and mail limits, keyed by whatever is limited (an email, an IP).
 * Every decision uses the app's clock; stored expiries only let the store forget old keys.
 */
export interface CounterStore {
  /** Counts one event in a fixed window that opens with the first event; answers the count and when it closes. */
  increment(key: string, windowMs: number): Promise<{ count: number; resetAt: number }>;
  /** Holds `key` for `ms` unless it is held already (or `replace`): answers 0 when it took it, else the ms left. */
  hold(key: string, ms: number, replace?: boolean): Promise<number>;
  /** Ms left on the hold of `key`, 0 when free. */
  heldFor(key: string): Promise<number>;
  delete(...keys: string[]): Promise<void>;
}

interface Entry {
  count: number;
  until: number;
}

export function memoryCounterStore(clock: Clock): CounterStore & { sweep(): void } {
  const entries = new Map<string, Entry>();
  const live = (key: string) => {
    const entry = entries.get(key);
    return entry && entry.until > clock() ? entry : undefined;
  };
  return {
    async increment(key, windowMs) {
      const entry = live(key) ?? { count: 0, until: clock() + windowMs };
      entry.count += 1;
      entries.set(key, entry);
      return { count: entry.count, resetAt: entry.until };
    },
    async hold(key, ms, replace = false) {
      const entry = live(key);
      if (entry && !replace) return entry.until - clock();
      entries.set(key, { count: 0, until: clock() + ms });
      return 0;
    },
    async heldFor(key) {
      const entry = live(key);
      return entry ? entry.until - clock() : 0;
    },
    async delete(...keys) {
      for (const key of keys) entries.delete(key);
    },
    sweep() {
      const now = clock();
      for (const [key, entry] of entries) if (entry.until <= now) entries.delete(key);
    },
  };
}

// Each script reads and writes its key in one step, so instances sharing Redis never interleave.
const incrementScript = `
local now = tonumber(ARGV[1])
local count = tonumber(redis.call('HGET', KEYS[1], 'count'))
local reset = tonumber(redis.call('HGET', KEYS[1], 'reset'))
if not reset or reset <= now then
  count = 1
  reset = now + tonumber(ARGV[2])
else
  count = count + 1
end
redis.call('HSET', KEYS[1], 'count', count, 'reset', reset)
redis.call('PEXPIRE', KEYS[1], reset - now)
return { count, reset }`;

const holdScript = `
local now = tonumber(ARGV[1])
local ms = tonumber(ARGV[2])
local held = tonumber(redis.call('GET', KEYS[1]))
if held and held > now and ARGV[3] == '0' then return held - now end
redis.call('SET', KEYS[1], now + ms, 'PX', ms)
return 0`;

export function redisCounterStore(redis: Redis, prefix: string, clock: Clock): CounterStore {
  const key = (name: string) => `${prefix}counter:${name}`;
  // Without its counters the API cannot tell a guesser from a person: it answers 503 rather than skip the limits.
  const unavailable = (error: unknown): never => {
    throw Object.assign(serviceUnavailable(), { cause: error });
  };
  return {
    async increment(name, windowMs) {
      const [count, resetAt] = (await redis
        .eval(incrementScript, 1, key(name), clock(), windowMs)
        .catch(unavailable)) as [number, number];
      return { count, resetAt };
    },
    async hold(name, ms, replace = false) {
      return (await redis
        .eval(holdScript, 1, key(name), clock(), ms, replace ? '1' : '0')
        .catch(unavailable)) as number;
    },
    async heldFor(name) {
      const held = Number(await redis.get(key(name)).catch(unavailable));
      return Math.max(0, held - clock());
    },
    async delete(...names) {
      if (names.length > 0) await redis.del(...names.map(key)).catch(unavailable);
    },
  };
}

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
    if (app.redis) {
      app.decorate('counters', redisCounterStore(app.redis, app.config.redisKeyPrefix, clock));
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
