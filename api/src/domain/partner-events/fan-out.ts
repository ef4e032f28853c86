// From events to deliveries: each event the triggers wrote becomes one delivery per active subscription that takes
// its type and whose app (an OpenID Connect client or a SAML app) may learn of it, with that subscription's next
// sequence number. One instance fans out at a time (a transaction-scoped advisory lock of this schema; another
// instance skips the round), so sequence numbers follow the events' order and no event is fanned out twice; the events
// and their deliveries commit together.
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import {
  oidcClientPeople,
  oidcClients,
  partnerDeliveries,
  partnerEvents,
  partnerSubscriptions,
  samlAppPeople,
  samlApps,
} from '../../db/schema.js';
import { selectClients, selectSamlApps } from '../identity-provider/connected-apps.js';
import { eventData, message, type PartnerEventRow, samlEventData } from './events.js';

/** Key of the advisory lock held by the instance fanning out. */
export const fanOutLockKey = 0x5041_5254; // 'PART'
const batchSize = 500;

/** The Standard Webhooks `webhook-id` of an event for a subscription: the same on every try and resend. */
export const messageIdOf = (subscriptionId: string, seq: number) => `msg_${subscriptionId.replaceAll('-', '')}_${seq}`;

/** Fans out one batch of events; answers how many events were done (0: none waiting, or another instance has it). */
export async function fanOutBatch(db: Db, now: Date): Promise<{ events: number; deliveries: number }> {
  return db.transaction(async (tx) => {
    const [locked] =
      // Per schema: a portal in another schema of the same database fans out its own events, never holding ours.
      (
        (await tx.execute(
          sql`SELECT pg_try_advisory_xact_lock(${fanOutLockKey}, hashtext(current_schema())) AS ok`,
        )) as unknown as {
          rows: { ok: boolean }[];
        }
      ).rows;
    if (!locked?.ok) return { events: 0, deliveries: 0 };
    const events = (await tx
      .select({
        id: partnerEvents.id,
        userId: partnerEvents.userId,
        publicId: partnerEvents.publicId,
        tipo: partnerEvents.tipo,
        appId: partnerEvents.appId,
        clientId: partnerEvents.clientId,
        data: partnerEvents.data,
        createdAt: partnerEvents.createdAt,
      })
      .from(partnerEvents)
      .where(isNull(partnerEvents.fannedOutAt))
      .orderBy(asc(partnerEvents.id))
      .limit(batchSize)) as PartnerEventRow[];
    if (events.length === 0) return { events: 0, deliveries: 0 };

    // Held until this round commits: a subscription being disabled meanwhile (a 410) waits, and then cancels what this
    // round queued for it too; one disabled first is not read as active.
    const subscriptions = await tx
      .select()
      .from(partnerSubscriptions)
      .where(eq(partnerSubscriptions.status, 'activa'))
      .orderBy(asc(partnerSubscriptions.createdAt))
      .for('share');
    const readers = await eventReaders(
      tx,
      [...new Set(subscriptions.map((row) => row.connectedAppId))],
      [...new Set(events.map((event) => event.userId))],
    );

    const nextSeq = new Map(subscriptions.map((row) => [row.id, row.nextSeq]));
    const rows: (typeof partnerDeliveries.$inferInsert)[] = [];
    for (const event of events) {
      const data = new Map<number, Record<string, unknown> | null>();
      for (const subscription of subscriptions) {
        if (!subscription.eventos.includes(event.tipo)) continue;
        const reader = readers.get(subscription.connectedAppId);
        if (!reader) continue;
        if (!data.has(subscription.connectedAppId)) data.set(subscription.connectedAppId, await reader(event));
        const payload = data.get(subscription.connectedAppId);
        if (!payload) continue;
        const seq = nextSeq.get(subscription.id) as number;
        nextSeq.set(subscription.id, seq + 1);
        rows.push({
          subscriptionId: subscription.id,
          seq,
          eventId: event.id,
          messageId: messageIdOf(subscription.id, seq),
          tipo: event.tipo,
          payload: message(event, seq, payload),
          nextAttemptAt: now,
          createdAt: now,
        });
      }
    }
    for (let start = 0; start < rows.length; start += 1_000)
      await tx
        .insert(partnerDeliveries)
        .values(rows.slice(start, start + 1_000))
        .onConflictDoNothing({ target: [partnerDeliveries.subscriptionId, partnerDeliveries.eventId] });
    for (const subscription of subscriptions) {
      const seq = nextSeq.get(subscription.id) as number;
      if (seq !== subscription.nextSeq)
        await tx.update(partnerSubscriptions).set({ nextSeq: seq }).where(eq(partnerSubscriptions.id, subscription.id));
    }
    await tx
      .update(partnerEvents)
      .set({ fannedOutAt: now })
      .where(
        inArray(
          partnerEvents.id,
          events.map((event) => event.id),
        ),
      );
    // A deleted person is known to no client any more.
    const deleted = events.filter((event) => event.tipo === 'usuario.eliminado').map((event) => event.userId);
    if (deleted.length > 0) {
      await tx.delete(oidcClientPeople).where(inArray(oidcClientPeople.userId, deleted));
      await tx.delete(samlAppPeople).where(inArray(samlAppPeople.userId, deleted));
    }
    return { events: events.length, deliveries: rows.length };
  });
}

/** What one connected app is sent of an event: the message's `data`, or null when it may not learn of it. */
type EventReader = (event: PartnerEventRow) => Promise<Record<string, unknown> | null>;

/**
 * For each connected app, how it reads an event, whatever its protocol: an OpenID Connect client learns of the people
 * it was given a grant for (and of its own consents taken back), a SAML app of the people it was given an assertion
 * for, under the NameID it was sent.
 */
async function eventReaders(db: Db, appIds: number[], userIds: number[]): Promise<Map<number, EventReader>> {
  const readers = new Map<number, EventReader>();
  if (appIds.length === 0) return readers;
  const clients = await selectClients(db).where(inArray(oidcClients.connectedAppId, appIds));
  const known =
    clients.length === 0
      ? new Set<string>()
      : new Set(
          (
            await db
              .select()
              .from(oidcClientPeople)
              .where(
                and(
                  inArray(oidcClientPeople.userId, userIds),
                  inArray(
                    oidcClientPeople.clientId,
                    clients.map((client) => client.clientId),
                  ),
                ),
              )
          ).map((row) => `${row.clientId} ${row.userId}`),
        );
  for (const client of clients)
    readers.set(client.connectedAppId, async (event) => {
      // A consent event goes to its client; everything else only to clients that were given a grant for the person.
      if (event.tipo === 'consentimiento.revocado') {
        if (event.clientId !== client.clientId) return null;
      } else if (!known.has(`${client.clientId} ${event.userId}`)) return null;
      return eventData(db, client, event);
    });

  const saml = await selectSamlApps(db).where(inArray(samlApps.connectedAppId, appIds));
  const nameIds =
    saml.length === 0
      ? new Map<string, string>()
      : new Map(
          (
            await db
              .select()
              .from(samlAppPeople)
              .where(
                and(
                  inArray(samlAppPeople.userId, userIds),
                  inArray(
                    samlAppPeople.samlAppId,
                    saml.map((app) => app.id),
                  ),
                ),
              )
          ).map((row) => [`${row.samlAppId} ${row.userId}`, row.nameId]),
        );
  for (const app of saml)
    readers.set(app.connectedAppId, async (event) => {
      const nameId = nameIds.get(`${app.id} ${event.userId}`);
      return nameId === undefined ? null : samlEventData(db, app, nameId, event);
    });
  return readers;
}
