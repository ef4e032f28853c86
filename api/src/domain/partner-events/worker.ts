// The partner events' background work on each instance: fan-out of new events into deliveries, sending them (the one
// sender, domain/sender.ts), the expiry job, and clean-up of old rows. Woken at once when a trigger writes an
// event (the portal_partner_events channel) and when this instance's own retries come due; the sender's sweep catches
// anything missed (another instance's lapsed claim). All state is in the database: a restarted or second instance
// just carries on.
import { and, count, inArray, isNotNull, isNull, lt, min, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { partnerDeliveries, partnerEvents } from '../../db/schema.js';
import { isDatabaseUnavailable } from '../../lib/errors.js';
import { createSender } from '../sender.js';
import { partnerDeliveryLanes, type SenderDeps } from './deliveries.js';
import { announceExpiries } from './expiry.js';
import { fanOutBatch } from './fan-out.js';

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

  const sender = createSender(
    { ...partnerDeliveryLanes(deps), prepare: fanOut, tidy: cleanup },
    { ...deps, now: clock },
  );

  const expiryJob = async () => {
    const announced = await announceExpiries(db, new Date(clock()));
    if (announced > 0) sender.wake();
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

  return {
    deliverDue: sender.deliverDue,
    announceExpiries: expiryJob,
    wake: sender.wake,
    start() {
      sender.start();
      void runExpiry();
      scheduleExpiry();
    },
    async close() {
      closed = true;
      clearTimeout(expiryTimer);
      await expiryRunning;
      // A try in flight is cut short (recorded, due again at once), so shutting down never waits for a receiver; the
      // claims are given back for another instance.
      await sender.close();
    },
  };
}
