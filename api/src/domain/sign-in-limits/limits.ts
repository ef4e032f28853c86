import type { CodePurpose } from '../../db/schema.js';
import { retryLater, type HttpError } from '../../lib/errors.js';
import type { Clock } from '../clock.js';
import type { CounterStore, TakenSlot } from './counters.js';
import { limitMessages } from './messages.js';

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

/** The hold each failure from `threshold` on starts, for `CounterStore.take`: the last one repeats. */
const lockSteps = (durationMs: (failures: number) => number, threshold: number) =>
  Array.from({ length: 11 }, (_, i) => durationMs(threshold + i));
const ownLockSteps = lockSteps(lockDurationMs, lockoutThreshold);
const accountLockSteps = lockSteps(accountThrottleMs, accountThrottleThreshold);

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
 * Wrong codes an email may send per purpose in a day, over every code it is mailed: 5 tries per code alone would
 * allow 5 guesses a minute forever. 20 leaves room for typos in 4 codes; past it the purpose is closed
 * until the day's window (opened by the first wrong code) ends.
 */
export const maxWrongCodesPerDay = 20;
const wrongCodeWindowMs = 24 * 60 * 60_000;

/** Invitation mails a company may send in an hour, all its administrators together, however few seats it bought. */
export const invitationMailsPerCompanyHour = 50;
/** Invitation mails one person may send to one company's invitees in an hour, however few seats it bought. */
export const invitationMailsPerInviterHour = 20;

/**
 * The invitation mails of an hour, sized to the company (docs/decisions/0133-invitation-mails-sized-to-the-company.md):
 * the seats it bought (of its unexpired licences, which only the vendor sells) raise both floors, so a company of 150
 * seats invites its 150 people in one hour and one with 5 seats still sends no more than 20 and 50.
 */
export function invitationMailLimits(seatsBought: number): { company: number; inviter: number } {
  const seats = Math.max(0, Math.floor(seatsBought));
  return {
    company: Math.max(invitationMailsPerCompanyHour, seats),
    inviter: Math.max(invitationMailsPerInviterHour, seats),
  };
}

const untilFormat = new Intl.DateTimeFormat('es-ES', {
  timeZone: 'UTC',
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/**
 * 'Podrás intentarlo de nuevo el 16/01/2026 a las 12:00 (hora UTC).' rounded up to the minute; `message` words it
 * from the date and the time (the sign-in's sentence unless given).
 */
export function wrongCodesLockedError(
  untilMs: number,
  nowMs: number,
  message: (date: string, time: string) => string = limitMessages.codeGuessesExceeded,
): HttpError {
  const parts = Object.fromEntries(
    untilFormat.formatToParts(new Date(Math.ceil(untilMs / 60_000) * 60_000)).map((part) => [part.type, part.value]),
  );
  return retryLater(
    429,
    message(`${parts.day}/${parts.month}/${parts.year}`, `${parts.hour}:${parts.minute}`),
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
/**
 * One password (or second-step code) taken for evaluation from `address`: its slot among the address's failures and
 * among the account's. Settled once by `failedSignIn` (kept as a failure), `succeededSignIn` or `giveBackSignIn`.
 */
export interface SignInAttempt {
  email: string;
  address: string;
  own: TakenSlot;
  account: TakenSlot;
  knownAddress: boolean;
  /** Set by the first of `failedSignIn`, `succeededSignIn` and `giveBackSignIn`. */
  settled: boolean;
}

/** What wrong codes are counted for: an account code's purpose, or the company invitations mailed to the address. */
export type GuessedCode = CodePurpose | 'company_invitation';

/** A code check taken against the email's wrong codes of the day for its purpose. */
export interface CodeAttempt {
  email: string;
  purpose: GuessedCode;
  slot: TakenSlot;
}

export interface AccountLimits {
  /**
   * Takes the right to evaluate one password or second-step code from `address`, in one step per counter, before it
   * is looked at: so a burst gets no more evaluations than the same requests one after another. Answers the ms to
   * wait when the address (or, unless it is known to the account, the account) is locked; nothing is taken then.
   */
  reserveSignIn(email: string, address: string): Promise<{ lockedMs: number } | { attempt: SignInAttempt }>;
  /** The attempt was wrong: its slots stay as failures; answers the ms it must now wait and the lock it started. */
  failedSignIn(attempt: SignInAttempt): Promise<{ lockMs: number; lockout: Lockout | null }>;
  /** The attempt was right: the address's failures are forgotten (`clearSignInFailures`), its account slot given back. */
  succeededSignIn(attempt: SignInAttempt, options?: { everywhere?: boolean }): Promise<void>;
  /** The attempt was not evaluated after all (its ticket was gone): both slots are given back. */
  giveBackSignIn(attempt: SignInAttempt): Promise<void>;
  /**
   * The request ended without settling its attempt (the database failed before anything was evaluated): both slots
   * are given back, so an outage never counts as failures. Never throws: it runs on the way out of a failed request.
   */
  releaseUnsettled(attempt: SignInAttempt): Promise<void>;
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
  /**
   * Counts one company invitation mail against the company's hour and the inviter's hour in that company (`inviterId`
   * null: the console, the company's only), each as large as `invitationMailLimits(seatsBought)` says; answers the
   * 429 when either is over, naming the minutes to wait. Another company's mails never count here.
   */
  countInvitationMail(companyId: number, inviterId: number | null, seatsBought: number): Promise<HttpError | null>;
  /** Starts (or restarts) the 60 s cooldown after a code mail was committed. */
  startCodeCooldown(email: string, purpose: CodePurpose): Promise<void>;
  /**
   * Takes one of the email's wrong codes of the day for `purpose` before a code is looked at, or answers the 429 to
   * give while they are used up. Kept when the code is wrong (or expired, or unknown), given back when it is right.
   */
  reserveCodeCheck(email: string, purpose: GuessedCode): Promise<{ refused: HttpError } | { attempt: CodeAttempt }>;
  /** The code was right: its slot is given back. */
  giveBackCodeCheck(attempt: CodeAttempt): Promise<void>;
}

/** The sign-in locks, code-mail cooldowns and wrong-code limits, kept in the shared counter store. */
/** What the limits report to the metrics. */
export interface LockMetrics {
  /** A failure started a sign-in lock (or made it longer). */
  lockOpened(scope: Lockout['scope']): void;
}

export function createAccountLimits(counters: CounterStore, clock: Clock, metrics: LockMetrics): AccountLimits {
  const lockKey = (email: string, address: string) => `signin-lock:${email}:${address}`;
  const failuresKey = (email: string, address: string) => `signin-failures:${email}:${address}`;
  const accountLockKey = (email: string) => `signin-account-lock:${email}`;
  const accountFailuresKey = (email: string) => `signin-account-failures:${email}`;
  const knownKey = (email: string, address: string) => `signin-known:${email}:${address}`;
  const cooldownKey = (email: string, purpose: CodePurpose) => `code-cooldown:${purpose}:${email}`;
  const wrongCodesKey = (email: string, purpose: GuessedCode) => `code-wrong:${purpose}:${email}`;

  async function countCodeMail(email: string): Promise<HttpError | null> {
    const { count, resetAt } = await counters.increment(`code-mails:${email}`, 60 * 60_000);
    if (count <= mailsPerHour) return null;
    const minutes = Math.ceil((resetAt - clock()) / 60_000);
    return retryLater(429, limitMessages.codeMailLimit(minutes), 'CODE_MAIL_LIMIT', resetAt - clock());
  }

  async function countInvitationMail(
    companyId: number,
    inviterId: number | null,
    seatsBought: number,
  ): Promise<HttpError | null> {
    const limits = invitationMailLimits(seatsBought);
    // The inviter's first: one person's burst past their own hour does not spend the company's.
    const counted: [string, number][] = [[`invitation-mails:company:${companyId}`, limits.company]];
    if (inviterId !== null) {
      counted.unshift([`invitation-mails:inviter:${inviterId}:company:${companyId}`, limits.inviter]);
    }
    for (const [key, max] of counted) {
      const { count, resetAt } = await counters.increment(key, 60 * 60_000);
      if (count <= max) continue;
      const minutes = Math.max(1, Math.ceil((resetAt - clock()) / 60_000));
      return retryLater(429, limitMessages.invitationMailLimit(minutes), 'INVITATION_MAIL_LIMIT', resetAt - clock());
    }
    return null;
  }

  return {
    countInvitationMail,
    async reserveSignIn(email, address) {
      const own = await counters.take(failuresKey(email, address), failureMemoryMs, {
        threshold: lockoutThreshold,
        lock: { key: lockKey(email, address), ms: ownLockSteps },
      });
      if (!own.taken) return { lockedMs: own.waitMs };
      const account = await counters.take(accountFailuresKey(email), failureMemoryMs, {
        threshold: accountThrottleThreshold,
        lock: { key: accountLockKey(email), ms: accountLockSteps, exemptKey: knownKey(email, address) },
      });
      if (!account.taken) {
        await counters.giveBack(failuresKey(email, address), own, lockKey(email, address));
        return { lockedMs: account.waitMs };
      }
      const knownAddress = (await counters.heldFor(knownKey(email, address))) > 0;
      return { attempt: { email, address, own, account, knownAddress, settled: false } };
    },

    async failedSignIn(attempt) {
      attempt.settled = true;
      const { email, address, own, account, knownAddress } = attempt;
      // The locks started when the slots were taken; they start again now, as long, counted from the failure.
      if (own.lockMs > 0) {
        await counters.hold(lockKey(email, address), own.lockMs, true);
        metrics.lockOpened('address');
      }
      if (account.lockMs > 0) {
        await counters.hold(accountLockKey(email), account.lockMs, true);
        metrics.lockOpened('account');
      }
      const lockout: Lockout | null = worthRecording(account.count, accountThrottleThreshold)
        ? { scope: 'account', failures: account.count, lockMs: account.lockMs }
        : worthRecording(own.count, lockoutThreshold)
          ? { scope: 'address', failures: own.count, lockMs: own.lockMs }
          : null;
      return { lockMs: Math.max(own.lockMs, knownAddress ? 0 : account.lockMs), lockout };
    },

    async succeededSignIn(attempt, options = {}) {
      attempt.settled = true;
      await counters.giveBack(accountFailuresKey(attempt.email), attempt.account, accountLockKey(attempt.email));
      await this.clearSignInFailures(attempt.email, attempt.address, options);
    },

    async giveBackSignIn(attempt) {
      attempt.settled = true;
      const { email, address, own, account } = attempt;
      await counters.giveBack(accountFailuresKey(email), account, accountLockKey(email));
      await counters.giveBack(failuresKey(email, address), own, lockKey(email, address));
    },

    async releaseUnsettled(attempt) {
      if (!attempt.settled) await this.giveBackSignIn(attempt).catch(() => undefined);
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
        return retryLater(429, limitMessages.codeCooldown(n), 'CODE_COOLDOWN', waitMs);
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

    async reserveCodeCheck(email, purpose) {
      const slot = await counters.take(wrongCodesKey(email, purpose), wrongCodeWindowMs, {
        threshold: maxWrongCodesPerDay,
      });
      if (!slot.taken) return { refused: wrongCodesLockedError(clock() + slot.waitMs, clock()) };
      return { attempt: { email, purpose, slot } };
    },

    async giveBackCodeCheck({ email, purpose, slot }) {
      await counters.giveBack(wrongCodesKey(email, purpose), slot);
    },
  } satisfies AccountLimits;
}
