import { createHmac, randomInt } from 'node:crypto';
import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { accountCodes, type CodePurpose } from '../../db/schema.js';
import type { Clock } from '../clock.js';

export const codeLifetimeMs = 10 * 60 * 1000;
export const maxCodeAttempts = 5;

/** `valid`: the code may be consumed; `invalid`: wrong, expired, used or none; `exhausted`: dead after 5 wrong tries. */
export type CodeCheck = 'valid' | 'invalid' | 'exhausted';

export interface CodeService {
  /** A new 6-digit code for the account and purpose, replacing any earlier one; answers the code to mail. */
  issue(db: Db, userId: number, purpose: CodePurpose): Promise<string>;
  /** Compares without using the code up; a try is taken before comparing, and kept when the code is wrong. */
  check(userId: number, purpose: CodePurpose, code: string): Promise<CodeCheck>;
  /** Uses the code up, atomically: of concurrent requests with the right code, exactly one gets true. */
  consume(db: Db, userId: number, purpose: CodePurpose, code: string): Promise<boolean>;
  /**
   * True when a code for the account and purpose was issued less than `ms` ago: the mail cooldown kept with the code
   * itself, committed or rolled back with it. Read under the account row's lock.
   */
  issuedWithin(db: Db, userId: number, purpose: CodePurpose, ms: number): Promise<boolean>;
}

/** What the codes report to the metrics: issued (and queued for mailing), accepted, refused and why. */
export interface CodeMetrics {
  codeSent(purpose: CodePurpose): void;
  codeVerified(purpose: CodePurpose): void;
  /** `wrong`: wrong, expired or unknown email; `exhausted`: the code died of wrong tries; `locked`: the day's cap. */
  codeRefused(purpose: CodePurpose, reason: 'wrong' | 'exhausted' | 'locked'): void;
}

export function createCodeService(db: Db, hmacKey: Buffer, clock: Clock, metrics: CodeMetrics): CodeService {
  // The account and purpose are part of the MAC, so a code hash copied to another row does not match there.
  const hashCode = (userId: number, purpose: CodePurpose, code: string) =>
    createHmac('sha256', hmacKey).update(`${userId}:${purpose}:${code}`).digest('base64url');
  const row = (userId: number, purpose: CodePurpose) =>
    and(eq(accountCodes.userId, userId), eq(accountCodes.purpose, purpose));

  return {
    async issue(tx, userId, purpose) {
      const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
      const now = new Date(clock());
      const values = {
        codeHash: hashCode(userId, purpose, code),
        expiresAt: new Date(now.getTime() + codeLifetimeMs),
        attempts: 0,
        usedAt: null,
        createdAt: now,
      };
      await tx
        .insert(accountCodes)
        .values({ userId, purpose, ...values })
        .onConflictDoUpdate({ target: [accountCodes.userId, accountCodes.purpose], set: values });
      metrics.codeSent(purpose);
      return code;
    },

    async check(userId, purpose, code) {
      const now = new Date(clock());
      // The try is taken before the code is compared, in one guarded statement: of any number of concurrent guesses,
      // at most the 5 tries a code has are ever compared.
      const [taken] = await db
        .update(accountCodes)
        .set({ attempts: sql`${accountCodes.attempts} + 1` })
        .where(
          and(
            row(userId, purpose),
            isNull(accountCodes.usedAt),
            gt(accountCodes.expiresAt, now),
            lt(accountCodes.attempts, maxCodeAttempts),
          ),
        )
        .returning({ attempts: accountCodes.attempts, codeHash: accountCodes.codeHash });
      if (!taken) {
        const [stored] = await db.select().from(accountCodes).where(row(userId, purpose));
        const live = stored && !stored.usedAt && stored.expiresAt > now;
        return live ? 'exhausted' : 'invalid';
      }
      if (taken.codeHash === hashCode(userId, purpose, code)) {
        // Right: the try is given back, so `consume` (which wants a try left) can use the code.
        await db
          .update(accountCodes)
          .set({ attempts: sql`${accountCodes.attempts} - 1` })
          .where(and(row(userId, purpose), eq(accountCodes.codeHash, taken.codeHash), gt(accountCodes.attempts, 0)));
        return 'valid';
      }
      return taken.attempts >= maxCodeAttempts ? 'exhausted' : 'invalid';
    },

    async consume(tx, userId, purpose, code) {
      const now = new Date(clock());
      const used = await tx
        .update(accountCodes)
        .set({ usedAt: now })
        .where(
          and(
            row(userId, purpose),
            eq(accountCodes.codeHash, hashCode(userId, purpose, code)),
            isNull(accountCodes.usedAt),
            gt(accountCodes.expiresAt, now),
            lt(accountCodes.attempts, maxCodeAttempts),
          ),
        )
        .returning({ userId: accountCodes.userId });
      return used.length === 1;
    },

    async issuedWithin(tx, userId, purpose, ms) {
      const since = new Date(clock() - ms);
      const [recent] = await tx
        .select({ userId: accountCodes.userId })
        .from(accountCodes)
        .where(and(row(userId, purpose), gt(accountCodes.createdAt, since)));
      return recent !== undefined;
    },
  };
}
