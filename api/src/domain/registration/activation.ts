import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import { giveFreePlans } from '../accounts/plans.js';
import { markActive } from '../accounts/status.js';
import { joinByEmailDomain } from '../companies/domains.js';
import type { Mailer } from '../mail/mailer.js';
import { accountActivatedMail } from '../mail/templates.js';
import { dropRegistrations } from './pending-registrations.js';

// An account becomes active: by its emailed code, an administrator, an invitation's code, Google or Apple, its company's
// SSO or directory. Every way does the same, in the caller's transaction and in this order: the account (accounts/),
// its pending registrations, its free plans, then the company of its email domain (companies/domains.ts).

/**
 * Activates a pending account and gives it the free plan of every app (the plans it already has stay). Answers the
 * account's email, or undefined when the account is not pending, and then changes nothing. The account comes out with no password and every
 * pending registration is dropped: none of their passwords was proven to belong to the mailbox's owner (the code
 * route then sets the one registration the browser proved).
 */
export async function activateUser(tx: Db, userId: number): Promise<string | undefined> {
  const email = await markActive(tx, userId);
  if (email === undefined) return undefined;
  await dropRegistrations(tx, userId);
  await giveFreePlans(tx, userId);
  await joinByEmailDomain(tx, userId, email);
  return email;
}

/** What an administrator's activation uses beside the transaction (the app passes itself). */
export interface ActivationMail {
  mailer: Pick<Mailer, 'enqueue'>;
  config: Pick<Config, 'portalUrl'>;
}

/**
 * An administrator activates pending account `id` (the panel's 'Verificar', or the status set by hand): as the emailed
 * code does, and the person is mailed 'Tu cuenta está activa' with the way to choose a password, since an account
 * activated without its code has none (docs/decisions/0006). The mail is queued in `tx`, so it leaves only if the
 * activation is kept; the caller wakes the mailer after the commit. False, and nothing sent, for an account not pending.
 */
export async function activateByAdministrator(deps: ActivationMail, tx: Db, id: number): Promise<boolean> {
  const email = await activateUser(tx, id);
  if (email === undefined) return false;
  const mail = accountActivatedMail({ email, portalUrl: deps.config.portalUrl });
  await deps.mailer.enqueue(tx, { to: email, ...mail });
  return true;
}

/**
 * The panel's 'Verificar': activates those of `ids` that are pending (each mailed how to choose its password,
 * `activateByAdministrator`) and answers the ids it activated; the others are left as they are.
 */
export async function verifyPendingUsers(deps: ActivationMail, tx: Db, ids: number[]): Promise<number[]> {
  const activated: number[] = [];
  for (const id of [...ids].sort((a, b) => a - b)) {
    if (await activateByAdministrator(deps, tx, id)) activated.push(id);
  }
  return activated;
}
