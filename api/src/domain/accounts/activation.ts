import { eq } from 'drizzle-orm';
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import { users } from '../../db/schema.js';
import type { Mailer } from '../mail/mailer.js';
import { accountActivatedMail } from '../mail/templates.js';
import { activateUser } from './queries.js';

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
  if (!(await activateUser(tx, id))) return false;
  const [account] = await tx.select({ email: users.email }).from(users).where(eq(users.id, id));
  if (account) {
    const mail = accountActivatedMail({ email: account.email, portalUrl: deps.config.portalUrl });
    await deps.mailer.enqueue(tx, { to: account.email, ...mail });
  }
  return true;
}
