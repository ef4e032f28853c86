import { sql } from 'drizzle-orm'
import { users, type User, type UserStatus } from '../../db/schema.js'
import { HttpError } from '../../lib/errors.js'

export interface AccountChange {
  status?: UserStatus
  role?: number
}

/**
 * One rule for every route that changes a person's status or role (`PUT /auth/editar/:id`,
 * `PUT /auth/cambiar-estado/:id`): nobody changes their own status or role, and no account goes back to pending
 * verification (its sessions would stay open, and a pending account is one nobody has proved the mailbox of).
 */
export function checkAccountChange(actorId: number, current: Pick<User, 'id' | 'status' | 'role'>, change: AccountChange): void {
  if (change.status === 'pending_verification' && current.status !== 'pending_verification') {
    throw new HttpError(400, 'Una cuenta no puede volver a quedar pendiente de verificación', 'STATUS_NOT_ALLOWED')
  }
  if (actorId !== current.id) return
  if (change.status !== undefined && change.status !== current.status) {
    throw new HttpError(409, 'No puedes cambiar el estado de tu propia cuenta', 'CANNOT_CHANGE_OWN_STATUS')
  }
  if (change.role !== undefined && change.role !== current.role) {
    throw new HttpError(409, 'No puedes quitarte el rol de administrador', 'CANNOT_CHANGE_OWN_ROLE')
  }
}

/** Suspension bumps the token version: every token issued before is refused from then on, on every instance. */
export function endsSessions(current: Pick<User, 'status'>, status: UserStatus | undefined) {
  return status === 'suspended' && current.status !== 'suspended'
    ? { tokenVersion: sql`${users.tokenVersion} + 1` }
    : {}
}
