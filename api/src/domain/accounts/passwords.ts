import { randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { type User, users } from '../../db/schema.js';
import type { CodeService } from '../account-codes/codes.js';
import { invalidCode } from '../account-codes/code-mail.js';

// OWASP's argon2id settings. The library's default algorithm is argon2id (its `Algorithm` is a const enum, which
// isolated modules cannot import); the stored hash's `$argon2id$v=19$m=19456,t=2,p=1$` prefix is checked on the
// production build by scripts/check-production-api.mjs.
export const productionPasswordCost = { memoryCost: 19456, timeCost: 2, parallelism: 1 };
let cost = productionPasswordCost;

/**
 * The API suites' in-process apps hash at argon2's lowest cost: their tests are about what is stored and checked, not
 * about what guessing costs (docs/decisions/0088-test-suite-speed.md). No configuration reaches this: only test code
 * imports and calls it, so a process the product starts hashes at the production cost whatever its environment. A
 * verification reads the cost from the stored hash, so hashes of either cost check alike everywhere.
 */
export function hashAtTestCostInThisProcess(): void {
  cost = { memoryCost: 8, timeCost: 1, parallelism: 1 };
}

/** Runs on the library's thread pool, off the event loop. */
export function hashPassword(password: string): Promise<string> {
  return hash(password, cost);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    // A malformed stored hash is a failed sign-in, not a server error.
    return false;
  }
}

export interface PasswordService {
  hash(password: string): Promise<string>;
  /** Checks the password; without a stored hash it still spends the same time, so timing reveals no accounts. */
  verify(passwordHash: string | null | undefined, password: string): Promise<boolean>;
}

/** The password checks the API uses: `verify` spends the same time whether or not the account has a password. */
export async function createPasswordService(): Promise<PasswordService> {
  const dummyHash = await hashPassword(randomBytes(16).toString('base64url'));
  return {
    hash: hashPassword,
    async verify(passwordHash, password) {
      const matches = await verifyPassword(passwordHash ?? dummyHash, password);
      return Boolean(passwordHash) && matches;
    },
  };
}

/**
 * Sets the password and bumps the token version: every token issued before stops working, and the account's provider
 * sessions end with their back-channel logouts queued (trigger `users_oidc_end`, docs/triggers.md).
 */
export const newPasswordValues = (passwordHash: string) => ({
  passwordHash,
  tokenVersion: sql`${users.tokenVersion} + 1`,
});

/** The password reset by an emailed code: the code is used up and the password set, or neither (invalid code). */
export async function resetPassword(
  deps: { db: Db; codes: Pick<CodeService, 'consume'> },
  userId: number,
  code: string,
  passwordHash: string,
): Promise<void> {
  await deps.db.transaction(async (tx) => {
    if (!(await deps.codes.consume(tx, userId, 'reset_password', code))) throw invalidCode();
    await tx.update(users).set(newPasswordValues(passwordHash)).where(eq(users.id, userId));
  });
}

/**
 * The signed-in person's new password, unless another change won the race (the token version moved on): then
 * undefined, and the session it came from has already ended.
 */
export async function replacePassword(
  db: Db,
  user: Pick<User, 'id' | 'tokenVersion'>,
  passwordHash: string,
): Promise<User | undefined> {
  const [updated] = await db
    .update(users)
    .set(newPasswordValues(passwordHash))
    .where(and(eq(users.id, user.id), eq(users.tokenVersion, user.tokenVersion)))
    .returning();
  return updated;
}
