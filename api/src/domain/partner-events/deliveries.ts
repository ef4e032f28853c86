// Sending the deliveries, by the one sender (domain/sender.ts): each subscription is a lane, served by one
// instance at a time (a short claim on the subscription row, renewed while it sends, lapsing if the instance dies),
// the one whose first waiting delivery is due longest first, each subscription's deliveries strictly in `seq` order: the next one
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
import type { Outbound, Served } from '../sender.js';
import { notServedHere, rowClaims } from '../row-claims.js';
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

/** Subscriptions served at once by one instance. */
const subscriptionsPerInstance = 16;
const deliveriesPerRead = 100;
/** Deliveries a subscription sends before it gives its place to the others (and is claimed again after them). */
const deliveriesPerTurn = 200;

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

/** The partner events as the sender's lanes: what is due (a subscription's first waiting delivery), how to send it. */
export function partnerDeliveryLanes(deps: SenderDeps): Omit<Outbound<Subscription>, 'prepare' | 'tidy'> {
  const { db, clock } = deps;
  const claims = rowClaims(db, 'partner_subscriptions', clock);
  const { instanceId } = claims;

  /**
   * Claims up to `limit` subscriptions not in `busy` whose first pending delivery is due and which no live instance
   * holds, the one due longest first.
   */
  async function claimSubscriptions(limit: number, busy: ReadonlySet<string>): Promise<Subscription[]> {
    const now = new Date(clock());
    const lease = claims.leaseEnd();
    const ids = await rowsOf<{ id: string }>(
      db,
      sql`UPDATE partner_subscriptions s SET claimed_by = ${instanceId}, locked_until = ${lease}
          WHERE s.id IN (
            SELECT c.id FROM partner_subscriptions c
            CROSS JOIN LATERAL (SELECT d.next_attempt_at AS due FROM partner_deliveries d
                   WHERE d.subscription_id = c.id AND d.status = 'pendiente' ORDER BY d.seq LIMIT 1) first
            WHERE c.status = 'activa' AND (c.locked_until IS NULL OR c.locked_until <= ${now}) ${notServedHere(busy)}
              AND first.due <= ${now}
            ORDER BY first.due LIMIT ${limit} FOR UPDATE OF c SKIP LOCKED)
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

  async function attempt(
    subscription: Subscription,
    delivery: PartnerDeliveryRow,
    shutdown: AbortSignal,
  ): Promise<TryResult> {
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
        signal: AbortSignal.any([AbortSignal.timeout(deps.timeoutMs), shutdown]),
      });
    } catch (error) {
      if (shutdown.aborted) return { ok: false, status: null, error: M.interrupted, interrupted: true };
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

  /**
   * Sends what is due of one claimed subscription, in order; stops at a delivery that waits for its retry (due again
   * then), or with more to send once its turn ended.
   */
  async function drain(subscription: Subscription, shutdown: AbortSignal): Promise<Served> {
    let delivered = 0;
    for (;;) {
      if (shutdown.aborted) return { delivered };
      if (delivered >= deliveriesPerTurn) return { delivered, more: true };
      const batch = await db
        .select()
        .from(partnerDeliveries)
        .where(and(eq(partnerDeliveries.subscriptionId, subscription.id), eq(partnerDeliveries.status, 'pendiente')))
        .orderBy(asc(partnerDeliveries.seq))
        .limit(deliveriesPerRead);
      if (batch.length === 0) return { delivered };
      for (const delivery of batch) {
        if (shutdown.aborted) return { delivered };
        if (delivery.nextAttemptAt.getTime() > clock()) return { delivered, dueAt: delivery.nextAttemptAt };
        const attempts = delivery.attempts + 1;
        const result = await attempt(subscription, delivery, shutdown);
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
          return { delivered };
        }
        if (result.interrupted) {
          // Recorded as tried (the receiver may have it: the same webhook-id lets it tell), due again now.
          await db
            .update(partnerDeliveries)
            .set({ ...seen, nextAttemptAt: triedAt })
            .where(eq(partnerDeliveries.id, delivery.id));
          return { delivered };
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
        const retryAt = new Date(clock() + wait);
        await db
          .update(partnerDeliveries)
          .set({ ...seen, nextAttemptAt: retryAt })
          .where(eq(partnerDeliveries.id, delivery.id));
        deps.metrics.partnerDelivery('reintento');
        deps.log.warn(
          { subscriptionId: subscription.id, deliveryId: delivery.id, attempts, status: result.status },
          'partner event delivery failed; will retry',
        );
        return { delivered, dueAt: retryAt };
      }
    }
  }

  return {
    name: 'partner events',
    maxLanes: subscriptionsPerInstance,
    keyOf: (subscription) => subscription.id,
    claim: claimSubscriptions,
    serve: drain,
    release: (subscription) => claims.release(subscription.id),
    renew: claims.renew,
  };
}
