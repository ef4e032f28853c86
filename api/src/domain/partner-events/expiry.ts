// `plan.vencido`: a job every instance runs about once a minute finds the own plans and company licences whose expiry
// has passed and was not yet announced, and in ONE statement per table marks the expiry announced and writes the
// events. Rows are taken with SKIP LOCKED and the mark is re-checked on the row a concurrent instance just wrote, so
// with several instances each expiry is announced exactly once, by whichever instance gets there first; with one
// instance it is announced within a minute (or at its next start when it was down then).
import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client.js';

const batchSize = 500;

const anySubscriber = sql`EXISTS (SELECT 1 FROM partner_subscriptions
  WHERE status = 'activa' AND 'plan.vencido' = ANY (eventos))`;

/** Announces the expiries passed by `now`; answers how many plans or licences were marked. */
export async function announceExpiries(db: Db, now: Date): Promise<number> {
  let marked = 0;
  for (;;) {
    const own = await rowsOf<{ n: number }>(
      db,
      sql`WITH due AS (
            UPDATE user_plans p SET expiry_announced = p.fecha_vencimiento
            WHERE p.id IN (SELECT id FROM user_plans
                           WHERE fecha_vencimiento <= ${now} AND expiry_announced IS DISTINCT FROM fecha_vencimiento
                           LIMIT ${batchSize} FOR UPDATE SKIP LOCKED)
              AND p.expiry_announced IS DISTINCT FROM p.fecha_vencimiento
            RETURNING p.user_id, p.app_id, p.plan_id, p.fecha_vencimiento),
          written AS (
            INSERT INTO partner_events (user_id, public_id, tipo, app_id, data)
            SELECT d.user_id, u.public_id, 'plan.vencido', d.app_id,
                   jsonb_build_object('origen', 'propio', 'plan_id', d.plan_id, 'vence', d.fecha_vencimiento)
            FROM due d JOIN users u ON u.id = d.user_id WHERE ${anySubscriber}
            RETURNING 1)
          SELECT (SELECT count(*) FROM due)::int AS n`,
    );
    const licences = await rowsOf<{ n: number }>(
      db,
      sql`WITH due AS (
            UPDATE company_licences l SET expiry_announced = l.expires_at
            WHERE l.id IN (SELECT id FROM company_licences
                           WHERE expires_at <= ${now} AND expiry_announced IS DISTINCT FROM expires_at
                           LIMIT ${batchSize} FOR UPDATE SKIP LOCKED)
              AND l.expiry_announced IS DISTINCT FROM l.expires_at
            RETURNING l.company_id, l.app_id, l.plan_id, l.expires_at),
          written AS (
            INSERT INTO partner_events (user_id, public_id, tipo, app_id, data)
            SELECT s.user_id, u.public_id, 'plan.vencido', d.app_id,
                   jsonb_build_object('origen', 'empresa', 'empresa_id', d.company_id, 'plan_id', d.plan_id,
                                      'vence', d.expires_at)
            FROM due d JOIN company_seats s ON s.company_id = d.company_id AND s.app_id = d.app_id
            JOIN users u ON u.id = s.user_id
            WHERE ${anySubscriber}
            RETURNING 1)
          SELECT (SELECT count(*) FROM due)::int AS n`,
    );
    const round = Number(own[0]?.n ?? 0) + Number(licences[0]?.n ?? 0);
    marked += round;
    if (round === 0) return marked;
  }
}
