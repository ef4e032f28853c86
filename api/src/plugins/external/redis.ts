import type { FastifyBaseLogger } from 'fastify';
import fp from 'fastify-plugin';
import { Redis, ReplyError } from 'ioredis';
import { type HttpError, messages, retryLater } from '../../lib/errors.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The shared Redis when `REDIS_URL` is set; null keeps rate-limit counters in this process. */
    redis: Redis | null;
    /** Every Redis command goes through it (null without Redis): see `RedisLink`. */
    redisLink: RedisLink | null;
  }
}

/** Longest wait for one command's answer: a frozen Redis costs a request this, not its whole deadline. */
export const redisCommandTimeoutMs = 1_000;
/** How often an outage asks Redis whether it is back. */
const probeEveryMs = 250;
/** What a 503 for a Redis outage asks the client to wait (Retry-After). */
const retryAfterMs = 5_000;

/**
 * The API's side of its connection to Redis. Without its counters the API cannot tell a guesser from a person, so a
 * request that needs one while Redis is away is refused with the Spanish 503 and Retry-After, never let through and
 * never held: the first failed command opens an outage (one warn line), every command meanwhile is refused at once
 * without being sent (so a frozen Redis does not collect a queue), and a PING every 250 ms ends it (one warn line
 * with its length and the requests refused).
 */
export interface RedisLink {
  /** Runs one command: its answer, or the 503 to throw when Redis is away or the command failed. */
  call<T>(command: () => Promise<T>): Promise<T>;
  /** Whether Redis answers (false during an outage). */
  readonly up: boolean;
  /** Asks Redis now (a PING, as a command): false during an outage, or when it does not answer (which opens one). */
  ping(): Promise<boolean>;
  /** Requests refused because Redis was away, since the start. */
  readonly refused: number;
  /** Outages since the start. */
  readonly outages: number;
  /** False when Redis keeps nothing on disk: a restart of it forgets every sign-in lock. Null until known. */
  readonly persistent: boolean | null;
}

export const redisUnavailable = (): HttpError =>
  retryLater(503, messages.unavailable, 'SERVICE_UNAVAILABLE', retryAfterMs);

/**
 * Whether this Redis keeps what it is told across a restart: only an append-only file does. Snapshots (`save`) are
 * minutes apart, and a lock is minutes long: a restart would most often bring back the snapshot from before it.
 */
export function persistenceOf(info: string): boolean {
  return /^aof_enabled:1\s*$/m.test(info);
}

/**
 * Replies of a live Redis that mean "not now" (loading its data, out of memory, unable to write its file, a replica
 * cut off): an outage like a lost connection. Any other reply (a script's error) is a bug, and stays a 500.
 */
const unavailableReply = /^(LOADING|MISCONF|OOM|BUSY|READONLY|MASTERDOWN|CLUSTERDOWN|TRYAGAIN|NOREPLICAS)\b/;

const isOutage = (error: unknown) =>
  !(error instanceof (ReplyError as new () => Error)) || unavailableReply.test((error as Error).message);

class RedisTimeout extends Error {
  constructor() {
    super(`Redis did not answer within ${redisCommandTimeoutMs} ms`);
    this.name = 'RedisTimeout';
  }
}

/**
 * The command's answer, or a RedisTimeout once `redisCommandTimeoutMs` has passed without one. The verdict waits for
 * the event loop's next check phase: on a machine so busy that the loop itself was late, an answer already in the
 * socket is read first (the poll phase comes between), so a slow process never takes a live Redis for a frozen one.
 */
function withDeadline<T>(command: Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const timer = setTimeout(
      () =>
        setImmediate(() => {
          if (settled) return;
          settled = true;
          reject(new RedisTimeout());
        }),
      redisCommandTimeoutMs,
    );
    command.then(
      (value) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

function createLink(redis: Redis, log: FastifyBaseLogger, now = Date.now) {
  let outage: { since: number; refused: number; timer: NodeJS.Timeout } | undefined;
  let refused = 0;
  let outages = 0;
  let stopped = false;
  let persistent: boolean | null = null;

  const probe = async () => {
    if (!outage || stopped) return;
    try {
      await withDeadline(redis.ping());
    } catch {
      if (outage && !stopped) outage.timer = setTimeout(probe, probeEveryMs).unref();
      return;
    }
    log.warn({ durationMs: now() - outage.since, refusedRequests: outage.refused }, 'redis available again');
    outage = undefined;
  };
  const open = (error: unknown) => {
    if (outage || stopped) return;
    outages += 1;
    log.warn(
      { err: error },
      'redis unavailable: requests that need a counter (sign-ins, codes, limits) are answered 503 until it is back',
    );
    outage = { since: now(), refused: 0, timer: setTimeout(probe, probeEveryMs).unref() };
  };
  const refuse = (): never => {
    refused += 1;
    if (outage) outage.refused += 1;
    throw redisUnavailable();
  };
  // A connection lost between commands opens the outage before the next request finds out.
  redis.on('close', () => open(new Error('connection to Redis closed')));

  return {
    async call<T>(command: () => Promise<T>): Promise<T> {
      if (outage) return refuse();
      try {
        return await withDeadline(command());
      } catch (error) {
        if (!isOutage(error)) throw error;
        open(error);
        return refuse();
      }
    },
    get up() {
      return outage === undefined;
    },
    async ping() {
      if (outage) return false;
      try {
        await withDeadline(redis.ping());
        return true;
      } catch (error) {
        open(error);
        return false;
      }
    },
    get refused() {
      return refused;
    },
    get outages() {
      return outages;
    },
    get persistent() {
      return persistent;
    },
    /** Reads whether Redis keeps its data on disk, and says so once when it does not. */
    async checkPersistence() {
      try {
        persistent = persistenceOf(await redis.info('persistence'));
      } catch {
        return;
      }
      if (!persistent)
        log.warn(
          'redis keeps nothing on disk (appendonly no): a restart of Redis forgets every sign-in lock; ' +
            'run it with appendonly yes (docs/operations.md)',
        );
    },
    stop() {
      stopped = true;
      if (outage) clearTimeout(outage.timer);
    },
  };
}

export default fp(
  async (app) => {
    const url = app.config.redisUrl;
    if (!url) {
      app.decorate('redis', null);
      app.decorate('redisLink', null);
      return;
    }
    const redis = new Redis(url, {
      lazyConnect: true,
      // A command while the connection is down fails at once instead of waiting in a queue for a reconnection, and a
      // command in flight when it drops fails instead of being sent again; the link gives up on one with no answer.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      connectTimeout: 2_000,
      // Reconnects at once, then at most every second: back within a second of Redis.
      retryStrategy: (attempt) => Math.min(attempt * 100, 1_000),
    });
    // Without a listener a lost connection would crash the process; the outage (link) says it once, not per retry.
    redis.on('error', (error) => app.log.debug({ err: error }, 'redis connection error'));
    try {
      await redis.connect();
    } catch (error) {
      redis.disconnect();
      throw new Error(`No se pudo conectar con Redis (REDIS_URL): ${(error as Error).message}`);
    }
    const link = createLink(redis, app.log);
    await link.checkPersistence();
    app.addHook('onClose', async () => {
      link.stop();
      await redis.quit().catch(() => redis.disconnect());
    });
    app.decorate('redis', redis);
    app.decorate('redisLink', link);
  },
  { name: 'redis' },
);
