// The second step of a password sign-in (docs/decisions/0017-second-factor.md). A correct password for an account with
// a second factor answers a ticket, not a token: 32 random bytes handed to the browser, kept here only as their
// SHA-256, valid 5 minutes, used once, and dead after 5 wrong codes. The TOTP/recovery step
// (routes/auth/second-factor.ts) and the passkey step (routes/auth/passkeys.ts) both redeem it here, so neither can be
// replayed or outlive the other.
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { signInTickets } from '../../db/schema.js';
import { HttpError } from '../../lib/errors.js';
import { secondFactorMessages } from './messages.js';

export const SIGN_IN_TICKET_TTL_MS = 5 * 60_000;
/** Wrong codes a ticket survives; the next one ends it and the person signs in with the password again. */
export const SIGN_IN_TICKET_TRIES = 5;

/** A ticket that is unknown, expired, used or out of tries: the person signs in with the password again. */
export const signInTicketExpired = () =>
  new HttpError(401, secondFactorMessages.signInTicketExpired, 'SIGN_IN_TICKET_EXPIRED');

const digest = (ticket: string) => createHash('sha256').update(ticket).digest('hex');

/** A new ticket for `userId` (expired tickets of anyone are swept on the way). */
export async function issueSignInTicket(db: Db, userId: number): Promise<string> {
  const ticket = randomBytes(32).toString('base64url');
  await db.delete(signInTickets).where(lt(signInTickets.expiresAt, sql`now()`));
  await db.insert(signInTickets).values({
    id: digest(ticket),
    userId,
    expiresAt: new Date(Date.now() + SIGN_IN_TICKET_TTL_MS),
  });
  return ticket;
}

/** A ticket that is not expired and has a try left. */
const live = (ticket: string) =>
  and(
    eq(signInTickets.id, digest(ticket)),
    gt(signInTickets.expiresAt, sql`now()`),
    lt(signInTickets.failures, SIGN_IN_TICKET_TRIES),
  );

/** The user of a live ticket, without using it (a passkey second step asks its options first); else undefined. */
export async function signInTicketUser(db: Db, ticket: string): Promise<number | undefined> {
  const [row] = await db.select({ userId: signInTickets.userId }).from(signInTickets).where(live(ticket));
  return row?.userId;
}

/**
 * Uses a live ticket up (one statement, so two concurrent redemptions cannot both win); answers its user. After
 * `takeSignInTicketTry` the ticket's count includes the try being redeemed: `tried` lets that last try through.
 */
export async function redeemSignInTicket(db: Db, ticket: string, tried = false): Promise<number | undefined> {
  const [row] = await db
    .delete(signInTickets)
    .where(tried ? and(eq(signInTickets.id, digest(ticket)), gt(signInTickets.expiresAt, sql`now()`)) : live(ticket))
    .returning({ userId: signInTickets.userId });
  return row?.userId;
}

/**
 * Takes one of a live ticket's tries before its code is looked at (one guarded statement, so a burst of codes gets
 * no more than the 5 tries between them): answers its user and the tries left after this one, or undefined when the
 * ticket is unknown, expired, used or out of tries. A wrong code keeps the try; a right one redeems the ticket.
 */
export async function takeSignInTicketTry(
  db: Db,
  ticket: string,
): Promise<{ userId: number; triesLeft: number } | undefined> {
  const [row] = await db
    .update(signInTickets)
    .set({ failures: sql`${signInTickets.failures} + 1` })
    .where(live(ticket))
    .returning({ userId: signInTickets.userId, failures: signInTickets.failures });
  return row && { userId: row.userId, triesLeft: SIGN_IN_TICKET_TRIES - row.failures };
}

/** A ticket whose last try went to a wrong code: gone, the person signs in with the password again. */
export async function endSignInTicket(db: Db, ticket: string): Promise<void> {
  await db.delete(signInTickets).where(eq(signInTickets.id, digest(ticket)));
}
