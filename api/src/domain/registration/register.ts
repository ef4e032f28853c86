import { eq, sql } from 'drizzle-orm';
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import { users } from '../../db/schema.js';
import { HttpError } from '../../lib/errors.js';
import type { CodeService } from '../account-codes/codes.js';
import { invalidCode } from '../account-codes/code-mail.js';
import { activateUser } from './activation.js';
import type { Clock } from '../clock.js';
import type { Mailer } from '../mail/mailer.js';
import { verificationCodeMail } from '../mail/templates.js';
import { type AccountLimits, codeCooldownMs } from '../sign-in-limits/limits.js';
import { registrationMessages } from './messages.js';
import { addRegistration, findRegistration, type RegistrationFields } from './pending-registrations.js';

/** What registering uses (the app passes itself). */
export interface RegistrationDeps {
  db: Db;
  codes: CodeService;
  limits: Pick<AccountLimits, 'countCodeMail'>;
  mailer: Pick<Mailer, 'enqueue'>;
  config: Pick<Config, 'portalUrl'>;
}

/** The registration's answer for an address whose account is no longer pending. */
export const emailInUse = () => new HttpError(409, registrationMessages.emailInUse, 'EMAIL_IN_USE');

/**
 * The pending account of `email`, created or locked (in `tx`) by one statement, so that concurrent registrations of
 * one address end in one row; 409 EMAIL_IN_USE when the address has an account that is not pending. The row has no
 * password, and a later registration does not change its profile either.
 */
export async function pendingAccount(
  tx: Db,
  email: string,
  profile: Omit<RegistrationFields, 'passwordHash'>,
): Promise<{ id: number }> {
  // A new row moves `user_counts` and `user_day_counts` (statement triggers on users, docs/triggers.md).
  const [user] = await tx
    .insert(users)
    .values({ email, ...profile })
    .onConflictDoUpdate({
      target: users.email,
      set: { email: sql`excluded.email` },
      setWhere: eq(users.status, 'pending_verification'),
    })
    .returning({ id: users.id });
  if (!user) throw emailInUse();
  return user;
}

/**
 * One more registration of a pending `email` (never a change to another's password), and its code mail unless one
 * left less than the cooldown ago or the hour's mails are used up. Answers the registration's id and whether a code
 * was mailed (the caller wakes the mailer and starts the cooldown after the commit).
 */
export async function registerPending(
  deps: RegistrationDeps,
  email: string,
  profile: Omit<RegistrationFields, 'passwordHash'>,
  passwordHash: string,
  now: Date,
): Promise<{ registrationId: string; mailed: boolean }> {
  return deps.db.transaction(async (tx) => {
    const user = await pendingAccount(tx, email, profile);
    const registrationId = await addRegistration(tx, user.id, { passwordHash, ...profile }, now);
    // The cooldown lives with the code, in this transaction: a crash before the commit leaves
    // neither, so registering again mails a code at once. Within it, the code already mailed stays valid.
    if (await deps.codes.issuedWithin(tx, user.id, 'verify_email', codeCooldownMs))
      return { registrationId, mailed: false };
    if (await deps.limits.countCodeMail(email)) return { registrationId, mailed: false };
    const code = await deps.codes.issue(tx, user.id, 'verify_email');
    // The name just typed is not proved: the mail greets nobody by name (domain/mail/templates.ts).
    const mail = verificationCodeMail({ email, code, portalUrl: deps.config.portalUrl });
    await deps.mailer.enqueue(tx, { to: email, ...mail });
    return { registrationId, mailed: true };
  });
}

/**
 * Uses the verification code and activates the account with what this browser typed (its `registrationId`): its
 * password and profile. A browser without a live registration of this email (the code was typed on another device)
 * sends what its person `typed` beside the code instead: holding the code proves the mailbox, which a registration
 * alone never did. An id the server no longer has (a day old, or pushed out by newer registrations) with nothing
 * typed is refused before the code is used, so the same code then goes with the profile. With neither an id nor a
 * profile (an API client), the account is active with no password. Answers whether a password was set.
 */
export async function completeRegistration(
  deps: { db: Db; codes: CodeService; clock: Clock },
  userId: number,
  code: string,
  registrationId: string | undefined,
  typed?: RegistrationFields,
): Promise<boolean> {
  return deps.db.transaction(async (tx) => {
    const registration = await findRegistration(tx, userId, registrationId, new Date(deps.clock()));
    if (registrationId && !registration && !typed) {
      throw new HttpError(409, registrationMessages.registrationExpired, 'REGISTRATION_EXPIRED');
    }
    if (!(await deps.codes.consume(tx, userId, 'verify_email', code))) throw invalidCode();
    if ((await activateUser(tx, userId)) === undefined) return false;
    // Only what the code's holder typed becomes the account's (this browser's registration first); without it, nobody's
    // profile does either: the pending row's name is whatever its first registrant wrote.
    const { passwordHash = null, name = '', lastName = '', phone = '' } = registration ?? typed ?? {};
    await tx.update(users).set({ passwordHash, name, lastName, phone }).where(eq(users.id, userId));
    return passwordHash !== null;
  });
}

/** Step 1 of registering: whether the email has an account, and its status; nothing else about the user. */
export async function emailStatus(db: Db, email: string) {
  const [user] = await db
    .select({ email: users.email, status: users.status })
    .from(users)
    .where(eq(users.email, email));
  return user ?? null;
}
