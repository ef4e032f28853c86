import { createHmac, hkdfSync, randomInt } from 'node:crypto';
import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import fp from 'fastify-plugin';
import type { Db } from '../../db/client.js';
import { accountCodes, type CodePurpose } from '../../db/schema.js';
import type { Clock } from './counters.js';

export const codeLifetimeMs = 10 * 60 * 1000;
export const maxCodeAttempts = 5;

/** `valid`: the code may be consumed; `invalid`: wrong, expired, used or none; `exhausted`: dead after 5 wrong tries. */
export type CodeCheck = 'valid' | 'invalid' | 'exhausted';

export interface CodeService {
  /** A new 6-digit code for the account and purpose, replacing any earlier one; answers the code to mail. */
  issue(db: Db, userId: number, purpose: CodePurpose): Promise<string>;
  /** Compares without using the code up; a wrong code counts as one of the 5 tries. */
  check(userId: number, purpose: CodePurpose, code: string): Promise<CodeCheck>;
  /** Uses the code up, atomically: of concurrent requests with the right code, exactly one gets true. */
  consume(db: Db, userId: number, purpose: CodePurpose, code: string): Promise<boolean>;
  /**
   * True when a code for the account and purpose was issued less than `ms` ago: the mail cooldown kept with the code
   * itself, committed or rolled back with it (issue 14, item 2). Read under the account row's lock.
   */
  issuedWithin(db: Db, userId: number, purpose: CodePurpose, ms: number): Promise<boolean>;
}

declare module 'fastify' {
  interface FastifyInstance {
    codes: CodeService;
  }
}

export function createCodeService(db: Db, hmacKey: Buffer, clock: Clock): CodeService {
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
      return code;
    },

    async check(userId, purpose, code) {
      const now = new Date(clock());
      const [stored] = await db.select().from(accountCodes).where(row(userId, purpose));
      if (!stored || stored.usedAt || stored.expiresAt <= now) return 'invalid';
      if (stored.attempts >= maxCodeAttempts) return 'exhausted';
      if (stored.codeHash === hashCode(userId, purpose, code)) return 'valid';
      // Counted in the database with a guard, so concurrent wrong guesses cannot get more than 5 tries between them.
      const [counted] = await db
        .update(accountCodes)
        .set({ attempts: sql`${accountCodes.attempts} + 1` })
        .where(and(row(userId, purpose), isNull(accountCodes.usedAt), lt(accountCodes.attempts, maxCodeAttempts)))
        .returning({ attempts: accountCodes.attempts });
      return !counted || counted.attempts >= maxCodeAttempts ? 'exhausted' : 'invalid';
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

export default fp(
  async (app) => {
    // Derived from the signing key, which is already the server's secret: no second secret to configure and keep.
    const keyMaterial = app.signingKey.privateKey.export({ type: 'pkcs8', format: 'der' });
    const hmacKey = Buffer.from(hkdfSync('sha256', keyMaterial, Buffer.alloc(0), 'portal account codes', 32));
    app.decorate('codes', createCodeService(app.db, hmacKey, app.clock));
  },
  { name: 'codes', dependencies: ['tokens', 'counters'] },
);
