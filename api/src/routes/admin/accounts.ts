import { and, eq, sql } from 'drizzle-orm'
import type { Db } from '../../db/client.js'
import { roles, users, type User } from '../../db/schema.js'
import { HttpError } from '../../lib/errors.js'
import { recordAudit, type AuditActor } from './audit.js'

export type AccountStatus = 'active' | 'suspended'
export type Role = (typeof roles)[keyof typeof roles]

/**
 * Suspends or reactivates an account, in the caller's transaction, and writes it to the audit log. `next` undefined
 * toggles (the admin panel's `PUT /auth/cambiar-estado/{id}`); asking for the status the account already has changes
 * nothing and records nothing. Suspension bumps the token version: every token issued before is refused from now on.
 * Answers the row before and after; 404 for an unknown id, 409 for an account still waiting for its emailed code.
 */
export async function changeUserStatus(
  tx: Db,
  actor: AuditActor,
  id: number,
  next?: AccountStatus,
): Promise<{ before: User, after: User }> {
  const [user] = await tx.select().from(users).where(eq(users.id, id)).for('update')
  if (!user) throw new HttpError(404, 'Usuario no encontrado', 'USER_NOT_FOUND')
  if (user.status === 'pending_verification') {
    throw new HttpError(409, 'El usuario aún no ha verificado su email: verifícalo antes de suspenderlo', 'USER_PENDING')
  }
  const status = next ?? (user.status === 'active' ? 'suspended' : 'active')
  if (status === user.status) return { before: user, after: user }
  const [updated] = await tx.update(users)
    .set(status === 'suspended' ? { status, tokenVersion: sql`${users.tokenVersion} + 1` } : { status })
    .where(eq(users.id, id))
    .returning()
  await recordAudit(tx, actor, [{
    action: 'user.status_change',
    target: { type: 'user', id },
    details: { from: user.status, to: status },
  }])
  return { before: user, after: updated! }
}

/**
 * Refuses (409 LAST_ADMIN) to take away the last active administrator: demoting or suspending it would leave nobody
 * able to administer the portal. Locks the administrators' rows, so two such changes at once cannot both pass.
 */
export async function keepOneAdministrator(tx: Db, id: number): Promise<void> {
  const active = await tx.select({ id: users.id }).from(users)
    .where(and(eq(users.role, roles.admin), eq(users.status, 'active')))
    .for('update')
  if (active.length <= 1 && active.some((admin) => admin.id === id)) {
    throw new HttpError(409, 'Es el último administrador activo: crea o promueve otro antes', 'LAST_ADMIN')
  }
}

/**
 * Gives an account the role `role` and writes it to the audit log (`user.edit`, as an administrator's edit of the
 * role is recorded). Losing the administrator role bumps the token version: its sessions end. Same role: no change.
 */
export async function changeUserRole(
  tx: Db,
  actor: AuditActor,
  id: number,
  role: Role,
): Promise<{ before: User, after: User }> {
  const [user] = await tx.select().from(users).where(eq(users.id, id)).for('update')
  if (!user) throw new HttpError(404, 'Usuario no encontrado', 'USER_NOT_FOUND')
  if (user.role === role) return { before: user, after: user }
  const demoted = user.role === roles.admin
  const [updated] = await tx.update(users)
    .set(demoted ? { role, tokenVersion: sql`${users.tokenVersion} + 1` } : { role })
    .where(eq(users.id, id))
    .returning()
  await recordAudit(tx, actor, [{ action: 'user.edit', target: { type: 'user', id }, details: { role } }])
  return { before: user, after: updated! }
}
