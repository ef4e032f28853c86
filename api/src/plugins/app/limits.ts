import fp from 'fastify-plugin';
import type { CodePurpose } from '../../db/schema.js';
import { retryLater, type HttpError } from '../../lib/errors.js';

export const codeCooldownMs = 60_000;
export const mailsPerHour = 10;
export const lockoutThreshold = 5;
const firstLockMs = 30_000;
const maxLockMs = 15 * 60_000;
/** Failures are remembered this long, so a slow guesser keeps meeting the longer locks. */
const failureMemoryMs = 24 * 60 * 60_000;
/** Failures of one account from all addresses together before the slower account-wide throttle starts. */
export const accountThrottleThreshold = 20;
/** An address that signed in to an account is known to it this long, and the account throttle lets it through. */
const knownAddressMs = 30 * 24 * 60 * 60_000;

/** 30 s at the 5th failure in a row, doubling with each further one, 15 min at most. */
export function lockDurationMs(failures: number): number {
  if (failures < lockoutThreshold) return 0;
  return Math.min(maxLockMs, firstLockMs * 2 ** Math.min(failures - lockoutThreshold, 10));
}

/** The account-wide throttle: 30 s at the 20th failure from any address, doubling, 15 min at most. */
export function accountThrottleMs(failures: number): number {
  return failures < accountThrottleThreshold
    ? 0
    : lockDurationMs(failures - accountThrottleThreshold + lockoutThreshold);
}

/** A lock that a failure just started, worth an audit line: the address's own, or the account's. */
export interface Lockout {
  scope: 'address' | 'account';
  failures: number;
  lockMs: number;
}

/** Which lock starts go to the audit log: the first one and every fifth failure after it, per scope. */
const worthRecording = (failures: number, threshold: number) =>
  failures >= threshold && (failures - threshold) % 5 === 0;

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/**
 * Wrong codes an email may send per purpose in a day, over every code it is mailed (issue 13, item 6): 5 tries per
 * code alone allowed 5 guesses a minute forever. 20 leaves room for typos in 4 codes; past it the purpose is closed
 * until the day's window (opened by the first wrong code) ends.
 */
export const maxWrongCodesPerDay = 20;
const wrongCodeWindowMs = 24 * 60 * 60_000;

const untilFormat = new Intl.DateTimeFormat('es-ES', {
  timeZone: 'UTC',
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** 'Podrás intentarlo de nuevo el 16/01/2026 a las 12:00 (hora UTC).' rounded up to the minute. */
export function wrongCodesLockedError(untilMs: number, nowMs: number): HttpError {
  const parts = Object.fromEntries(
    untilFormat.formatToParts(new Date(Math.ceil(untilMs / 60_000) * 60_000)).map((part) => [part.type, part.value]),
  );
  return retryLater(
    429,
    `Demasiados códigos incorrectos. Podrás intentarlo de nuevo el ${parts.day}/${parts.month}/${parts.year} a las ${parts.hour}:${parts.minute} (hora UTC).`,
    'CODE_GUESSES_EXCEEDED',
    untilMs - nowMs,
  );
}

/**
 * Brute-force and mail limits, keyed by the normalized email whether an account has it or not, so the answers are
 * the same for known and unknown addresses. Sign-in failures count per (email, client address): an attacker locks
 * only the address it guesses from, never the owner elsewhere. A slower throttle counts the account's failures from
 * every address, for guessing spread over many; addresses that signed in to the account before are not held by it.
 */
export interface AccountLimits {
  /** Ms left before `address` may try a password for the email, 0 when it may try now. */
  signInLockedFor(email: string, address: string): Promise<number>;
  /** Records a failed password from `address`; answers the ms it must now wait and the lock it started, if any. */
  recordSignInFailure(email: string, address: string): Promise<{ lockMs: number; lockout: Lockout | null }>;
  /**
   * A successful sign-in from `address`: its failures are forgotten and it becomes known to the account. With
   * `everywhere` (the mailbox was proved by a code, or the operator reset the password), the account-wide throttle is
   * lifted too; `address` null (the operator's console) touches no address.
   */
  clearSignInFailures(email: string, address: string | null, options?: { everywhere?: boolean }): Promise<void>;
  /** Takes the right to mail a code, or answers the 429 to give: 60 s between codes, 10 mails an hour. */
  reserveCodeMail(email: string, purpose: CodePurpose): Promise<HttpError | null>;
  /** Gives back the cooldown of a reservation whose mail was never written (its transaction failed). */
  releaseCodeMail(email: string, purpose: CodePurpose): Promise<void>;
  /** Counts one code mail against the hourly limit; answers the 429 when it is over. */
  countCodeMail(email: string): Promise<HttpError | null>;
  /** Starts (or restarts) the 60 s cooldown after a code mail was committed. */
  startCodeCooldown(email: string, purpose: CodePurpose): Promise<void>;
  /** The 429 to give while the email's wrong codes of the day for `purpose` are used up, else null. */
  wrongCodesLocked(email: string, purpose: CodePurpose): Promise<HttpError | null>;
  /** Counts one wrong (or expired, or unknown) code. */
  recordWrongCode(email: string, purpose: CodePurpose): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    limits: AccountLimits;
  }
}

export default fp(
  async (app) => {
    const { counters, clock } = app;
    const lockKey = (email: string, address: string) => `signin-lock:${email}:${address}`;
    const failuresKey = (email: string, address: string) => `signin-failures:${email}:${address}`;
    const accountLockKey = (email: string) => `signin-account-lock:${email}`;
    const accountFailuresKey = (email: string) => `signin-account-failures:${email}`;
    const knownKey = (email: string, address: string) => `signin-known:${email}:${address}`;
    const cooldownKey = (email: string, purpose: CodePurpose) => `code-cooldown:${purpose}:${email}`;
    const wrongCodesKey = (email: string, purpose: CodePurpose) => `code-wrong:${purpose}:${email}`;
    const wrongCodesLockKey = (email: string, purpose: CodePurpose) => `code-wrong-lock:${purpose}:${email}`;

    async function countCodeMail(email: string): Promise<HttpError | null> {
      const { count, resetAt } = await counters.increment(`code-mails:${email}`, 60 * 60_000);
      if (count <= mailsPerHour) return null;
      const minutes = Math.ceil((resetAt - clock()) / 60_000);
      return retryLater(
        429,
        `Has pedido demasiados códigos. Inténtalo de nuevo en ${minutes} ${minutes === 1 ? 'minuto' : 'minutos'}.`,
        'CODE_MAIL_LIMIT',
        resetAt - clock(),
      );
    }

    app.decorate('limits', {
      async signInLockedFor(email, address) {
        const own = await counters.heldFor(lockKey(email, address));
        if (own > 0) return own;
        const account = await counters.heldFor(accountLockKey(email));
        return account > 0 && (await counters.heldFor(knownKey(email, address))) === 0 ? account : 0;
      },

      async recordSignInFailure(email, address) {
        const own = await counters.increment(failuresKey(email, address), failureMemoryMs);
        const account = await counters.increment(accountFailuresKey(email), failureMemoryMs);
        const ownLockMs = lockDurationMs(own.count);
        const accountLockMs = accountThrottleMs(account.count);
        if (ownLockMs > 0) await counters.hold(lockKey(email, address), ownLockMs, true);
        if (accountLockMs > 0) await counters.hold(accountLockKey(email), accountLockMs, true);
        const lockout: Lockout | null = worthRecording(account.count, accountThrottleThreshold)
          ? { scope: 'account', failures: account.count, lockMs: accountLockMs }
          : worthRecording(own.count, lockoutThreshold)
            ? { scope: 'address', failures: own.count, lockMs: ownLockMs }
            : null;
        const known = accountLockMs > 0 && (await counters.heldFor(knownKey(email, address))) > 0;
        return { lockMs: Math.max(ownLockMs, known ? 0 : accountLockMs), lockout };
      },

      async clearSignInFailures(email, address, options = {}) {
        if (address !== null) {
          await counters.delete(failuresKey(email, address), lockKey(email, address));
          await counters.hold(knownKey(email, address), knownAddressMs, true);
        }
        if (options.everywhere) await counters.delete(accountFailuresKey(email), accountLockKey(email));
      },

      async reserveCodeMail(email, purpose) {
        const waitMs = await counters.hold(cooldownKey(email, purpose), codeCooldownMs);
        if (waitMs > 0) {
          const n = seconds(waitMs);
          return retryLater(
            429,
            `Espera ${n} ${n === 1 ? 'segundo' : 'segundos'} antes de pedir otro código`,
            'CODE_COOLDOWN',
            waitMs,
          );
        }
        return countCodeMail(email);
      },

      async releaseCodeMail(email, purpose) {
        await counters.delete(cooldownKey(email, purpose));
      },

      countCodeMail,

      async startCodeCooldown(email, purpose) {
        await counters.hold(cooldownKey(email, purpose), codeCooldownMs, true);
      },

      async wrongCodesLocked(email, purpose) {
        const lockedMs = await counters.heldFor(wrongCodesLockKey(email, purpose));
        return lockedMs > 0 ? wrongCodesLockedError(clock() + lockedMs, clock()) : null;
      },

      async recordWrongCode(email, purpose) {
        const { count, resetAt } = await counters.increment(wrongCodesKey(email, purpose), wrongCodeWindowMs);
        if (count >= maxWrongCodesPerDay)
          await counters.hold(wrongCodesLockKey(email, purpose), resetAt - clock(), true);
      },
    } satisfies AccountLimits);
  },
  { name: 'limits', dependencies: ['counters'] },
);
