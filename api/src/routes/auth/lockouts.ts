import type { Db } from '../../db/client.js';
import type { Lockout } from '../../plugins/app/limits.js';
import { recordAudit, systemActor } from '../admin/audit.js';

/**
 * A sign-in lock that started, on record for the administrators (who was guessed at, from where, how often). Wrong
 * second-factor codes count as wrong passwords (second-factor.ts), and their locks are recorded here too.
 */
export function recordLockout(db: Db, userId: number, address: string, lockout: Lockout) {
  return recordAudit(db, systemActor, [
    {
      action: 'auth.lockout',
      target: { type: 'user', id: userId },
      details: {
        scope: lockout.scope,
        address,
        failures: lockout.failures,
        lockedSeconds: Math.ceil(lockout.lockMs / 1000),
      },
    },
  ]);
}
