// `plan.vencido`: a job every instance runs about once a minute finds the own plans and company licences whose expiry
// has passed and was not yet announced, and in ONE statement per table marks the expiry announced and writes the
// events. Rows are taken with SKIP LOCKED and the mark is re-checked on the row a concurrent instance just wrote, so
// with several instances each expiry is announced exactly once, by whichever instance gets there first; with one
// instance it is announced within a minute (or at its next start when it was down then).
import { type SQL, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client.js';

const batchSize = 500;

const anySubscriber = sql`EXISTS (SELECT 1 FROM partner_subscriptions
  WHERE status = 'activa' AND 'plan.vencido' = ANY (eventos))`;

/**
 * What differs between an own plan and a company licence: names fixed in this module, never input (they become
 * identifiers and SQL text). `people` joins the expired rows (`due d`) to the people told, as `users u`.
 */
interface Expiring {
  table: 'user_plans' | 'company_licences';
  expiry: 'fecha_vencimiento' | 'expires_at';
  holder: 'user_id' | 'company_id';
  people: SQL;
  /** The event's data before `plan_id` and `vence`, as `jsonb_build_object` arguments. */
  origin: SQL;
}

const expiring: Expiring[] = [
  {
    table: 'user_plans',
    expiry: 'fecha_vencimiento',
    holder: 'user_id',
    people: sql`JOIN users u ON u.id = d.user_id`,
    origin: sql`'origen', 'propio'`,
  },
  {
    table: 'company_licences',
    expiry: 'expires_at',
    holder: 'company_id',
    // Everyone holding a seat of the licence.
    people: sql`JOIN company_seats s ON s.company_id = d.company_id AND s.app_id = d.app_id
                JOIN users u ON u.id = s.user_id`,
    origin: sql`'origen', 'empresa', 'empresa_id', d.company_id`,
  },
];

/** The statement that marks one batch of `kind` expired by `now` as announced, writes its events, answers `n` marked. */
function announceBatch(kind: Expiring, now: Date): SQL {
  const table = sql.identifier(kind.table);
  const expiry = sql.identifier(kind.expiry);
  return sql`WITH due AS (
      UPDATE ${table} t SET expiry_announced = t.${expiry}
      WHERE t.id IN (SELECT id FROM ${table}
                     WHERE ${expiry} <= ${now} AND expiry_announced IS DISTINCT FROM ${expiry}
                     LIMIT ${batchSize} FOR UPDATE SKIP LOCKED)
        AND t.expiry_announced IS DISTINCT FROM t.${expiry}
      RETURNING t.${sql.identifier(kind.holder)}, t.app_id, t.plan_id, t.${expiry} AS expiry),
    written AS (
      INSERT INTO partner_events (user_id, public_id, tipo, app_id, data)
      SELECT u.id, u.public_id, 'plan.vencido', d.app_id,
             jsonb_build_object(${kind.origin}, 'plan_id', d.plan_id, 'vence', d.expiry)
      FROM due d ${kind.people}
      WHERE ${anySubscriber}
      RETURNING 1)
    SELECT (SELECT count(*) FROM due)::int AS n`;
}

/** Announces the expiries passed by `now`; answers how many plans or licences were marked. */
export async function announceExpiries(db: Db, now: Date): Promise<number> {
  let marked = 0;
  for (;;) {
    let round = 0;
    for (const kind of expiring) {
      const [row] = await rowsOf<{ n: number }>(db, announceBatch(kind, now));
      round += Number(row?.n ?? 0);
    }
    marked += round;
    if (round === 0) return marked;
  }
}
