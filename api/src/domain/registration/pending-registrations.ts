import { randomBytes } from 'node:crypto';
import { and, desc, eq, gt, lte, notInArray } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { pendingRegistrations } from '../../db/schema.js';
import type { PasswordService } from '../accounts/passwords.js';
import type { Clock } from '../clock.js';

/**
 * Registrations of an email still waiting for its code (docs/decisions/0006-registration-ids.md). Each one keeps the
 * password and profile typed in it; the account row carries none until the code is verified. A registration lives a day
 * (a code can be resent for it meanwhile) and an account keeps at most its 5 newest: every sign-in attempt of a pending
 * account checks each of them, so an unbounded list would let anyone make sign-ins cost unbounded argon2 work.
 */
export const registrationLifetimeMs = 24 * 60 * 60_000;
export const maxPendingRegistrations = 5;

export interface RegistrationFields {
  passwordHash: string;
  name: string;
  lastName: string;
  phone: string;
}

/** Stores a registration of the (locked) pending account `userId` and answers its id, the browser's proof. */
export async function addRegistration(tx: Db, userId: number, fields: RegistrationFields, now: Date): Promise<string> {
  const id = randomBytes(24).toString('base64url');
  // Expired registrations of every account go here: registering is when the table grows.
  await tx.delete(pendingRegistrations).where(lte(pendingRegistrations.expiresAt, now));
  await tx.insert(pendingRegistrations).values({
    id,
    userId,
    ...fields,
    createdAt: now,
    expiresAt: new Date(now.getTime() + registrationLifetimeMs),
  });
  const newest = tx
    .select({ id: pendingRegistrations.id })
    .from(pendingRegistrations)
    .where(eq(pendingRegistrations.userId, userId))
    .orderBy(desc(pendingRegistrations.createdAt), desc(pendingRegistrations.id))
    .limit(maxPendingRegistrations);
  await tx
    .delete(pendingRegistrations)
    .where(and(eq(pendingRegistrations.userId, userId), notInArray(pendingRegistrations.id, newest)));
  return id;
}

/** The live registration `id` of the account, if the browser's id is one. */
export async function findRegistration(db: Db, userId: number, id: string | undefined, now: Date) {
  if (!id) return undefined;
  const [found] = await db
    .select()
    .from(pendingRegistrations)
    .where(
      and(
        eq(pendingRegistrations.id, id),
        eq(pendingRegistrations.userId, userId),
        gt(pendingRegistrations.expiresAt, now),
      ),
    );
  return found;
}

/**
 * The id of the live registration of a pending account whose password this is, or undefined. Always at least one
 * argon2 verification, as for any other sign-in.
 */
export async function registrationWithPassword(
  services: { db: Db; clock: Clock; passwords: PasswordService },
  userId: number,
  password: string,
): Promise<string | undefined> {
  const live = await services.db
    .select({ id: pendingRegistrations.id, passwordHash: pendingRegistrations.passwordHash })
    .from(pendingRegistrations)
    .where(and(eq(pendingRegistrations.userId, userId), gt(pendingRegistrations.expiresAt, new Date(services.clock()))))
    .orderBy(desc(pendingRegistrations.createdAt));
  if (live.length === 0) {
    await services.passwords.verify(undefined, password);
    return undefined;
  }
  for (const registration of live) {
    if (await services.passwords.verify(registration.passwordHash, password)) return registration.id;
  }
  return undefined;
}

/** Drops every registration of the account: it was activated (by a code, a provider or an administrator). */
export async function dropRegistrations(tx: Db, userId: number): Promise<void> {
  await tx.delete(pendingRegistrations).where(eq(pendingRegistrations.userId, userId));
}
