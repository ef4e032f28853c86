// oidc-provider's storage in the portal's database (table oidc_payloads, migration 0018): one adapter per model
// name, as the library asks. Clients are read from oidc_clients, which administrators manage.
import { and, desc, eq, gt, isNull, or, sql } from 'drizzle-orm';
import { errors, type Adapter, type AdapterPayload } from 'oidc-provider';
import type { Db } from '../../../db/client.js';
import { oidcPayloads, users } from '../../../db/schema.js';
import { keptKinds, type ProviderMemory } from '../provider-memory.js';

/** What the adapter needs besides the database: the registered clients' metadata, by client id, and the memory. */
export interface AdapterDeps {
  db: Db;
  clientMetadata(clientId: string): Promise<AdapterPayload | undefined>;
  memory: ProviderMemory;
}

const seconds = (ms: number) => Math.floor(ms / 1000);

/** The columns a payload is looked up and revoked by, beside the payload itself. */
function lookupColumns(kind: string, id: string, payload: AdapterPayload) {
  return {
    // A grant is revoked with everything issued under it: its own row carries its id as its grant.
    grantId: kind === 'Grant' ? id : (payload.grantId ?? null),
    uid: kind === 'Session' ? (payload.uid ?? null) : null,
    sessionUid: payload.sessionUid ?? null,
    accountId: payload.accountId ?? null,
  };
}

export function createAdapterFactory(deps: AdapterDeps): (name: string) => Adapter {
  const { db, memory } = deps;
  const live = (kind: string, id: string) =>
    and(
      eq(oidcPayloads.kind, kind),
      eq(oidcPayloads.id, id),
      or(isNull(oidcPayloads.expiresAt), gt(oidcPayloads.expiresAt, new Date())),
    );
  const liveByUid = (kind: string, uid: string) =>
    and(
      eq(oidcPayloads.kind, kind),
      eq(oidcPayloads.uid, uid),
      or(isNull(oidcPayloads.expiresAt), gt(oidcPayloads.expiresAt, new Date())),
    );

  /**
   * A kept kind's payload (by id, or a provider session by its uid) with its account's row, kept in memory for the next
   * reads (provider-memory.ts).
   */
  async function findKept(kind: string, id: string, byUid = false): Promise<AdapterPayload | undefined> {
    const kept = memory.payload(kind, id);
    if (kept) return kept as AdapterPayload;
    const ticket = memory.ticket();
    const [row] = await db
      .select({ payload: oidcPayloads.payload, user: users })
      .from(oidcPayloads)
      .leftJoin(users, eq(sql`${users.id}::text`, oidcPayloads.accountId))
      .where(byUid ? liveByUid(kind, id) : live(kind, id));
    if (!row) return undefined;
    if (row.user) memory.storePayload(ticket, row.user, kind, id, row.payload);
    return row.payload as AdapterPayload;
  }

  async function findClient(clientId: string): Promise<AdapterPayload | undefined> {
    const kept = memory.client(clientId);
    if (kept.found) return kept.value as AdapterPayload | undefined;
    const ticket = memory.clientTicket();
    const metadata = await deps.clientMetadata(clientId);
    memory.storeClient(ticket, clientId, metadata);
    return metadata;
  }

  class PortalAdapter implements Adapter {
    constructor(private readonly kind: string) {}

    async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
      const expiresAt = expiresIn ? new Date(Date.now() + expiresIn * 1000) : null;
      const row = { kind: this.kind, id, payload: payload as Record<string, unknown>, expiresAt };
      const columns = lookupColumns(this.kind, id, payload);
      // A new Grant adds its client and person to `oidc_client_people`; a changed token, grant or session notifies
      // session-state (triggers on oidc_payloads, docs/triggers.md).
      await db
        .insert(oidcPayloads)
        .values({ ...row, ...columns })
        .onConflictDoUpdate({
          target: [oidcPayloads.kind, oidcPayloads.id],
          set: { payload: row.payload, expiresAt, ...columns },
        });
      // A grant changed here (more scopes), a session signed in again: what this instance keeps of it goes now, the
      // others on notification. A session is kept by its uid.
      if (keptKinds.has(this.kind)) memory.forgetPayload(this.kind, id);
      if (this.kind === 'Session' && typeof payload.uid === 'string') memory.forgetPayload(this.kind, payload.uid);
    }

    async find(id: string): Promise<AdapterPayload | undefined> {
      if (this.kind === 'Client') return findClient(id);
      if (keptKinds.has(this.kind)) return findKept(this.kind, id);
      // An expired device code is still found (the library asks with ignoreExpiration): the device is told
      // expired_token, not that its code never existed (RFC 8628 §3.5).
      const [row] = await db
        .select({ payload: oidcPayloads.payload, consumedAt: oidcPayloads.consumedAt })
        .from(oidcPayloads)
        .where(
          this.kind === 'DeviceCode'
            ? and(eq(oidcPayloads.kind, this.kind), eq(oidcPayloads.id, id))
            : live(this.kind, id),
        );
      if (!row) return undefined;
      return {
        ...(row.payload as AdapterPayload),
        ...(row.consumedAt ? { consumed: seconds(row.consumedAt.getTime()) } : {}),
      };
    }

    async findByUid(uid: string): Promise<AdapterPayload | undefined> {
      // A session-bound token's every use looks its provider session up by uid: kept, as access tokens are.
      if (this.kind === 'Session') return findKept(this.kind, uid, true);
      const [row] = await db
        .select({ payload: oidcPayloads.payload })
        .from(oidcPayloads)
        .where(liveByUid(this.kind, uid));
      return row?.payload as AdapterPayload | undefined;
    }

    /** A device code by the user code typed at /dispositivo (normalized); expired ones too, the library tells them. */
    async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
      const [row] = await db
        .select({ payload: oidcPayloads.payload, consumedAt: oidcPayloads.consumedAt })
        .from(oidcPayloads)
        .where(and(eq(oidcPayloads.kind, this.kind), sql`${oidcPayloads.payload}->>'userCode' = ${userCode}`))
        .orderBy(desc(oidcPayloads.expiresAt))
        .limit(1);
      if (!row) return undefined;
      return {
        ...(row.payload as AdapterPayload),
        ...(row.consumedAt ? { consumed: seconds(row.consumedAt.getTime()) } : {}),
      };
    }

    /**
     * Marks a code or refresh token used, in one atomic update. Two redemptions racing each read it unused; the one
     * whose update finds it already used revokes the grant (so whatever the other was issued is revoked too) and is
     * refused, as a sequential replay is.
     */
    async consume(id: string): Promise<void> {
      const used = await db
        .update(oidcPayloads)
        .set({ consumedAt: new Date() })
        .where(and(eq(oidcPayloads.kind, this.kind), eq(oidcPayloads.id, id), isNull(oidcPayloads.consumedAt)))
        .returning({ grantId: oidcPayloads.grantId });
      if (used.length > 0) return;
      const [row] = await db
        .select({ grantId: oidcPayloads.grantId })
        .from(oidcPayloads)
        .where(and(eq(oidcPayloads.kind, this.kind), eq(oidcPayloads.id, id)));
      if (row?.grantId) await this.revokeByGrantId(row.grantId);
      throw new errors.InvalidGrant(`${this.kind} already used`);
    }

    async destroy(id: string): Promise<void> {
      const destroyed = await db
        .delete(oidcPayloads)
        .where(and(eq(oidcPayloads.kind, this.kind), eq(oidcPayloads.id, id)))
        .returning({ uid: oidcPayloads.uid });
      if (keptKinds.has(this.kind)) memory.forgetPayload(this.kind, id);
      // A session is destroyed by its id and kept by its uid.
      for (const { uid } of destroyed)
        if (this.kind === 'Session' && uid !== null) memory.forgetPayload(this.kind, uid);
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      const revoked = await db
        .delete(oidcPayloads)
        .where(eq(oidcPayloads.grantId, grantId))
        .returning({ accountId: oidcPayloads.accountId });
      for (const account of new Set(revoked.map((row) => row.accountId))) {
        if (account !== null && /^\d+$/.test(account)) memory.forget(Number(account));
      }
    }
  }

  return (name: string) => new PortalAdapter(name);
}

/** Drops what expired more than a day ago (the library ignores it already; this only keeps the table small). */
export async function deleteExpiredPayloads(db: Db): Promise<number> {
  const deleted = await db
    .delete(oidcPayloads)
    .where(sql`${oidcPayloads.expiresAt} < now() - interval '1 day'`)
    .returning({ id: oidcPayloads.id });
  return deleted.length;
}
