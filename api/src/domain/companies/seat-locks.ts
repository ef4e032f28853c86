// The one order in which every change to a company's seats locks (docs/decisions/0121-one-lock-order-for-seats.md):
// the company's row, then its licences in app order. Two changes of one company then wait for each other at its row
// instead of each holding what the other needs next.
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { companies, companyLicences } from '../../db/schema.js';

/**
 * Locks the company's row until the transaction ends. FOR NO KEY UPDATE, not FOR UPDATE: it still makes the
 * company's changes run one after another (two owners demoting each other, a person taken out while their seat is
 * taken back), but lets any other transaction insert a row that refers to the company (an audit entry, a seat), which
 * FOR UPDATE would make wait for the whole change.
 */
export async function lockCompanyRow(tx: Db, companyId: number): Promise<void> {
  await tx.select({ id: companies.id }).from(companies).where(eq(companies.id, companyId)).for('no key update');
}

/**
 * Locks the company's row, then its licences of `appIds` (all of them when not given) in app order, and answers
 * those licences. Everything that changes who holds a seat (or how many a licence has) starts here.
 */
export async function lockCompanySeats(tx: Db, companyId: number, appIds?: number[]) {
  await lockCompanyRow(tx, companyId);
  return tx
    .select({
      appId: companyLicences.appId,
      seats: companyLicences.seats,
      seatsInUse: companyLicences.seatsInUse,
      expiresAt: companyLicences.expiresAt,
    })
    .from(companyLicences)
    .where(
      and(
        eq(companyLicences.companyId, companyId),
        appIds === undefined ? undefined : inArray(companyLicences.appId, appIds),
      ),
    )
    .orderBy(asc(companyLicences.appId))
    .for('update');
}

/**
 * The company's licence of `appId`, locked (after the company's row) until the transaction ends: assignments to one
 * licence, on any instance, run one after another, each reading the count the one before left. Undefined when the
 * company has no licence of that app.
 */
export async function lockedLicence(tx: Db, companyId: number, appId: number) {
  const [licence] = await lockCompanySeats(tx, companyId, [appId]);
  return licence;
}
