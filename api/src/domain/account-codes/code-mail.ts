import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { users, type CodePurpose, type User, type UserStatus } from '../../db/schema.js';
import type { Mailer } from '../mail/mailer.js';
import { type AccountLimits, codeCooldownMs } from '../sign-in-limits/limits.js';
import type { CodeMetrics, CodeService } from './codes.js';
import { HttpError } from '../../lib/errors.js';
import type { MailContent } from '../mail/templates.js';
import { codeMessages } from './messages.js';

/** What the code helpers use (the app passes itself). */
export interface CodeMailDeps {
  db: Db;
  limits: AccountLimits;
  codes: CodeService;
  mailer: Pick<Mailer, 'enqueue'>;
  metrics: CodeMetrics;
}

export const invalidCode = () => new HttpError(400, codeMessages.invalidCode, 'INVALID_CODE');

/**
 * The account whose code may be used; otherwise throws the answer: 400 when wrong, expired or the email unknown,
 * 429 once 5 wrong tries killed the code, and 429 without looking at the code once the email's wrong codes of the
 * day are used up (`maxWrongCodesPerDay`, counted by email, known or not). A right code is counted as verified by
 * the caller once it is used (`metrics.codeVerified`): the caller may still refuse before using it.
 */
export async function checkCode(
  services: CodeMailDeps,
  email: string,
  user: User | undefined,
  purpose: CodePurpose,
  code: string,
): Promise<User> {
  // One of the day's wrong codes is taken before the code is looked at, so concurrent guesses cannot pass the cap.
  const reserved = await services.limits.reserveCodeCheck(email, purpose);
  if ('refused' in reserved) {
    services.metrics.codeRefused(purpose, 'locked');
    throw reserved.refused;
  }
  // An unknown email gets the same answer as a wrong code.
  // A check the database could not make counts as no guess: its slot is given back before the error goes on.
  const result = user
    ? await services.codes.check(user.id, purpose, code).catch(async (error: unknown) => {
        await services.limits.giveBackCodeCheck(reserved.attempt).catch(() => undefined);
        throw error;
      })
    : 'invalid';
  if (result === 'valid') await services.limits.giveBackCodeCheck(reserved.attempt);
  if (result === 'invalid' || !user) {
    services.metrics.codeRefused(purpose, 'wrong');
    throw invalidCode();
  }
  if (result === 'exhausted') {
    services.metrics.codeRefused(purpose, 'exhausted');
    throw new HttpError(429, codeMessages.codeAttemptsExceeded, 'CODE_ATTEMPTS_EXCEEDED');
  }
  return user;
}

/**
 * Background work that mails a code after the answer has gone: if it fails (the database went away), the code-mail
 * cooldown reserved for it is given back, so asking again does not wait a minute for a mail that never left.
 */
export function releasingCooldown(
  services: CodeMailDeps,
  email: string,
  purpose: CodePurpose,
  work: () => Promise<void>,
) {
  return async () => {
    try {
      await work();
    } catch (error) {
      await services.limits.releaseCodeMail(email, purpose).catch(() => {});
      throw error;
    }
  };
}

/**
 * The background half of `forgot-password` and `resend-verification`: a new code and its mail for the account of
 * `email` if it is in `status`, in one transaction that holds the account row, unless a code for the purpose was
 * issued less than the cooldown ago (a registration's, or one whose cooldown reservation a crash lost): then the
 * code already mailed stays the live one.
 */
export async function issueCodeMail(
  services: CodeMailDeps,
  email: string,
  purpose: CodePurpose,
  status: UserStatus,
  mail: (user: User, code: string) => MailContent,
): Promise<void> {
  await services.db.transaction(async (tx) => {
    const [user] = await tx.select().from(users).where(eq(users.email, email)).for('update');
    if (user?.status !== status) return;
    if (await services.codes.issuedWithin(tx, user.id, purpose, codeCooldownMs)) return;
    const code = await services.codes.issue(tx, user.id, purpose);
    await services.mailer.enqueue(tx, { to: email, ...mail(user, code) });
  });
}
