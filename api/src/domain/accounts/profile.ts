import { eq } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { Static } from 'typebox';
import type { Db } from '../../db/client.js';
import { roles, type User, users } from '../../db/schema.js';
import { HttpError } from '../../lib/errors.js';
import { editedPhone } from '../../lib/phone.js';
import type { EditUserBody } from '../../schemas/auth.js';
import { type AuditActor, recordAudit } from '../audit/log.js';
import { accountMessages } from './messages.js';
import { findUserById } from './queries.js';
import { checkAccountChange, endsSessions, keepOneAdministrator } from './status.js';

const userNotFound = () => new HttpError(404, accountMessages.userNotFound, 'USER_NOT_FOUND');

/** An actor with a user id (a signed-in person): profile edits are always someone's. */
type Editor = AuditActor & { user: { id: number } };

/**
 * Name, last name (when sent) and phone (when sent) of account `id`, the profile's 'Guardar cambios'; an administrator
 * editing someone else is on record.
 */
export async function updateProfile(
  tx: Db,
  actor: Editor,
  id: number,
  { name, lastName, phone }: { name: string; lastName?: string | undefined; phone?: string | undefined },
): Promise<User | undefined> {
  const [current] = await tx.select({ phone: users.phone }).from(users).where(eq(users.id, id)).for('update');
  if (!current) throw userNotFound();
  const changes = {
    name: name.trim(),
    ...(lastName === undefined ? {} : { lastName: lastName.trim() }),
    ...(phone === undefined ? {} : { phone: editedPhone(phone, current.phone) }),
  };
  // Emits `usuario.actualizado` when the name, last name or phone changed (trigger `users_partner_events`,
  // docs/triggers.md).
  const [row] = await tx.update(users).set(changes).where(eq(users.id, id)).returning();
  // An administrator editing someone else is on record; people editing themselves are not admin actions.
  if (row && actor.user.id !== id) {
    await recordAudit(tx, actor, [{ action: 'user.edit', target: { type: 'user', id }, details: changes }]);
  }
  return row;
}

/** How an administrator's hand verification activates an account (registration/activation.ts `activateByAdministrator`). */
export interface HandVerification {
  activate(tx: Db, id: number): Promise<boolean>;
}

/**
 * The profile edit of account `id` (the caller has checked who may): name, last name, phone, picture, and for
 * administrators role and status, with their rules (never one's own status or role, always one administrator left,
 * sessions ended by a suspension or a demotion, a hand verification activating as the emailed code does).
 */
export async function editUser(
  deps: HandVerification,
  tx: Db,
  actor: Editor,
  id: number,
  body: Static<typeof EditUserBody>,
): Promise<User | undefined> {
  const { role, status, ...profile } = body;
  const [current] = await tx.select().from(users).where(eq(users.id, id)).for('update');
  if (!current) throw userNotFound();
  checkAccountChange(actor.user.id, current, { status, role });
  const sessionsEnd = endsSessions(current, { status, role });
  if (current.role === roles.admin && Object.keys(sessionsEnd).length > 0) await keepOneAdministrator(tx, id);
  const changes: PgUpdateSetSource<typeof users> = {};
  for (const field of ['name', 'lastName'] as const) {
    const value = profile[field];
    if (value !== undefined) changes[field] = value.trim();
  }
  if (profile.phone !== undefined) changes.phone = editedPhone(profile.phone, current.phone);
  if (profile.picture !== undefined) changes.picture = profile.picture;
  if (role !== undefined) changes.role = role;
  // Verifying by hand does what the panel's 'Verificar' does: activation with the free plans, and the mail.
  if (status === 'active' && current.status === 'pending_verification') await deps.activate(tx, id);
  else if (status !== undefined) changes.status = status;
  Object.assign(changes, sessionsEnd);
  // Emits `usuario.actualizado`, `usuario.suspendido` or `usuario.reactivado` and moves the user counters as they
  // change (triggers on users, docs/triggers.md).
  if (Object.keys(changes).length > 0) await tx.update(users).set(changes).where(eq(users.id, id));
  if (actor.user.id !== id) {
    const { tokenVersion: _tokenVersion, ...recorded } = changes;
    await recordAudit(tx, actor, [
      {
        action: 'user.edit',
        target: { type: 'user', id },
        details: { ...recorded, ...(status ? { status } : {}) },
      },
    ]);
  }
  return findUserById(tx, id);
}

/** The presentation was seen: it is not shown again. */
export async function markPresentationSeen(db: Db, userId: number): Promise<User | undefined> {
  const [updated] = await db.update(users).set({ presentacion: false }).where(eq(users.id, userId)).returning();
  return updated;
}
