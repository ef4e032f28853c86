// Sending the deliveries: one instance at a time per subscription (a short claim on the subscription row, renewed
// while it sends, lapsing if the instance dies), each subscription's deliveries strictly in `seq` order: the next one
// waits while an earlier one is being retried. Each try is signed in the Standard Webhooks format with every secret
// that signs now, bounded by a timeout, never follows a redirect; a failure is retried on the Standard Webhooks
// schedule (Retry-After honoured), a 410 disables the subscription, and after the last try the delivery is failed
// and the queue moves on.
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { type Db, rowsOf } from '../../db/client.js';
import { type PartnerDeliveryRow, partnerDeliveries, partnerSubscriptions } from '../../db/schema.js';
import { refusedSpecialUse } from '../../lib/outbound/special-use.js';
import { recordAudit, systemActor } from '../audit/log.js';
import type { Clock } from '../clock.js';
import { rowClaims } from '../row-claims.js';
import { maxAttempts, nextRetryDelayMs, retryAfterMs } from './events.js';
import { partnerEventMessages as M } from './messages.js';
import { ownerOfApp, signingSecrets, subscriptionAction } from './subscriptions.js';

/** How a try ended, as the metrics count it. */
export type DeliveryOutcome = 'entregado' | 'reintento' | 'fallido' | 'desactivada';

export interface PartnerDeliveryMetrics {
  partnerDelivery(outcome: DeliveryOutcome): void;
}

export interface SenderDeps {
  db: Db;
  clock: Clock;
  sealingKey: Buffer;
  /** The fetch for addresses someone else chose (lib/outbound/special-use.ts: guarded unless the operator lifted it). */
  fetch: (url: string, options?: RequestInit) => Promise<Response>;
  timeoutMs: number;
  metrics: PartnerDeliveryMetrics;
  log: { warn(details: object, message: string): void };
}

const subscriptionsPerRound = 16;
const deliveriesPerRead = 100;

type Subscription = typeof partnerSubscriptions.$inferSelect;

interface TryResult {
  ok: boolean;
  status: number | null;
  error: string | null;
  retryAfter?: number;
  gone?: boolean;
  /** Cut short because the instance is shutting down: tried again at once, by whichever instance claims it. */
  interrupted?: boolean;
}

/** A promise and what resolves it. */
function signal(): { promise: Promise<void>; resolve: () => void } {
  let resolve = () => {};
  const promise = new Promise<void>((settle) => {
    resolve = settle;
  });
  return { promise, resolve };
}

export function createSender(deps: SenderDeps) {
  const { db, clock } = deps;
  const claims = rowClaims(db, 'partner_subscriptions', clock);
  const { instanceId } = claims;
  // Aborted when the instance shuts down: the tries in flight end at once instead of at their timeout.
  const shutdown = new AbortController();
  // Resolved (and replaced) by `nudge`: a round waiting on its drains looks for newly due subscriptions.
  let nudged = signal();

  /** Claims up to `limit` subscriptions whose first pending delivery is due and which no live instance holds. */
  async function claimSubscriptions(limit: number): Promise<Subscription[]> {
    const now = new Date(clock());
    const lease = claims.leaseEnd();
    const ids = await rowsOf<{ id: string }>(
      db,
      sql`UPDATE partner_subscriptions s SET claimed_by = ${instanceId}, locked_until = ${lease}
          WHERE s.id IN (
            SELECT c.id FROM partner_subscriptions c
            WHERE c.status = 'activa' AND (c.locked_until IS NULL OR c.locked_until <= ${now})
              AND (SELECT d.next_attempt_at FROM partner_deliveries d
                   WHERE d.subscription_id = c.id AND d.status = 'pendiente' ORDER BY d.seq LIMIT 1) <= ${now}
            LIMIT ${limit} FOR UPDATE SKIP LOCKED)
          AND (s.locked_until IS NULL OR s.locked_until <= ${now})
          RETURNING s.id`,
    );
    if (ids.length === 0) return [];
    claims.took(ids.map(({ id }) => id));
    return db
      .select()
      .from(partnerSubscriptions)
      .where(
        inArray(
          partnerSubscriptions.id,
          ids.map((row) => row.id),
        ),
      );
  }

  async function attempt(subscription: Subscription, delivery: PartnerDeliveryRow): Promise<TryResult> {
    const body = JSON.stringify(delivery.payload);
    // The moment of sending as the receiver's own clock knows it (it refuses a timestamp far from its time).
    const timestamp = new Date();
    const signature = signingSecrets(deps.sealingKey, subscription, clock())
      .map((secret) => new Webhook(secret).sign(delivery.messageId, timestamp, body))
      .join(' ');
    let response: Response;
    try {
      response = await deps.fetch(subscription.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Portal-Webhooks/1',
          'webhook-id': delivery.messageId,
          'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
          'webhook-signature': signature,
        },
        body,
        redirect: 'manual',
        signal: AbortSignal.any([AbortSignal.timeout(deps.timeoutMs), shutdown.signal]),
      });
    } catch (error) {
      if (shutdown.signal.aborted) return { ok: false, status: null, error: M.interrupted, interrupted: true };
      const name = (error as Error).name;
      if (name === 'TimeoutError' || name === 'AbortError')
        return { ok: false, status: null, error: M.timedOut(deps.timeoutMs) };
      if (refusedSpecialUse(error)) return { ok: false, status: null, error: M.privateAddress };
      const code = (error as { cause?: { code?: string } }).cause?.code ?? name;
      return { ok: false, status: null, error: M.network(String(code)) };
    }
    // Only the status matters: the body is dropped unread.
    await response.body?.cancel().catch(() => {});
    const status = response.status;
    if (status >= 200 && status < 300) return { ok: true, status, error: null };
    if (status === 410) return { ok: false, status, error: M.gone, gone: true };
    return {
      ok: false,
      status,
      error: status >= 300 && status < 400 ? M.redirected(status) : M.notAccepted(status),
      retryAfter: retryAfterMs(response.headers.get('retry-after'), clock()),
    };
  }

  /** The endpoint answered 410: the subscription is disabled, its waiting deliveries cancelled, and it is audited. */
  async function disable(subscription: Subscription) {
    await db.transaction(async (tx) => {
      await tx
        .update(partnerSubscriptions)
        .set({ status: 'desactivada', disabledReason: M.goneReason, disabledAt: new Date(clock()) })
        .where(eq(partnerSubscriptions.id, subscription.id));
      await tx
        .update(partnerDeliveries)
        .set({ status: 'cancelada', lockedUntil: null })
        .where(and(eq(partnerDeliveries.subscriptionId, subscription.id), eq(partnerDeliveries.status, 'pendiente')));
      const app = await ownerOfApp(tx, subscription.connectedAppId);
      if (app)
        await recordAudit(tx, systemActor, [
          {
            action: subscriptionAction(app, 'subscription_disabled'),
            target: app.target,
            details: {
              ...app.key,
              cliente: app.name,
              suscripcion: subscription.id,
              url: subscription.url,
              motivo: M.goneReason,
            },
          },
        ]);
    });
  }

  /** Sends what is due of one claimed subscription, in order; stops at a delivery that waits for its retry. */
  async function drain(subscription: Subscription, stopped: () => boolean): Promise<number> {
    let delivered = 0;
    for (;;) {
      if (stopped()) return delivered;
      const batch = await db
        .select()
        .from(partnerDeliveries)
        .where(and(eq(partnerDeliveries.subscriptionId, subscription.id), eq(partnerDeliveries.status, 'pendiente')))
        .orderBy(asc(partnerDeliveries.seq))
        .limit(deliveriesPerRead);
      if (batch.length === 0) return delivered;
      for (const delivery of batch) {
        if (stopped() || delivery.nextAttemptAt.getTime() > clock()) return delivered;
        const attempts = delivery.attempts + 1;
        const result = await attempt(subscription, delivery);
        const triedAt = new Date(clock());
        if (result.ok) {
          await db
            .update(partnerDeliveries)
            .set({
              status: 'entregado',
              attempts,
              deliveredAt: triedAt,
              lastAttemptAt: triedAt,
              lastStatusCode: result.status,
              lastError: null,
              lockedUntil: null,
            })
            .where(eq(partnerDeliveries.id, delivery.id));
          deps.metrics.partnerDelivery('entregado');
          delivered++;
          continue;
        }
        const seen = { attempts, lastAttemptAt: triedAt, lastStatusCode: result.status, lastError: result.error };
        if (result.gone) {
          await db.update(partnerDeliveries).set(seen).where(eq(partnerDeliveries.id, delivery.id));
          await disable(subscription);
          deps.metrics.partnerDelivery('desactivada');
          deps.log.warn(
            { subscriptionId: subscription.id },
            'partner event endpoint answered 410; subscription disabled',
          );
          return delivered;
        }
        if (result.interrupted) {
          // Recorded as tried (the receiver may have it: the same webhook-id lets it tell), due again now.
          await db
            .update(partnerDeliveries)
            .set({ ...seen, nextAttemptAt: triedAt })
            .where(eq(partnerDeliveries.id, delivery.id));
          return delivered;
        }
        const wait = attempts >= maxAttempts ? undefined : nextRetryDelayMs(attempts, result.retryAfter);
        if (wait === undefined) {
          await db
            .update(partnerDeliveries)
            .set({ ...seen, status: 'fallido' })
            .where(eq(partnerDeliveries.id, delivery.id));
          deps.metrics.partnerDelivery('fallido');
          continue;
        }
        await db
          .update(partnerDeliveries)
          .set({ ...seen, nextAttemptAt: new Date(clock() + wait) })
          .where(eq(partnerDeliveries.id, delivery.id));
        deps.metrics.partnerDelivery('reintento');
        deps.log.warn(
          { subscriptionId: subscription.id, deliveryId: delivery.id, attempts, status: result.status },
          'partner event delivery failed; will retry',
        );
        return delivered;
      }
    }
  }

  /**
   * One round: claims subscriptions with due deliveries and drains each, up to `subscriptionsPerRound` at once, each at
   * its own pace: as soon as one is done, or `nudge` says something may have come due, `prepare` runs (the fan-out of
   * new events) and free places are claimed again, so a receiver that hangs holds its own subscription, no other.
   * Resolves once nothing is left to claim and every drain has ended.
   */
  async function sendDue(stopped: () => boolean, prepare: () => Promise<void> = async () => {}): Promise<number> {
    let delivered = 0;
    const running = new Set<Promise<void>>();
    for (;;) {
      if (stopped()) break;
      const waking = nudged.promise;
      if (running.size < subscriptionsPerRound) {
        await prepare();
        for (const subscription of await claimSubscriptions(subscriptionsPerRound - running.size)) {
          const draining: Promise<void> = drain(subscription, stopped)
            .then((count) => {
              delivered += count;
            })
            .finally(() => claims.release(subscription.id))
            .finally(() => running.delete(draining));
          running.add(draining);
        }
      }
      if (running.size === 0) break;
      await Promise.race([...running, waking]);
    }
    await Promise.allSettled(running);
    return delivered;
  }

  /** Something may have come due (an event queued, a retry's time): a round in progress claims again. */
  function nudge() {
    const { resolve } = nudged;
    nudged = signal();
    resolve();
  }

  return {
    sendDue,
    nudge,
    renewClaims: claims.renew,
    /** Shutting down: every try in flight is cut short (recorded, due again at once). */
    interrupt: () => shutdown.abort(),
    releaseAll: claims.releaseAll,
  };
}
