// Registering by a company's invitation: the invitation's code proves the mailbox, so the account is active at once and
// the invitation accepted in the same transaction (docs/decisions/0075-company-invitations.md).
import { and, eq } from 'drizzle-orm';
import { accountCodes, users } from '../../db/schema.js';
import {
  acceptInvitationIn,
  type InvitationDeps,
  invitationInvalid,
  matchInvitationCode,
} from '../companies/invitations.js';
import { companyMessages } from '../companies/messages.js';
import { wrongCodesLockedError } from '../sign-in-limits/limits.js';
import { activateUser } from './activation.js';
import type { RegistrationFields } from './pending-registrations.js';
import { emailInUse, pendingAccount } from './register.js';

/**
 * A registration proved by an invitation's code: the mail reached the address, so the account is active at once with
 * the password and profile typed (free plans and the other rules of a verified registration, `activateUser`), the
 * invitation accepted in the same transaction. A wrong code is a counted try and creates nothing; an active account
 * of the address is the registration's usual 409. Answers the account's id and the company joined.
 */
export async function registerByInvitation(
  deps: InvitationDeps,
  email: string,
  fields: RegistrationFields,
  code: string,
  origin: string,
) {
  // An address with an account answers the registration's usual 409 whatever the code, and spends no try of it.
  const [existing] = await deps.db.select({ status: users.status }).from(users).where(eq(users.email, email));
  if (existing && existing.status !== 'pending_verification') throw emailInUse();
  // The address's own wrong codes bound how many a guesser spread over many origins may try; spent, they close only
  // this way in: the invitee registers with a verification code and accepts the invitation signed in.
  const id = await matchInvitationCode(deps, email, code, [
    { key: `origen:${origin}` },
    {
      key: `direccion:${email}`,
      spent: (refused) =>
        wrongCodesLockedError(
          deps.clock() + (refused.retryAfter ?? 0) * 1000,
          deps.clock(),
          companyMessages.invitationCodeResting,
        ),
    },
  ]);
  if (id === undefined) throw invitationInvalid();
  return deps.db.transaction(async (tx) => {
    const { passwordHash, ...profile } = fields;
    // Creates the account, or takes the pending one of the address, as every registration does.
    const user = await pendingAccount(tx, email, profile);
    // The invitation first: the activation's join by email domain then finds the membership with the invited role.
    const joined = await acceptInvitationIn(deps, tx, { user: { id: user.id, email } }, id, email, code);
    if ((await activateUser(tx, user.id)) === undefined) throw invitationInvalid();
    await tx
      .update(users)
      .set({ passwordHash, ...profile })
      .where(eq(users.id, user.id));
    // A verification code mailed to an earlier registration has nothing left to prove.
    await tx
      .delete(accountCodes)
      .where(and(eq(accountCodes.userId, user.id), eq(accountCodes.purpose, 'verify_email')));
    return { userId: user.id, ...joined };
  });
}
