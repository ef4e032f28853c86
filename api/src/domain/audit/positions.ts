// Each company entry's place in its company's stream (docs/decisions/0162-audit-positions-after-commit.md): given
// after the entry committed, by one sequencer at a time in this schema (a transaction-scoped advisory lock, waited
// for), in rounds whose places only grow. A reader that sees a place has seen every smaller one, whatever transaction
// stays open elsewhere: the places of a round become visible together, and the next round starts after it committed.
import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client.js';
import { auditPositions, auditUnpositioned } from '../../db/schema.js';
import { serialRounds } from '../serial-rounds.js';

/** Key of the advisory lock held by the sequencer placing entries (with the schema's hash). */
export const positionLockKey = 0x4155_4454; // 'AUDT'
/** Entries placed a round: one short transaction each. */
const batchSize = 1_000;
/** A notification's payload stays under PostgreSQL's 8000 bytes: past this many companies, '*' (all of them). */
const namedCompaniesMax = 500;

/**
 * Gives the committed entries waiting for one their places, oldest written first, round after round until none waits;
 * each round tells the companies it placed entries of on `portal_audit_channel()` (at its commit). Waits for a round
 * running elsewhere, so every entry committed before the call has its place when it resolves. Answers how many it placed.
 */
export async function placeEntries(db: Db): Promise<number> {
  let placed = 0;
  for (;;) {
    const round = await db.transaction(async (tx) => {
      await tx.execute(sql`SELECT pg_advisory_xact_lock(${positionLockKey}, hashtext(current_schema()))`);
      const rows = await rowsOf<{ company_id: number }>(
        tx,
        sql`WITH taken AS (
              DELETE FROM ${auditUnpositioned}
              WHERE entry_id IN (SELECT entry_id FROM ${auditUnpositioned} ORDER BY entry_id LIMIT ${batchSize})
              RETURNING entry_id, company_id
            )
            INSERT INTO ${auditPositions} (entry_id, company_id, position)
            SELECT entry_id, company_id, nextval('audit_position_seq') FROM taken ORDER BY entry_id
            RETURNING company_id`,
      );
      const companies = [...new Set(rows.map((row) => Number(row.company_id)))];
      if (companies.length > 0)
        await tx.execute(
          sql`SELECT pg_notify(portal_audit_channel(), ${companies.length > namedCompaniesMax ? '*' : companies.join(',')})`,
        );
      return rows.length;
    });
    placed += round;
    if (round < batchSize) return placed;
  }
}

export interface AuditSequencer {
  /** Places what waits now (a round of this instance's running meanwhile is waited for, and one more run after it). */
  run(): Promise<number>;
  /** The same, in the background: a committed entry's notification calls it. */
  wake(): void;
  close(): Promise<void>;
}

const retryMs = 1_000;

/**
 * This instance's sequencer: woken by the notification of each committed entry (trigger `audit_log_queued`), by the
 * channel opening again, and by a reader that wants every committed entry placed. A failed round (the database away)
 * is tried again a second later until one succeeds.
 */
export function createAuditSequencer(deps: { db: Db; reportFailure(error: unknown): void }): AuditSequencer {
  let closed = false;
  let retry: NodeJS.Timeout | undefined;
  const rounds = serialRounds(
    () => placeEntries(deps.db),
    () => closed,
  );
  const wake = () => {
    if (closed) return;
    rounds.run().catch((error) => {
      deps.reportFailure(error);
      if (closed || retry) return;
      retry = setTimeout(() => {
        retry = undefined;
        wake();
      }, retryMs);
      retry.unref();
    });
  };
  return {
    run: () => rounds.run(),
    wake,
    async close() {
      closed = true;
      clearTimeout(retry);
      await rounds.current()?.catch(() => 0);
    },
  };
}
