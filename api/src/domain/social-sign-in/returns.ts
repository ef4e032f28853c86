// The Google/Apple return to the portal (docs/decisions/0001-session-from-bound-sign-in-return.md). The address the
// browser is sent back to carries a one-time code, never a session token: 32 random bytes, kept here only as their
// SHA-256, valid 60 s, bound to the SHA-256 of a secret that only the browser tab that started the sign-in holds, and
// redeemed once, by that secret, for a session (`POST /auth/social/canjear`). A link made from someone else's return
// is refused in any other tab, so nobody can be put into another account by a link (login CSRF).
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { eq, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { type SignInMethod, signInReturns } from '../../db/schema.js';
import { HttpError } from '../../lib/errors.js';
import { socialSignInMessages } from './messages.js';

export const SIGN_IN_RETURN_TTL_MS = 60_000;

/** A return that cannot become a session: the spec's text (/login's error=token_invalid). */
export const signInReturnInvalid = () =>
  new HttpError(400, socialSignInMessages.tokenInvalid, 'SIGN_IN_RETURN_INVALID');

/** A binding as the portal sends it: SHA-256 in base64url (43 characters). */
export const isBinding = (value: unknown): value is string =>
  typeof value === 'string' && /^[A-Za-z0-9_-]{43}$/.test(value);

/** A return's method; one issued before methods were recorded was Google's or Apple's: 'google' stands for both. */
const methodOfReturn = (method: string | null): SignInMethod =>
  method === 'apple' || method === 'empresa' ? method : 'google';

const digest = (value: string) => createHash('sha256').update(value).digest('hex');

/** A new one-time code for `userId`, bound to `binding` (expired codes of anyone are swept on the way). */
export async function issueSignInReturn(
  db: Db,
  userId: number,
  binding: string,
  /** How the person signed in: the session it becomes records it (and the company rules may refuse it there). */
  method: Extract<SignInMethod, 'google' | 'apple' | 'empresa'>,
  /**
   * A company sign-in: the company whose provider it was (decision 0147), and whether that provider proved a second
   * factor the company trusts (decision 0144: the session proved one).
   */
  company?: { id: number; secondFactor: boolean },
): Promise<string> {
  const code = randomBytes(32).toString('base64url');
  await db.delete(signInReturns).where(lt(signInReturns.expiresAt, sql`now()`));
  await db.insert(signInReturns).values({
    id: digest(code),
    userId,
    binding,
    method,
    secondFactor: company?.secondFactor === true,
    ssoCompanyId: company?.id ?? null,
    expiresAt: new Date(Date.now() + SIGN_IN_RETURN_TTL_MS),
  });
  return code;
}

/**
 * Redeems a code with the tab's secret: the code is deleted by this attempt whatever its outcome (one statement, so
 * two concurrent attempts cannot both have it); answers its user when it was live and the secret matches its binding.
 */
export async function redeemSignInReturn(
  db: Db,
  code: string,
  secret: string,
): Promise<{ userId: number; method: SignInMethod; ssoCompanyId: number | null; secondFactor: boolean } | undefined> {
  const [row] = await db
    .delete(signInReturns)
    .where(eq(signInReturns.id, digest(code)))
    .returning({
      userId: signInReturns.userId,
      binding: signInReturns.binding,
      method: signInReturns.method,
      secondFactor: signInReturns.secondFactor,
      ssoCompanyId: signInReturns.ssoCompanyId,
      live: sql<boolean>`${signInReturns.expiresAt} > now()`,
    });
  if (!row?.live) return undefined;
  const expected = Buffer.from(row.binding);
  const given = Buffer.from(createHash('sha256').update(secret).digest('base64url'));
  return given.length === expected.length && timingSafeEqual(given, expected)
    ? {
        userId: row.userId,
        method: methodOfReturn(row.method),
        ssoCompanyId: row.ssoCompanyId,
        secondFactor: row.secondFactor,
      }
    : undefined;
}
