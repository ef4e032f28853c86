import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { roles, users, type User, type UserStatus } from '../../db/schema.js';
import { HttpError, present } from '../../lib/errors.js';
import { recordAudit, type AuditActor } from '../audit/log.js';
import { accountMessages } from './messages.js';

export type AccountStatus = 'active' | 'suspended';
export type Role = (typeof roles)[keyof typeof roles];

export interface AccountChange {
  status?: UserStatus;
  role?: number;
}

/**
 * The one rule for every change of a person's status or role (`PUT /auth/editar/{id}`, `PUT /auth/cambiar-estado/{id}`,
 * the operator's command): nobody changes their own status or role (`actorId` null is the operator, who has no
 * account), and no account goes back to pending verification (its sessions would stay open, and pending means nobody
 * proved the mailbox).
 */
export function checkAccountChange(
  actorId: number | null,
  current: Pick<User, 'id' | 'status' | 'role'>,
  change: AccountChange,
): void {
  if (change.status === 'pending_verification' && current.status !== 'pending_verification') {
    throw new HttpError(400, accountMessages.statusNotAllowed, 'STATUS_NOT_ALLOWED');
  }
  if (actorId !== current.id) return;
  if (change.status !== undefined && change.status !== current.status) {
    throw new HttpError(409, accountMessages.cannotChangeOwnStatus, 'CANNOT_CHANGE_OWN_STATUS');
  }
  if (change.role !== undefined && change.role !== current.role) {
    throw new HttpError(409, accountMessages.cannotChangeOwnRole, 'CANNOT_CHANGE_OWN_ROLE');
  }
}

/**
 * Suspension and the loss of the administrator role bump the token version: every token issued before is refused
 * from then on, on every instance, and the account's provider sessions end with their back-channel logouts queued
 * (trigger `users_oidc_end`, docs/triggers.md).
 */
export function endsSessions(current: Pick<User, 'status' | 'role'>, change: AccountChange) {
  const suspended = change.status === 'suspended' && current.status !== 'suspended';
  const demoted = change.role !== undefined && change.role !== roles.admin && current.role === roles.admin;
  return suspended || demoted ? { tokenVersion: sql`${users.tokenVersion} + 1` } : {};
}

/**
 * Suspends or reactivates an account, in the caller's transaction, and writes it to the audit log. `next` undefined
 * toggles (the admin panel's `PUT /auth/cambiar-estado/{id}`); asking for the status the account already has changes
 * nothing and records nothing. Suspension ends every session (`endsSessions`). Answers the row before and after; 404
 * for an unknown id, 409 for an account still waiting for its emailed code or for the actor's own account.
 */
export async function changeUserStatus(
  tx: Db,
  actor: AuditActor,
  id: number,
  next?: AccountStatus,
): Promise<{ before: User; after: User }> {
  const [user] = await tx.select().from(users).where(eq(users.id, id)).for('update');
  if (!user) throw new HttpError(404, accountMessages.userNotFound, 'USER_NOT_FOUND');
  if (user.status === 'pending_verification') {
    throw new HttpError(409, accountMessages.userPending, 'USER_PENDING');
  }
  const status = next ?? (user.status === 'active' ? 'suspended' : 'active');
  checkAccountChange(actor.user.id, user, { status });
  if (status === user.status) return { before: user, after: user };
  // Emits `usuario.suspendido` or `usuario.reactivado` and moves the user counters (triggers on users,
  // docs/triggers.md).
  const [updated] = await tx
    .update(users)
    .set({ status, ...endsSessions(user, { status }) })
    .where(eq(users.id, id))
    .returning();
  await recordAudit(tx, actor, [
    {
      action: 'user.status_change',
      target: { type: 'user', id },
      details: { from: user.status, to: status },
    },
  ]);
  return { before: user, after: present(updated, 'the updated user') };
}

/**
 * Refuses (409 LAST_ADMIN) to take away the last active administrator: demoting or suspending it would leave nobody
 * able to administer the portal. Locks the administrators' rows, so two such changes at once cannot both pass.
 */
export async function keepOneAdministrator(tx: Db, id: number): Promise<void> {
  const active = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.role, roles.admin), eq(users.status, 'active')))
    .for('update');
  if (active.length <= 1 && active.some((admin) => admin.id === id)) {
    throw new HttpError(409, accountMessages.lastAdmin, 'LAST_ADMIN');
  }
}

/**
 * Gives an account the role `role` and writes it to the audit log (`user.edit`, as an administrator's edit of the
 * role is recorded). Losing the administrator role ends its sessions (`endsSessions`). Same role: no change.
 */
export async function changeUserRole(
  tx: Db,
  actor: AuditActor,
  id: number,
  role: Role,
): Promise<{ before: User; after: User }> {
  const [user] = await tx.select().from(users).where(eq(users.id, id)).for('update');
  if (!user) throw new HttpError(404, accountMessages.userNotFound, 'USER_NOT_FOUND');
  checkAccountChange(actor.user.id, user, { role });
  if (user.role === role) return { before: user, after: user };
  // Moves `user_counts` (trigger `users_counted_update`, docs/triggers.md).
  const [updated] = await tx
    .update(users)
    .set({ role, ...endsSessions(user, { role }) })
    .where(eq(users.id, id))
    .returning();
  await recordAudit(tx, actor, [{ action: 'user.edit', target: { type: 'user', id }, details: { role } }]);
  return { before: user, after: present(updated, 'the updated user') };
}

/**
 * The account's own part of an activation (registration/activation.ts): pending account `userId` becomes active with no
 * password, in the caller's transaction. Answers its email, or undefined (and nothing changed) when it was not pending.
 */
export async function markActive(tx: Db, userId: number): Promise<string | undefined> {
  // Moves the user counters and notifies session-state (triggers on users, docs/triggers.md).
  const [activated] = await tx
    .update(users)
    .set({ status: 'active', passwordHash: null })
    .where(and(eq(users.id, userId), eq(users.status, 'pending_verification')))
    .returning({ email: users.email });
  return activated?.email;
}
