// The TOTP authenticator and the recovery codes (docs/decisions/0017-second-factor.md). TOTP as every authenticator app
// reads it (RFC 6238: SHA-1, 6 digits, 30-second steps), accepting the current step and one either side for a clock a
// little off, and never a step at or before the last one accepted: `last_step` moves in one conditional UPDATE, so two
// concurrent uses of one code cannot both pass. Recovery codes are 10 characters of an alphabet without look-alikes,
// kept as SHA-256.
import { createHash, randomInt } from 'node:crypto';
import { and, eq, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import { generateSecret, generateURI, verify } from 'otplib';
import QRCode from 'qrcode';
import type { Db } from '../../db/client.js';
import { recoveryCodes, totpFactors } from '../../db/schema.js';
import { HttpError } from '../../lib/errors.js';
import { secondFactorMessages } from './messages.js';

export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_DIGITS = 6;
export const TOTP_ALGORITHM = 'sha1';
export const RECOVERY_CODE_COUNT = 10;
/** Upper-case letters and digits without 0/O, 1/I/L: 31 symbols, so 10 of them are about 49.5 random bits. */
export const RECOVERY_CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

export const invalidSecondFactor = () =>
  new HttpError(400, secondFactorMessages.invalidSecondFactor, 'INVALID_SECOND_FACTOR');
export const totpAlreadyEnabled = () =>
  new HttpError(409, secondFactorMessages.totpAlreadyEnabled, 'TOTP_ALREADY_ENABLED');
export const totpNotStarted = () => new HttpError(404, secondFactorMessages.totpNotStarted, 'TOTP_NOT_STARTED');
export const totpNotEnabled = () => new HttpError(404, secondFactorMessages.totpNotEnabled, 'TOTP_NOT_ENABLED');

/** A new secret: 20 random bytes (160 bits, RFC 4226's recommendation) in base32. */
export const newTotpSecret = (): string => generateSecret({ length: 20 });

/** The otpauth:// address an authenticator app reads from the QR code: issuer and account shown beside the codes. */
export function totpUri(issuer: string, account: string, secret: string): string {
  return generateURI({
    issuer,
    label: account,
    secret,
    algorithm: TOTP_ALGORITHM,
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
  });
}

/** The address as a QR code, an SVG in a data URL the page shows as an image. */
export async function totpQrCode(uri: string): Promise<string> {
  const svg = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
}

/** The 30-second step `nowMs` falls in. */
export const totpStep = (nowMs: number): number => Math.floor(nowMs / 1000 / TOTP_PERIOD_SECONDS);

/**
 * The step `code` belongs to for `secret`, when it is the current step or one either side and later than `afterStep`;
 * else undefined. Does not record anything: the caller moves `last_step` to it.
 */
export async function matchTotpStep(
  secret: string,
  code: string,
  nowMs: number,
  afterStep: number,
): Promise<number | undefined> {
  if (!/^[0-9]{6}$/.test(code)) return undefined;
  // Every step of the window is at or before the last one accepted (a clock moved back): nothing can match.
  if (afterStep >= totpStep(nowMs) + 1) return undefined;
  const result = await verify({
    secret,
    token: code,
    algorithm: TOTP_ALGORITHM,
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
    epoch: Math.floor(nowMs / 1000),
    epochTolerance: TOTP_PERIOD_SECONDS,
    ...(afterStep > 0 ? { afterTimeStep: afterStep } : {}),
  });
  // `delta` is the matching step's offset from the current one.
  return result.valid ? totpStep(nowMs) + result.delta : undefined;
}

/** The account's authenticator, confirmed or not. */
export async function findTotpFactor(db: Db, userId: number) {
  const [factor] = await db.select().from(totpFactors).where(eq(totpFactors.userId, userId));
  return factor;
}

/**
 * Uses a code of the account's confirmed authenticator: true when it matched a step later than the last one accepted
 * and this call moved `last_step` to it (a concurrent use of the same code finds the step taken and gets false).
 */
export async function useTotpCode(db: Db, userId: number, code: string, nowMs: number): Promise<boolean> {
  const [factor] = await db
    .select({ secret: totpFactors.secret, lastStep: totpFactors.lastStep })
    .from(totpFactors)
    .where(and(eq(totpFactors.userId, userId), isNotNull(totpFactors.confirmedAt)));
  if (!factor) return false;
  const step = await matchTotpStep(factor.secret, code, nowMs, factor.lastStep);
  return step !== undefined && (await claimTotpStep(db, userId, step));
}

/**
 * Moves the confirmed authenticator's `last_step` to `step` if it is still before it: one conditional UPDATE, so of
 * two requests that read the same `last_step` and matched the same code, exactly one gets true.
 */
export async function claimTotpStep(db: Db, userId: number, step: number): Promise<boolean> {
  const [moved] = await db
    .update(totpFactors)
    .set({ lastStep: step })
    .where(and(eq(totpFactors.userId, userId), isNotNull(totpFactors.confirmedAt), lt(totpFactors.lastStep, step)))
    .returning({ userId: totpFactors.userId });
  return moved !== undefined;
}

/** A new unconfirmed secret for the account, replacing an unconfirmed one; undefined when one is confirmed already. */
export async function startTotp(db: Db, userId: number): Promise<string | undefined> {
  const secret = newTotpSecret();
  const [row] = await db
    .insert(totpFactors)
    .values({ userId, secret })
    .onConflictDoUpdate({
      target: totpFactors.userId,
      set: { secret, lastStep: 0, createdAt: sql`now()` },
      setWhere: isNull(totpFactors.confirmedAt),
    })
    .returning({ userId: totpFactors.userId });
  return row ? secret : undefined;
}

/**
 * Confirms the account's unconfirmed authenticator with its first code, recording the step; throws 404
 * TOTP_NOT_STARTED, 409 TOTP_ALREADY_ENABLED or 400 INVALID_SECOND_FACTOR.
 */
export async function confirmTotp(db: Db, userId: number, code: string, nowMs: number): Promise<void> {
  const factor = await findTotpFactor(db, userId);
  if (!factor) throw totpNotStarted();
  if (factor.confirmedAt) throw totpAlreadyEnabled();
  const step = await matchTotpStep(factor.secret, code, nowMs, factor.lastStep);
  if (step === undefined) throw invalidSecondFactor();
  // Notifies session-state: a second factor can make a company's seats count (docs/triggers.md).
  const [confirmed] = await db
    .update(totpFactors)
    .set({ confirmedAt: sql`now()`, lastStep: step })
    .where(
      and(
        eq(totpFactors.userId, userId),
        eq(totpFactors.secret, factor.secret),
        isNull(totpFactors.confirmedAt),
        lt(totpFactors.lastStep, step),
      ),
    )
    .returning({ userId: totpFactors.userId });
  // A concurrent confirmation (or a new QR code asked meanwhile) changed the row first.
  if (!confirmed) {
    const now = await findTotpFactor(db, userId);
    if (now?.confirmedAt) throw totpAlreadyEnabled();
    throw invalidSecondFactor();
  }
}

/** Removes the authenticator and its recovery codes; notifies session-state, as `confirmTotp` does. */
export async function removeTotp(db: Db, userId: number): Promise<void> {
  await db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  await db.delete(totpFactors).where(eq(totpFactors.userId, userId));
}

/** 'ABCDE-FGHJK', uniformly from the alphabet. */
export function newRecoveryCode(): string {
  let code = '';
  for (let i = 0; i < 10; i++) code += RECOVERY_CODE_ALPHABET[randomInt(RECOVERY_CODE_ALPHABET.length)];
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

/** What is stored of a recovery code: SHA-256 hex of it upper-cased without the dash (the person may type either). */
export function recoveryCodeHash(code: string): string {
  return createHash('sha256').update(code.replaceAll('-', '').toUpperCase()).digest('hex');
}

/** A new set of 10 codes for the account (the old set is deleted); answers them, to be shown once. */
export async function replaceRecoveryCodes(db: Db, userId: number): Promise<string[]> {
  const codes = new Set<string>();
  while (codes.size < RECOVERY_CODE_COUNT) codes.add(newRecoveryCode());
  const list = [...codes];
  await db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  await db.insert(recoveryCodes).values(list.map((code) => ({ userId, codeHash: recoveryCodeHash(code) })));
  return list;
}

/** Uses an unused recovery code up (one statement: two concurrent uses cannot both win); true when it was one. */
export async function useRecoveryCode(db: Db, userId: number, code: string): Promise<boolean> {
  const [used] = await db
    .update(recoveryCodes)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(recoveryCodes.userId, userId),
        eq(recoveryCodes.codeHash, recoveryCodeHash(code)),
        isNull(recoveryCodes.usedAt),
      ),
    )
    .returning({ id: recoveryCodes.id });
  return used !== undefined;
}

/** A second-factor code as the second step and the removal take it: 6 digits are TOTP, anything else a recovery code. */
export async function useSecondFactorCode(db: Db, userId: number, code: string, nowMs: number): Promise<boolean> {
  return /^[0-9]{6}$/.test(code) ? useTotpCode(db, userId, code, nowMs) : useRecoveryCode(db, userId, code);
}
