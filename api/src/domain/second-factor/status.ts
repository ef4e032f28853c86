// Which second factors an account holds, read in one statement, and the rule that an administrator under
// ADMIN_SECOND_FACTOR=required keeps at least one (docs/decisions/0017-second-factor.md). The TOTP routes and the
// passkey routes both ask here.
import { and, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { passkeys, recoveryCodes, roles, totpFactors, type User } from '../../db/schema.js';
import type { Config } from '../../config.js';
import { HttpError } from '../../lib/errors.js';
import { secondFactorMessages } from './messages.js';

export interface FactorSummary {
  /** A confirmed TOTP authenticator. */
  totp: boolean;
  passkeys: number;
  recoveryCodesLeft: number;
}

export async function factorSummary(db: Db, userId: number): Promise<FactorSummary> {
  const [row] = await db
    .select({
      totp: sql<boolean>`exists (select 1 from ${totpFactors} where ${and(eq(totpFactors.userId, userId), isNotNull(totpFactors.confirmedAt))})`,
      passkeys: sql<number>`(select count(*)::int from ${passkeys} where ${eq(passkeys.userId, userId)})`,
      recoveryCodesLeft: sql<number>`(select count(*)::int from ${recoveryCodes} where ${and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt))})`,
    })
    .from(sql`(select 1) as one`);
  return {
    totp: row?.totp === true,
    passkeys: Number(row?.passkeys ?? 0),
    recoveryCodesLeft: Number(row?.recoveryCodesLeft ?? 0),
  };
}

/** Whether the account has a second factor to ask after its password (a confirmed TOTP or a passkey). */
export const hasSecondFactor = (summary: FactorSummary) => summary.totp || summary.passkeys > 0;

/** One way to prove a second factor: the authenticator app, a recovery code, a passkey. */
export type SecondFactorMethod = 'totp' | 'recovery' | 'passkey';

/** The ways the account can prove a second factor now, in the order the second step offers them. */
export const secondFactorMethodsOf = (summary: FactorSummary): SecondFactorMethod[] => [
  ...(summary.totp ? (['totp'] as const) : []),
  ...(summary.recoveryCodesLeft > 0 ? (['recovery'] as const) : []),
  ...(summary.passkeys > 0 ? (['passkey'] as const) : []),
];

/** Whether this account may administer only from a session that proved a second factor. */
export function secondFactorRequired(config: Pick<Config, 'adminSecondFactor'>, user: Pick<User, 'role'>): boolean {
  return config.adminSecondFactor === 'required' && user.role === roles.admin;
}

export const lastSecondFactor = () => new HttpError(409, secondFactorMessages.lastSecondFactor, 'LAST_SECOND_FACTOR');

/**
 * Refuses (409 LAST_SECOND_FACTOR) to remove an administrator's last factor under ADMIN_SECOND_FACTOR=required:
 * `removing` is what the call would take away (the TOTP authenticator, or one passkey).
 */
export function keepOneFactor(
  config: Pick<Config, 'adminSecondFactor'>,
  user: Pick<User, 'role'>,
  summary: FactorSummary,
  removing: 'totp' | 'passkey',
): void {
  if (!secondFactorRequired(config, user)) return;
  const left = removing === 'totp' ? summary.passkeys : Number(summary.totp) + summary.passkeys - 1;
  if (left < 1) throw lastSecondFactor();
}

export const verifiedSessionRequired = () =>
  new HttpError(403, secondFactorMessages.verifiedSessionRequired, 'VERIFIED_SESSION_REQUIRED');

/**
 * Adding or removing a factor of an account that already has one takes a session that proved one (403
 * VERIFIED_SESSION_REQUIRED): otherwise a stolen token, or a Google/Apple sign-in (which asks no second step), could
 * add its own way in, and that new factor would even open the admin panel. An account's first factor is trusted on
 * first use: the session that sets it up is the one that proves it.
 */
export async function requireVerifiedSessionToChangeFactors(
  db: Db,
  auth: { user: Pick<User, 'id'>; secondFactor: boolean },
): Promise<void> {
  if (auth.secondFactor) return;
  if (hasSecondFactor(await factorSummary(db, auth.user.id))) throw verifiedSessionRequired();
}
