import type { Db } from '../../db/client.js';
import { type ActivationMail, activateByAdministrator } from '../registration/activation.js';

/**
 * The panel's 'Verificar': activates those of `ids` that are pending (each mailed how to choose its password,
 * registration/activation.ts) and answers the ids it activated; the others are left as they are.
 */
export async function verifyPendingUsers(deps: ActivationMail, tx: Db, ids: number[]): Promise<number[]> {
  const activated: number[] = [];
  for (const id of [...ids].sort((a, b) => a - b)) {
    if (await activateByAdministrator(deps, tx, id)) activated.push(id);
  }
  return activated;
}
