// Back-channel logouts owed to apps (table oidc_logout_deliveries): queued in the transaction that ended the sessions
// (migration 0018's triggers, or the provider for an app's own logout), delivered by the one logout queue
// (logout-queue.ts: each app at its own pace, leases, retries for a day); each outcome is written to the audit log.
import { asc, eq, inArray } from 'drizzle-orm';
import type Provider from 'oidc-provider';
import type { Client } from 'oidc-provider';
import type { Db } from '../../../db/client.js';
import { connectedApps, oidcLogoutDeliveries, oidcClients } from '../../../db/schema.js';
import { recordAudit, systemActor } from '../../audit/log.js';
import { deleteExpiredPayloads } from './adapter.js';
import { userIdOf } from '../claims.js';
import { portalFacts } from '../client-facts.js';
import { createLogoutQueue, type LogoutQueue, type LogoutQueueDeps, logoutTable } from '../logout-queue.js';
import { backchannelSender } from './logouts.js';
import { subjectFor } from '../subjects.js';

const cleanupEveryMs = 60 * 60_000;

export { giveUpAfterMs, logoutRetryDelayMs } from '../logout-queue.js';

export interface LogoutDeliveryMetrics {
  backchannelLogout(result: 'delivered' | 'failed' | 'given_up'): void;
}

export interface LogoutDeliveryDeps {
  db: Db;
  provider: Provider;
  metrics: LogoutDeliveryMetrics;
  log: LogoutQueueDeps['log'];
  databaseLost(error: unknown): void;
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

export function createLogoutDeliveries(deps: LogoutDeliveryDeps): LogoutQueue {
  const { db, provider } = deps;
  const send = backchannelSender(provider);
  const table = logoutTable(db, 'oidc_logout_deliveries', 'client_id');
  let lastCleanup = 0;

  async function audit(delivery: Delivery, resultado: 'entregado' | 'fallido', error?: string) {
    const userId = userIdOf(delivery.accountId);
    if (userId === undefined) return;
    const [client] = await db
      .select({ name: connectedApps.name })
      .from(oidcClients)
      .innerJoin(connectedApps, eq(connectedApps.id, oidcClients.connectedAppId))
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

  return createLogoutQueue<Delivery>(
    {
      name: 'back-channel logout',
      laneOf: (delivery) => delivery.clientId,
      async claim(now, leaseUntil, limit, busy) {
        const ids = await table.claim(now, leaseUntil, limit, busy);
        if (ids.length === 0) return [];
        return db
          .select()
          .from(oidcLogoutDeliveries)
          .where(inArray(oidcLogoutDeliveries.id, ids))
          .orderBy(asc(oidcLogoutDeliveries.id));
      },
      async send(delivery) {
        const client = await provider.Client.find(delivery.clientId);
        if (!client?.backchannelLogoutUri)
          throw new Error('the client is gone or no longer takes back-channel logouts');
        await send(client, subjectOfDelivery(client, delivery), delivery.sid);
      },
      async settle(delivery, outcome) {
        const message = outcome.delivered
          ? null
          : String((outcome.error as Error)?.message ?? outcome.error).slice(0, 500);
        deps.metrics.backchannelLogout(outcome.delivered ? 'delivered' : outcome.givenUp ? 'given_up' : 'failed');
        await table.settle(delivery.id, outcome, message);
        if (outcome.delivered) await audit(delivery, 'entregado');
        else if (outcome.givenUp) await audit(delivery, 'fallido', message ?? undefined);
      },
      release: (deliveries) => table.release(deliveries.map((delivery) => delivery.id)),
      async tidy() {
        if (Date.now() - lastCleanup < cleanupEveryMs) return;
        lastCleanup = Date.now();
        await deleteExpiredPayloads(db);
        await table.deleteSettled(new Date());
      },
    },
    deps,
  );
}
