// Work done by one instance at a time per row (a partner app's event subscription, a company's SIEM destination): the
// row carries `claimed_by` and `locked_until`, a short lease its holder renews while it works and that lapses if the
// instance dies, so another one takes over. Taking the claim is each caller's own query (what is due differs); giving
// it back and renewing it are the same everywhere.
import { randomUUID } from 'node:crypto';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';

/** A claim lasts this long unless renewed; a dead instance's rows are taken over after it. */
export const claimLeaseMs = 15_000;

export interface RowClaims {
  /** This instance's name on its claims. */
  readonly instanceId: string;
  /** Until when a claim taken now holds. */
  leaseEnd(): Date;
  /** Rows this instance just claimed. */
  took(ids: readonly string[]): void;
  /** Gives one row back (only if this instance still holds it). */
  release(id: string): Promise<void>;
  /** Extends every claim this instance holds. */
  renew(): Promise<void>;
  releaseAll(): Promise<void>;
}

/** `AND c.id NOT IN (…)` for the rows this instance is serving already (none: nothing), in a claim's `WHERE`. */
export function notServedHere(busy: ReadonlySet<string>): SQL {
  if (busy.size === 0) return sql``;
  return sql`AND c.id NOT IN (${sql.join(
    [...busy].map((id) => sql`${id}::uuid`),
    sql`, `,
  )})`;
}

export function rowClaims(db: Db, table: 'partner_subscriptions' | 'audit_streams', clock: () => number): RowClaims {
  const instanceId = randomUUID();
  const held = new Set<string>();
  const name = sql.identifier(table);
  const leaseEnd = () => new Date(clock() + claimLeaseMs);
  const release = async (id: string) => {
    held.delete(id);
    await db.execute(
      sql`UPDATE ${name} SET claimed_by = NULL, locked_until = NULL WHERE id = ${id} AND claimed_by = ${instanceId}`,
    );
  };
  return {
    instanceId,
    leaseEnd,
    took: (ids) => {
      for (const id of ids) held.add(id);
    },
    release,
    async renew() {
      if (held.size === 0) return;
      const ids = sql.join(
        [...held].map((id) => sql`${id}`),
        sql`, `,
      );
      await db.execute(
        sql`UPDATE ${name} SET locked_until = ${leaseEnd()} WHERE id IN (${ids}) AND claimed_by = ${instanceId}`,
      );
    },
    releaseAll: async () => {
      await Promise.all([...held].map(release));
    },
  };
}
