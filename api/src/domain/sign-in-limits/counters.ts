import type { Redis } from 'ioredis';
import { serviceUnavailable } from '../../lib/errors.js';

/** Milliseconds since the epoch; the app's clock, injected so tests can move time instead of sleeping. */
import type { Clock } from '../clock.js';

export type { Clock };

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
  /**
   * Takes one slot of `key`'s fixed window (as `increment`) in one step, unless the limit answers first: then nothing
   * is counted and the answer is the ms to wait. Without `rule.lock` the limit is the count itself (refused at
   * `rule.threshold`, until the window ends). With it, the limit is the hold of `rule.lock.key` (not applied while
   * `rule.lock.exemptKey` is held); the slot that brings the count to the threshold or past it starts that hold,
   * `rule.lock.ms[count - threshold]` long (the last entry for any count further on).
   */
  take(key: string, windowMs: number, rule: TakeRule): Promise<Taken>;
  /** Gives back a slot `take` answered: one less on `key`, and the hold that slot started undone if still its own. */
  giveBack(key: string, taken: TakenSlot, lockKey?: string): Promise<void>;
}

export interface TakeRule {
  threshold: number;
  lock?: { key: string; ms: number[]; exemptKey?: string };
}

/** A slot taken: the count with it, and the hold it started (`lockUntil`, over the one before, `previousUntil`). */
export interface TakenSlot {
  count: number;
  resetAt: number;
  lockMs: number;
  lockUntil: number;
  previousUntil: number;
}

export type Taken = ({ taken: true } & TakenSlot) | { taken: false; waitMs: number };

const lockMsFor = (rule: TakeRule, count: number) => {
  const ms = rule.lock?.ms ?? [];
  if (count < rule.threshold || ms.length === 0) return 0;
  return ms[Math.min(count - rule.threshold, ms.length - 1)] ?? 0;
};

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
    // No await inside: each call reads and writes its keys before any other caller runs.
    async take(key, windowMs, rule) {
      const now = clock();
      const entry = live(key) ?? { count: 0, until: now + windowMs };
      if (rule.lock) {
        const held = live(rule.lock.key);
        const exempt = rule.lock.exemptKey !== undefined && live(rule.lock.exemptKey) !== undefined;
        if (held && !exempt) return { taken: false, waitMs: held.until - now };
      } else if (entry.count >= rule.threshold) {
        return { taken: false, waitMs: entry.until - now };
      }
      entry.count += 1;
      entries.set(key, entry);
      const lockMs = lockMsFor(rule, entry.count);
      const previousUntil = rule.lock ? (live(rule.lock.key)?.until ?? 0) : 0;
      let lockUntil = 0;
      if (rule.lock && lockMs > 0) {
        lockUntil = now + lockMs;
        entries.set(rule.lock.key, { count: 0, until: lockUntil });
      }
      return { taken: true, count: entry.count, resetAt: entry.until, lockMs, lockUntil, previousUntil };
    },
    async giveBack(key, taken, lockKey) {
      const entry = live(key);
      if (entry && entry.until === taken.resetAt && entry.count > 0) entry.count -= 1;
      if (lockKey === undefined || taken.lockUntil === 0 || live(lockKey)?.until !== taken.lockUntil) return;
      if (taken.previousUntil > clock()) entries.set(lockKey, { count: 0, until: taken.previousUntil });
      else entries.delete(lockKey);
    },
    sweep() {
      const now = clock();
      for (const [key, entry] of entries) if (entry.until <= now) entries.delete(key);
    },
  };
}

// Each script reads and writes its key in one step, so instances sharing Redis never interleave.

/** Every counter script's start: the time (ARGV[1]) and the counter's window (KEYS[1]: its count and its end). */
const readCounter = `
local now = tonumber(ARGV[1])
local count = tonumber(redis.call('HGET', KEYS[1], 'count'))
local reset = tonumber(redis.call('HGET', KEYS[1], 'reset'))`;

/** Writes the counter back, kept until its window ends. */
const writeCounter = `
redis.call('HSET', KEYS[1], 'count', count, 'reset', reset)
redis.call('PEXPIRE', KEYS[1], reset - now)`;

// ARGV: now, window
const incrementScript = `${readCounter}
if not reset or reset <= now then
  count = 1
  reset = now + tonumber(ARGV[2])
else
  count = count + 1
end${writeCounter}
return { count, reset }`;

const holdScript = `
local now = tonumber(ARGV[1])
local ms = tonumber(ARGV[2])
local held = tonumber(redis.call('GET', KEYS[1]))
if held and held > now and ARGV[3] == '0' then return held - now end
redis.call('SET', KEYS[1], now + ms, 'PX', ms)
return 0`;

// KEYS: counter, lock (or ''), exempt (or ''); ARGV: now, window, threshold, lock ms...
const takeScript = `${readCounter}
local threshold = tonumber(ARGV[3])
if not reset or reset <= now then
  count = 0
  reset = now + tonumber(ARGV[2])
end
local previous = 0
if KEYS[2] ~= '' then
  local held = tonumber(redis.call('GET', KEYS[2]))
  if held and held > now then
    previous = held
    if KEYS[3] == '' or not tonumber(redis.call('GET', KEYS[3])) or tonumber(redis.call('GET', KEYS[3])) <= now then
      return { 0, held - now }
    end
  end
elseif count >= threshold then
  return { 0, reset - now }
end
count = count + 1${writeCounter}
local lockMs = 0
local lockUntil = 0
local steps = #ARGV - 3
if KEYS[2] ~= '' and steps > 0 and count >= threshold then
  lockMs = tonumber(ARGV[3 + math.min(count - threshold, steps - 1) + 1])
  lockUntil = now + lockMs
  redis.call('SET', KEYS[2], lockUntil, 'PX', lockMs)
end
return { 1, count, reset, lockMs, lockUntil, previous }`;

// KEYS: counter, lock (or ''); ARGV: now, resetAt of the slot, lockUntil it set, previousUntil
const giveBackScript = `${readCounter}
if count and count > 0 and reset == tonumber(ARGV[2]) and reset > now then
  redis.call('HSET', KEYS[1], 'count', count - 1)
end
local mine = tonumber(ARGV[3])
if KEYS[2] == '' or mine == 0 or tonumber(redis.call('GET', KEYS[2])) ~= mine then return 0 end
local previous = tonumber(ARGV[4])
if previous > now then
  redis.call('SET', KEYS[2], previous, 'PX', previous - now)
else
  redis.call('DEL', KEYS[2])
end
return 0`;

/** Runs one Redis command: its answer, or the error to throw when Redis could not answer (the API's 503). */
export type RedisCall = <T>(command: () => Promise<T>) => Promise<T>;

// Without its counters the API cannot tell a guesser from a person: it answers 503 rather than skip the limits.
const refuseOnFailure: RedisCall = (command) =>
  command().catch((error: unknown) => {
    throw Object.assign(serviceUnavailable(), { cause: error });
  });

export function redisCounterStore(
  redis: Redis,
  prefix: string,
  clock: Clock,
  call: RedisCall = refuseOnFailure,
): CounterStore {
  const key = (name: string) => `${prefix}counter:${name}`;
  return {
    async increment(name, windowMs) {
      const [count, resetAt] = (await call(() => redis.eval(incrementScript, 1, key(name), clock(), windowMs))) as [
        number,
        number,
      ];
      return { count, resetAt };
    },
    async hold(name, ms, replace = false) {
      return (await call(() => redis.eval(holdScript, 1, key(name), clock(), ms, replace ? '1' : '0'))) as number;
    },
    async heldFor(name) {
      const held = Number(await call(() => redis.get(key(name))));
      return Math.max(0, held - clock());
    },
    async delete(...names) {
      if (names.length > 0) await call(() => redis.del(...names.map(key)));
    },
    async take(name, windowMs, rule) {
      const lock = rule.lock;
      const answer = (await call(() =>
        redis.eval(
          takeScript,
          3,
          key(name),
          lock ? key(lock.key) : '',
          lock?.exemptKey ? key(lock.exemptKey) : '',
          clock(),
          windowMs,
          rule.threshold,
          ...(lock?.ms ?? []),
        ),
      )) as [number, ...number[]];
      const [ok, first = 0, resetAt = 0, lockMs = 0, lockUntil = 0, previousUntil = 0] = answer;
      if (ok === 0) return { taken: false, waitMs: first };
      const count = first;
      return { taken: true, count, resetAt, lockMs, lockUntil, previousUntil };
    },
    async giveBack(name, taken, lockKey) {
      await call(() =>
        redis.eval(
          giveBackScript,
          2,
          key(name),
          lockKey === undefined ? '' : key(lockKey),
          clock(),
          taken.resetAt,
          taken.lockUntil,
          taken.previousUntil,
        ),
      );
    },
  };
}
