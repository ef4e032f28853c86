// Back-channel logouts owed to apps (table oidc_logout_deliveries): queued in the transaction that ended the sessions
// (migration 0018's triggers, or the provider for an app's own logout), delivered here by each instance. A claim is a
// short lease, so instances sharing the database never send one twice at once and a crashed instance's claims lapse;
// a failure is retried with backoff for a day, then given up; each outcome is written to the audit log.
import { and, asc, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type Provider from 'oidc-provider';
import type { Client } from 'oidc-provider';
import type { Db } from '../../db/client.js';
import { oidcLogoutDeliveries, oidcClients } from '../../db/schema.js';
import { isDatabaseUnavailable } from '../../lib/errors.js';
import { serialRounds } from '../serial-rounds.js';
import { recordAudit, systemActor } from '../audit/log.js';
import { deleteExpiredPayloads } from './adapter.js';
import { userIdOf } from './claims.js';
import { portalFacts } from './client-facts.js';
import { backchannelSender } from './logouts.js';
import { subjectFor } from './subjects.js';

const pollMs = 5_000;
const leaseMs = 30_000;
const batchSize = 20;
const firstRetryMs = 5_000;
const maxRetryMs = 30 * 60_000;
/** A logout not delivered within a day is given up: the app's own session has long expired by then. */
export const giveUpAfterMs = 24 * 60 * 60_000;
const cleanupEveryMs = 60 * 60_000;
const keptDeliveredMs = 30 * 24 * 60 * 60_000;

export function logoutRetryDelayMs(attempts: number): number {
  return Math.min(maxRetryMs, firstRetryMs * 2 ** Math.min(attempts - 1, 20));
}

export interface LogoutDeliveryMetrics {
  backchannelLogout(result: 'delivered' | 'failed' | 'given_up'): void;
}

export interface LogoutDeliveryDeps {
  db: Db;
  provider: Provider;
  metrics: LogoutDeliveryMetrics;
  log: { warn(details: object, message: string): void; error(details: object, message: string): void };
  databaseLost(error: unknown): void;
}

export interface LogoutDeliveries {
  /** Delivers what is due now (and again if woken meanwhile); resolves with how many were delivered. */
  deliverDue(): Promise<number>;
  wake(): void;
  start(): void;
  close(): Promise<void>;
}

type Delivery = typeof oidcLogoutDeliveries.$inferSelect;

/** The `sub` of the logout token: the one the app knows the person by, from what was kept as it was queued. */
function subjectOfDelivery(client: Client, delivery: Delivery): string {
  const id = userIdOf(delivery.accountId);
  if (id === undefined) throw new Error('a logout queued for something that is not an account');
  const { subject } = portalFacts(client);
  if (subject.kind !== 'numerico' && !delivery.publicId)
    throw new Error('the account was gone before its logout was queued');
  return subjectFor(subject, { id, publicId: delivery.publicId ?? '' });
}

export function createLogoutDeliveries(deps: LogoutDeliveryDeps): LogoutDeliveries {
  const { db, provider } = deps;
  const send = backchannelSender(provider);
  let closed = false;
  let lastCleanup = 0;

  function reportFailure(error: unknown, what: string) {
    if (isDatabaseUnavailable(error)) deps.databaseLost(error);
    else deps.log.error({ err: error }, what);
  }

  async function claimDue(now: Date): Promise<Delivery[]> {
    const due = db
      .select({ id: oidcLogoutDeliveries.id })
      .from(oidcLogoutDeliveries)
      .where(
        and(
          isNull(oidcLogoutDeliveries.deliveredAt),
          isNull(oidcLogoutDeliveries.failedAt),
          lte(oidcLogoutDeliveries.nextAttemptAt, now),
          or(isNull(oidcLogoutDeliveries.lockedUntil), lte(oidcLogoutDeliveries.lockedUntil, now)),
        ),
      )
      .orderBy(asc(oidcLogoutDeliveries.id))
      .limit(batchSize)
      .for('update', { skipLocked: true });
    return db
      .update(oidcLogoutDeliveries)
      .set({ lockedUntil: new Date(now.getTime() + leaseMs) })
      .where(inArray(oidcLogoutDeliveries.id, due))
      .returning();
  }

  async function audit(delivery: Delivery, resultado: 'entregado' | 'fallido', error?: string) {
    const userId = userIdOf(delivery.accountId);
    if (userId === undefined) return;
    const [client] = await db
      .select({ name: oidcClients.name })
      .from(oidcClients)
      .where(eq(oidcClients.clientId, delivery.clientId));
    await recordAudit(db, systemActor, [
      {
        action: 'oidc.backchannel_logout',
        target: { type: 'user', id: userId },
        details: {
          clientId: delivery.clientId,
          cliente: client?.name ?? delivery.clientId,
          motivo: delivery.reason,
          resultado,
          intentos: delivery.attempts + 1,
          ...(error ? { error: error.slice(0, 200) } : {}),
        },
      },
    ]);
  }

  async function deliverOne(delivery: Delivery): Promise<boolean> {
    const attempts = delivery.attempts + 1;
    try {
      const client = await provider.Client.find(delivery.clientId);
      if (!client?.backchannelLogoutUri) throw new Error('the client is gone or no longer takes back-channel logouts');
      await send(client, subjectOfDelivery(client, delivery), delivery.sid);
    } catch (error) {
      const message = String((error as Error).message ?? error).slice(0, 500);
      const givenUp = Date.now() - delivery.createdAt.getTime() >= giveUpAfterMs;
      deps.metrics.backchannelLogout(givenUp ? 'given_up' : 'failed');
      deps.log.warn(
        { err: error, deliveryId: delivery.id, clientId: delivery.clientId, attempts, givenUp },
        'back-channel logout failed',
      );
      await db
        .update(oidcLogoutDeliveries)
        .set({
          attempts,
          lastError: message,
          lockedUntil: null,
          nextAttemptAt: new Date(Date.now() + logoutRetryDelayMs(attempts)),
          ...(givenUp ? { failedAt: new Date() } : {}),
        })
        .where(eq(oidcLogoutDeliveries.id, delivery.id));
      if (givenUp) await audit(delivery, 'fallido', message);
      return false;
    }
    await db
      .update(oidcLogoutDeliveries)
      .set({ attempts, deliveredAt: new Date(), lockedUntil: null, lastError: null })
      .where(eq(oidcLogoutDeliveries.id, delivery.id));
    deps.metrics.backchannelLogout('delivered');
    await audit(delivery, 'entregado');
    return true;
  }

  async function cleanup() {
    if (Date.now() - lastCleanup < cleanupEveryMs) return;
    lastCleanup = Date.now();
    await deleteExpiredPayloads(db);
    await db
      .delete(oidcLogoutDeliveries)
      .where(
        sql`coalesce(${oidcLogoutDeliveries.deliveredAt}, ${oidcLogoutDeliveries.failedAt}) < ${new Date(Date.now() - keptDeliveredMs)}`,
      );
  }

  async function deliverRound(): Promise<number> {
    let delivered = 0;
    for (;;) {
      if (closed) return delivered;
      const batch = await claimDue(new Date());
      const results = await Promise.all(batch.map(deliverOne));
      delivered += results.filter(Boolean).length;
      if (batch.length < batchSize) break;
    }
    await cleanup();
    return delivered;
  }

  const rounds = serialRounds(deliverRound, () => closed);
  const deliverDue = () => rounds.run();

  const runInBackground = () => {
    if (closed) return;
    deliverDue().catch((error) => reportFailure(error, 'back-channel logout round failed'));
  };
  const timer = setInterval(runInBackground, pollMs);
  timer.unref();

  return {
    deliverDue,
    wake: () => setImmediate(runInBackground),
    start: runInBackground,
    async close() {
      closed = true;
      clearInterval(timer);
      // A round settles every row it claimed (each send is bounded by the library's request timeout); a round cut
      // short by an error leaves claims that lapse within the lease.
      await rounds.current()?.catch(() => 0);
    },
  };
}
