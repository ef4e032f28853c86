// When the provider asks the person to sign in: the library's policy, with two of the portal's checks.
import { interactionPolicy } from 'oidc-provider';
import type { Db } from '../../db/client.js';
import { subjectOfAccount } from './account-lookup.js';
import { portalSessionAlive } from './portal-sessions.js';
import type { ProviderMemory } from './provider-memory.js';

/**
 * The library's base policy, where an app's id_token_hint is compared with the client's subject of the person (not
 * the accountId), and a provider session whose portal session is over asks for a sign-in again.
 */
export function loginPolicy(db: Db, memory: ProviderMemory): interactionPolicy.DefaultPolicy {
  const policy = interactionPolicy.base();
  // An app's id_token_hint names the person by the `sub` it was given, which is the account id only for 'numerico'
  // clients: the library's own check compares it with the accountId. Same place, same answer, the client's subject.
  const loginChecks = policy.get('login')?.checks;
  const hintIndex = loginChecks?.findIndex((check) => check.reason === 'id_token_hint') ?? -1;
  loginChecks?.remove('id_token_hint');
  loginChecks?.add(
    new interactionPolicy.Check(
      'id_token_hint',
      'id_token_hint and authenticated subject do not match',
      'login_required',
      async (ctx) => {
        const hint = ctx.oidc.entities.IdTokenHint as { payload?: { sub?: unknown } } | undefined;
        if (hint === undefined) return false;
        const { session, client } = ctx.oidc;
        if (!session?.accountId || !client) return true;
        return hint.payload?.sub !== (await subjectOfAccount(db, memory, client, session.accountId));
      },
    ),
    hintIndex === -1 ? undefined : hintIndex,
  );
  // One session: a provider session whose portal session is over asks for a sign-in again, even if its cookie lives.
  policy.get('login')?.checks.add(
    new interactionPolicy.Check(
      'portal_session_ended',
      'the portal session this provider session was signed in with is over',
      'login_required',
      async (ctx) => {
        const { session } = ctx.oidc;
        if (!session?.accountId || ctx.oidc.result?.login) return false;
        return !(await portalSessionAlive(db, session.uid, session.accountId));
      },
    ),
  );
  return policy;
}
