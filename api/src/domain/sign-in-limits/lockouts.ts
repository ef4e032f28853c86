import type { Db } from '../../db/client.js';
import { HttpError, retryLater } from '../../lib/errors.js';
import type { Lockout } from './limits.js';
import { recordMemberFailure } from '../audit/member-failures.js';

/**
 * A sign-in lock that started, on record for the administrators (who was guessed at, from where, how often): in the
 * log of each of the person's companies, or the platform's. Wrong second-factor codes count as wrong passwords
 * (second-factor.ts), and their locks are recorded here too.
 */
export function recordLockout(db: Db, userId: number, address: string, lockout: Lockout) {
  const details = {
    scope: lockout.scope,
    address,
    failures: lockout.failures,
    lockedSeconds: Math.ceil(lockout.lockMs / 1000),
  };
  return recordMemberFailure(db, userId, 'auth.lockout', details, true);
}

/**
 * A refused sign-in step (a wrong password, a wrong second-factor code): 401 with `code`, plus when to retry once a
 * sign-in lock started, so a locked address gets the same answer whatever it sends.
 */
export function refusedSignIn(message: string, code: string, lockedMs: number): HttpError {
  return lockedMs > 0 ? retryLater(401, message, code, lockedMs) : new HttpError(401, message, code);
}
