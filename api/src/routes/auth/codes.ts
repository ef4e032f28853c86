import type { FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import { users, type CodePurpose, type User, type UserStatus } from '../../db/schema.js';
import { codeCooldownMs } from '../../plugins/app/limits.js';
import { HttpError } from '../../lib/errors.js';
import type { MailContent } from '../../lib/mail-templates.js';

export const invalidCode = () => new HttpError(400, 'Código inválido o expirado', 'INVALID_CODE');

/**
 * The account whose code may be used; otherwise throws the answer: 400 when wrong, expired or the email unknown,
 * 429 once 5 wrong tries killed the code, and 429 without looking at the code once the email's wrong codes of the
 * day are used up (`maxWrongCodesPerDay`, counted by email, known or not).
 */
export async function checkCode(
  app: FastifyInstance,
  email: string,
  user: User | undefined,
  purpose: CodePurpose,
  code: string,
): Promise<User> {
  const locked = await app.limits.wrongCodesLocked(email, purpose);
  if (locked) throw locked;
  // An unknown email gets the same answer as a wrong code.
  const result = user ? await app.codes.check(user.id, purpose, code) : 'invalid';
  if (result !== 'valid') await app.limits.recordWrongCode(email, purpose);
  if (result === 'invalid' || !user) throw invalidCode();
  if (result === 'exhausted') {
    throw new HttpError(429, 'Demasiados intentos fallidos. Solicita un código nuevo.', 'CODE_ATTEMPTS_EXCEEDED');
  }
  return user;
}

/**
 * Background work that mails a code after the answer has gone: if it fails (the database went away), the code-mail
 * cooldown reserved for it is given back, so asking again does not wait a minute for a mail that never left.
 */
export function releasingCooldown(
  app: FastifyInstance,
  email: string,
  purpose: CodePurpose,
  work: () => Promise<void>,
) {
  return async () => {
    try {
      await work();
    } catch (error) {
      await app.limits.releaseCodeMail(email, purpose).catch(() => {});
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
  app: FastifyInstance,
  email: string,
  purpose: CodePurpose,
  status: UserStatus,
  mail: (user: User, code: string) => MailContent,
): Promise<void> {
  await app.db.transaction(async (tx) => {
    const [user] = await tx.select().from(users).where(eq(users.email, email)).for('update');
    if (user?.status !== status) return;
    if (await app.codes.issuedWithin(tx, user.id, purpose, codeCooldownMs)) return;
    const code = await app.codes.issue(tx, user.id, purpose);
    await app.mailer.enqueue(tx, { to: email, ...mail(user, code) });
  });
}
