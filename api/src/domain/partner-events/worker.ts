// The partner events' background work on each instance: fan-out of new events into deliveries, sending them, the
// expiry job, and clean-up of old rows. Woken at once when a trigger writes an event (the portal_partner_events
// channel) and when this instance's own deliveries become due; a poll catches anything missed (another instance's
// wake-up, a retry coming due). All state is in the database: a restarted or second instance just carries on.
import { and, count, inArray, isNotNull, isNull, lt, min, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { partnerDeliveries, partnerEvents } from '../../db/schema.js';
import { isDatabaseUnavailable } from '../../lib/errors.js';
import { serialRounds } from '../serial-rounds.js';
import { createSender, type SenderDeps } from './deliveries.js';
import { announceExpiries } from './expiry.js';
import { fanOutBatch } from './fan-out.js';

const pollMs = 2_000;
const heartbeatMs = 4_000;
/** The expiry job's period; each instance adds up to `expiryJitterMs` so instances do not all run it together. */
export const expiryEveryMs = 60_000;
const expiryJitterMs = 10_000;
const cleanupEveryMs = 60 * 60_000;
const keptEventsMs = 7 * 24 * 60 * 60_000;
const keptDeliveriesMs = 30 * 24 * 60 * 60_000;

/** The sender's needs, and what the worker adds: errors logged, and the database's loss reported. */
export interface PartnerEventsDeps extends SenderDeps {
  log: SenderDeps['log'] & { error(details: object, message: string): void };
  databaseLost(error: unknown): void;
}

export interface PartnerEventsWorker {
  /** Fans out and sends whatever is due now (again if woken meanwhile); resolves with how many were delivered. */
  deliverDue(): Promise<number>;
  /** The expiry job once, now; answers how many expiries it announced. */
  announceExpiries(): Promise<number>;
  wake(): void;
  start(): void;
  close(): Promise<void>;
}

/** Deliveries waiting and how long the oldest has waited (an event not yet fanned out counts from when it happened). */
export async function partnerBacklog(db: Db, now: number): Promise<{ pending: number; oldestAgeSeconds: number }> {
  const [deliveries] = await db
    .select({ pending: count(), oldest: min(partnerDeliveries.createdAt) })
    .from(partnerDeliveries)
    .where(sql`${partnerDeliveries.status} = 'pendiente'`);
  const [events] = await db
    .select({ oldest: min(partnerEvents.createdAt) })
    .from(partnerEvents)
    .where(isNull(partnerEvents.fannedOutAt));
  const times = [deliveries?.oldest, events?.oldest].filter(Boolean).map((value) => new Date(value as Date).getTime());
  const oldest = times.length > 0 ? Math.min(...times) : undefined;
  return {
    pending: Number(deliveries?.pending ?? 0),
    oldestAgeSeconds: oldest === undefined ? 0 : Math.max(0, (now - oldest) / 1000),
  };
}

export function createPartnerEventsWorker(deps: PartnerEventsDeps): PartnerEventsWorker {
  const { db, clock } = deps;
  let closed = false;
  let lastCleanup = 0;
  const stopped = () => closed;
  const sender = createSender(deps);

  function reportFailure(error: unknown, what: string) {
    if (isDatabaseUnavailable(error)) deps.databaseLost(error);
    else deps.log.error({ err: error }, what);
  }

  async function cleanup() {
    if (clock() - lastCleanup < cleanupEveryMs) return;
    lastCleanup = clock();
    await db
      .delete(partnerEvents)
      .where(and(isNotNull(partnerEvents.fannedOutAt), lt(partnerEvents.createdAt, new Date(clock() - keptEventsMs))));
    await db
      .delete(partnerDeliveries)
      .where(
        and(
          inArray(partnerDeliveries.status, ['entregado', 'fallido', 'cancelada']),
          lt(partnerDeliveries.createdAt, new Date(clock() - keptDeliveriesMs)),
        ),
      );
  }

  async function fanOut() {
    while (!closed) {
      const { events } = await fanOutBatch(db, new Date(clock()));
      if (events === 0) break;
    }
  }

  async function round(): Promise<number> {
    const delivered = await sender.sendDue(stopped, fanOut);
    await cleanup();
    return delivered;
  }

  const rounds = serialRounds(round, stopped);
  const deliverDue = () => rounds.run();
  const runInBackground = () => {
    if (closed) return;
    deliverDue().catch((error) => reportFailure(error, 'partner event round failed'));
  };

  const expiryJob = async () => {
    const announced = await announceExpiries(db, new Date(clock()));
    if (announced > 0) runInBackground();
    return announced;
  };
  let expiryTimer: NodeJS.Timeout | undefined;
  /** The expiry job in progress: closing waits for it, so it never runs on a database already closed. */
  let expiryRunning: Promise<void> | undefined;
  const runExpiry = (): Promise<void> => {
    if (closed) return Promise.resolve();
    const running = expiryJob()
      .then(() => undefined)
      .catch((error) => reportFailure(error, 'partner event expiry job failed'))
      .finally(() => {
        if (expiryRunning === running) expiryRunning = undefined;
      });
    expiryRunning = running;
    return running;
  };
  const scheduleExpiry = () => {
    if (closed) return;
    expiryTimer = setTimeout(
      () => void runExpiry().finally(scheduleExpiry),
      expiryEveryMs + Math.random() * expiryJitterMs,
    );
    expiryTimer.unref();
  };

  // A round in progress (a receiver that hangs keeps one going) claims again when woken, as a new round would.
  const wake = () => {
    sender.nudge();
    setImmediate(runInBackground);
  };
  const timer = setInterval(wake, pollMs);
  timer.unref();
  const heartbeat = setInterval(() => {
    sender.renewClaims().catch((error) => reportFailure(error, 'renewing partner event claims failed'));
  }, heartbeatMs);
  heartbeat.unref();

  return {
    deliverDue,
    announceExpiries: expiryJob,
    wake,
    start() {
      runInBackground();
      void runExpiry();
      scheduleExpiry();
    },
    async close() {
      closed = true;
      clearInterval(timer);
      clearInterval(heartbeat);
      clearTimeout(expiryTimer);
      await expiryRunning;
      // A try in flight is cut short (recorded, due again at once), so shutting down never waits for a receiver; the
      // claims are then given back for another instance.
      sender.interrupt();
      await rounds.current()?.catch(() => 0);
      await sender.releaseAll().catch(() => {});
    },
  };
}
