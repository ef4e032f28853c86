// Joining and leaving the company as the directory says, and a member the directory takes over.
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.js';
import { companyMembers, companyScimUsers, users } from '../../../db/schema.js';
import { HttpError } from '../../../lib/errors.js';
import { type AuditActor, auditCause, directoryActor, recordAudit } from '../../audit/log.js';
import { takeOutOfCompany } from '../members.js';
import { checkDomain, emailOf } from './checks.js';
import { ScimError, scimMessages as M } from './errors.js';

/** Who writes in the audit log for the directory's own changes (each says `fuente: 'scim'`): no account behind it. */
export const scimActor: AuditActor = { user: directoryActor.user, origen: 'scim' };

/** Makes the person an active miembro (an existing role is kept; a membership waiting for approval becomes active). */
export async function join(tx: Db, companyId: number, userId: number): Promise<boolean> {
  // Notifies session-state; a new member moves `company_member_counts` (triggers on company_members, docs/triggers.md).
  const rows = await tx
    .insert(companyMembers)
    .values({ companyId, userId, role: 'miembro', status: 'active' })
    .onConflictDoUpdate({
      target: [companyMembers.companyId, companyMembers.userId],
      set: { status: 'active' },
      where: eq(companyMembers.status, 'pending_approval'),
    })
    .returning({ userId: companyMembers.userId });
  return rows.length > 0;
}

/**
 * Takes the person out of the company, in the caller's transaction (takeOutOfCompany: their seats here freed, their
 * membership gone, the company's last owner refused with 409, nothing changed), and bumps their token version, which
 * ends their portal sessions on every instance and, by migration 0018's trigger, their OpenID Connect sessions,
 * refresh tokens and queued back-channel logouts.
 */
export async function leave(tx: Db, companyId: number, userId: number) {
  await auditCause(tx, scimActor, 'baja_directorio');
  const { member, seats } = await takeOutOfCompany(tx, companyId, userId).catch((error: unknown) => {
    if (error instanceof HttpError && error.code === 'ULTIMO_PROPIETARIO') throw new ScimError(409, M.lastOwner);
    throw error;
  });
  await tx
    .update(users)
    .set({ tokenVersion: sql`${users.tokenVersion} + 1` })
    .where(eq(users.id, userId));
  return { role: member?.role ?? null, seats };
}

/**
 * A `userName eq` filter that found nothing: a current (active) member of the company with that email, at one of its
 * proved domains, gets a resource (the directory takes them over). Answers whether one was made.
 */
export async function adoptMember(db: Db, companyId: number, userName: string): Promise<boolean> {
  let email: string;
  try {
    ({ email } = emailOf(userName));
  } catch (error) {
    if (error instanceof ScimError) return false;
    throw error;
  }
  // One indexed lookup first: in a directory's first sync every filter misses, and nobody is to adopt.
  const [member] = await db
    .select({ userId: users.id, name: users.name, lastName: users.lastName })
    .from(users)
    .innerJoin(companyMembers, and(eq(companyMembers.userId, users.id), eq(companyMembers.companyId, companyId)))
    .where(and(eq(users.email, email), eq(companyMembers.status, 'active')));
  if (!member) return false;
  try {
    await checkDomain(db, companyId, userName);
  } catch (error) {
    if (error instanceof ScimError) return false;
    throw error;
  }
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(companyScimUsers)
      .values({
        companyId,
        userId: member.userId,
        userName: userName.trim(),
        givenName: member.name.slice(0, 100),
        familyName: member.lastName.slice(0, 100),
      })
      .onConflictDoNothing()
      .returning({ id: companyScimUsers.id });
    if (!row) return false;
    await recordAudit(tx, scimActor, [
      {
        action: 'company.member_provision',
        target: { type: 'company', id: companyId },
        details: { fuente: 'scim', userName: userName.trim(), userId: member.userId, email, adoptado: true },
        companyId,
      },
    ]);
    return true;
  });
}
