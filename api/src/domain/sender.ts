// The one sender of everything the portal sends out without a browser: partner events, SIEM streams, back-channel and
// SAML logouts (docs/decisions/0159-one-sender.md). What is due and how to send it are each kind's parameters
// (`Outbound`); the pace is this module's alone:
//
// - Each destination is a lane. A claim takes due lanes that no instance holds (a lease on a row, `row-claims.ts` or
//   the queue's own) and that this instance is not already serving; each lane is served on its own, so a slow, hung
//   or failing destination holds only itself. A claim takes the lanes served longest ago first (each kind orders its
//   claim so), and a lane with more to send gives its place back after a turn: no fixed set of destinations starves
//   the rest, whatever their number.
// - Woken by notification (something was queued), by a lane that delivered (it may owe more), by the time a retry
//   comes due, and by a slow sweep for what another instance left behind (a lease that lapsed, a notification missed
//   while the channel was down). An idle instance runs one claim per kind per sweep, nothing in between.
// - Shutting down aborts the sends in flight (each kind gives back what it did not settle) and waits for nothing
//   else: closing never waits for a destination.
import { isDatabaseUnavailable } from '../lib/errors.js';

/** How serving a lane ended. */
export interface Served {
  /** Entries the destination took. */
  delivered: number;
  /** It stopped with more due (its turn ended): served again after the others. */
  more?: boolean;
  /** It waits for a retry: woken at that time. */
  dueAt?: Date;
}

/** What a kind of delivery tells the sender. */
export interface Outbound<Lane> {
  /** For the log lines. */
  name: string;
  /** Lanes at most at once on this instance. */
  maxLanes: number;
  /** The destination a claimed lane serves: one lane each. */
  keyOf(lane: Lane): string;
  /** Runs before each claim (the partner events' fan-out of new events into deliveries). */
  prepare?(): Promise<void>;
  /** Claims up to `limit` due lanes whose key is not in `busy`, longest unserved first; none when nothing is due. */
  claim(limit: number, busy: ReadonlySet<string>): Promise<Lane[]>;
  /** Sends what is due of one lane; the signal aborts when the instance shuts down. */
  serve(lane: Lane, signal: AbortSignal): Promise<Served>;
  /** Gives the lane back once served (or failed), for any instance's next claim. */
  release(lane: Lane, served: Served): Promise<void>;
  /** Extends the leases of the lanes being served (called while any is). */
  renew?(): Promise<void>;
  /** Housekeeping once a minute (old rows deleted, expired ones marked). */
  tidy?(): Promise<void>;
}

export interface SenderOptions {
  log: { error(details: object, message: string): void };
  databaseLost(error: unknown): void;
  /** How often an idle instance looks for work nobody woke it for. */
  sweepMs?: number;
  /** How often the leases of the lanes in service are renewed. */
  heartbeatMs?: number;
  /** How often the housekeeping runs. */
  tidyMs?: number;
  /** The clock the kind's retry times are read on (`Date.now` unless a test moves its own). */
  now?: () => number;
}

export interface Sender {
  /** Claims what is due now and serves it; resolves, once those lanes (and those they led to) ended, with the count. */
  deliverDue(): Promise<number>;
  /** Something may be due: claims soon (calls made together become one claim). */
  wake(): void;
  start(): void;
  close(): Promise<void>;
}

export const defaultSweepMs = 15_000;
export const defaultHeartbeatMs = 4_000;
export const defaultTidyMs = 60_000;

export function createSender<Lane>(outbound: Outbound<Lane>, options: SenderOptions): Sender {
  const sweepMs = options.sweepMs ?? defaultSweepMs;
  const heartbeatMs = options.heartbeatMs ?? defaultHeartbeatMs;
  const tidyMs = options.tidyMs ?? defaultTidyMs;
  const now = options.now ?? Date.now;
  const shutdown = new AbortController();
  /** The lanes in service here, by destination. */
  const busy = new Map<string, Promise<Served>>();
  /** Who wants to hear of each lane started (a `deliverDue` in progress). */
  const watchers = new Set<(lane: Promise<Served>) => void>();
  let closed = false;
  let started = false;
  /** The claim in progress, and whether another was asked for meanwhile. */
  let claiming: Promise<number> | undefined;
  let again = false;
  /** The last claim filled every free place: more may be due than it took. */
  let saturated = false;
  let wakeQueued = false;
  let dueTimer: { at: number; timer: NodeJS.Timeout } | undefined;
  let sweep: NodeJS.Timeout | undefined;
  let heartbeat: NodeJS.Timeout | undefined;
  let tidying: NodeJS.Timeout | undefined;

  function reportFailure(error: unknown, what: string) {
    if (isDatabaseUnavailable(error)) options.databaseLost(error);
    else options.log.error({ err: error }, `${outbound.name}: ${what}`);
  }

  /**
   * Wakes the sender once the clock reads `at` (the earliest of the retries this instance waits for). A timer may fire
   * before the clock reads its time (the event loop's time is read once a turn): then it waits again for what is left,
   * since a claim made early would find the retry not yet due and nothing would wake the sender until the sweep.
   */
  function dueAt(at: Date) {
    const time = at.getTime();
    if (dueTimer && dueTimer.at <= time) return;
    if (dueTimer) clearTimeout(dueTimer.timer);
    const arm = () => {
      const timer = setTimeout(() => {
        if (now() < time) return arm();
        dueTimer = undefined;
        wake();
      }, time - now());
      timer.unref();
      dueTimer = { at: time, timer };
    };
    arm();
  }

  function startLane(lane: Lane) {
    const key = outbound.keyOf(lane);
    const done = (async (): Promise<Served> => {
      let served: Served = { delivered: 0 };
      try {
        served = await outbound.serve(lane, shutdown.signal);
      } catch (error) {
        reportFailure(error, 'sending failed');
      }
      try {
        await outbound.release(lane, served);
      } catch (error) {
        // Its lease lapses: another claim takes it then.
        reportFailure(error, 'giving a lane back failed');
      }
      return served;
    })();
    busy.set(key, done);
    for (const watcher of watchers) watcher(done);
    void done.then((served) => {
      busy.delete(key);
      if (closed) return;
      if (served.dueAt) dueAt(served.dueAt);
      // It delivered (its destination may owe more, or got more meanwhile), or lanes were waiting for a place.
      if (served.delivered > 0 || served.more || saturated) wake();
    });
  }

  async function claimOnce(): Promise<number> {
    if (closed) return 0;
    await outbound.prepare?.();
    const free = outbound.maxLanes - busy.size;
    if (free <= 0 || closed) {
      saturated = true;
      return 0;
    }
    const lanes = await outbound.claim(free, new Set(busy.keys()));
    saturated = lanes.length >= free;
    if (closed) {
      await Promise.all(lanes.map((lane) => outbound.release(lane, { delivered: 0 }).catch(() => {})));
      return 0;
    }
    for (const lane of lanes) startLane(lane);
    return lanes.length;
  }

  /** One claim at a time per instance (two at once could open two lanes to one destination); one more if asked. */
  function claim(): Promise<number> {
    if (claiming) {
      again = true;
      return claiming;
    }
    claiming = (async () => {
      let total = 0;
      do {
        again = false;
        total += await claimOnce();
      } while (again && !closed);
      return total;
    })().finally(() => {
      claiming = undefined;
    });
    return claiming;
  }

  function wake() {
    if (closed || wakeQueued) return;
    wakeQueued = true;
    setImmediate(() => {
      wakeQueued = false;
      claim().catch((error) => reportFailure(error, 'claiming failed'));
    });
  }

  async function deliverDue(): Promise<number> {
    const pending = new Set<Promise<Served>>(busy.values());
    const watcher = (lane: Promise<Served>) => void pending.add(lane);
    watchers.add(watcher);
    let delivered = 0;
    try {
      for (;;) {
        await claim();
        if (pending.size === 0) return delivered;
        const lanes = [...pending];
        pending.clear();
        for (const served of await Promise.all(lanes)) delivered += served.delivered;
      }
    } finally {
      watchers.delete(watcher);
    }
  }

  return {
    deliverDue,
    wake,
    start() {
      if (started || closed) return;
      started = true;
      sweep = setInterval(wake, sweepMs);
      sweep.unref();
      if (outbound.tidy) {
        const tidy = outbound.tidy.bind(outbound);
        tidying = setInterval(() => {
          tidy().catch((error) => reportFailure(error, 'housekeeping failed'));
        }, tidyMs);
        tidying.unref();
      }
      if (outbound.renew) {
        const renew = outbound.renew.bind(outbound);
        heartbeat = setInterval(() => {
          if (busy.size > 0) renew().catch((error) => reportFailure(error, 'renewing leases failed'));
        }, heartbeatMs);
        heartbeat.unref();
      }
      wake();
    },
    async close() {
      closed = true;
      clearInterval(sweep);
      clearInterval(heartbeat);
      clearInterval(tidying);
      if (dueTimer) clearTimeout(dueTimer.timer);
      shutdown.abort();
      await claiming?.catch(() => 0);
      await Promise.all([...busy.values()]);
    },
  };
}
