// A member's failures in the logs of each of their companies (docs/decisions/0153-failures-in-company-logs.md): a
// company's SIEM must see its people's wrong passwords, locks, wrong second-factor codes and the sign-ins its rules
// refused, as `event.outcome: failure`. Written by the portal itself (`sistema`), about the account (its target).
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { companyMembers } from '../../db/schema.js';
import { HttpError } from '../../lib/errors.js';
import type { AuditAction } from './actions.js';
import { recordAudit, systemActor } from './log.js';

/**
 * Writes `action` about account `userId` once in the log of each company the person belongs to; with
 * `platformAlone`, in the platform's log when they belong to none (a lock is on record for everyone).
 */
export async function recordMemberFailure(
  db: Db,
  userId: number,
  action: AuditAction,
  details: Record<string, unknown>,
  platformAlone = false,
): Promise<void> {
  const companies = (
    await db
      .select({ companyId: companyMembers.companyId })
      .from(companyMembers)
      .where(eq(companyMembers.userId, userId))
      .orderBy(companyMembers.companyId)
  ).map((row) => row.companyId);
  if (companies.length === 0 && !platformAlone) return;
  const target = { type: 'user' as const, id: userId };
  await recordAudit(
    db,
    systemActor,
    companies.length === 0
      ? [{ action, target, details }]
      : companies.map((companyId) => ({ action, target, details, companyId })),
  );
}

/** The refusals of a company's rules, by their code, as the entry names them (`motivo`). */
const ruleRefusals: Record<string, string> = { RED_NO_PERMITIDA: 'red', METODO_NO_PERMITIDO: 'metodo' };

/**
 * A sign-in or an app's door that a company's rules refused (`error`, thrown again): on record as
 * `auth.sign_in_refused`, with why, the method and the address. Anything else is only thrown again.
 */
export async function refusalOnRecord(
  db: Db,
  userId: number,
  error: unknown,
  attempt: { address: string; metodo: string },
): Promise<never> {
  const motivo = error instanceof HttpError && error.code ? ruleRefusals[error.code] : undefined;
  if (motivo) await recordMemberFailure(db, userId, 'auth.sign_in_refused', { motivo, ...attempt });
  throw error;
}
