// When the provider asks the person to sign in: the library's policy, with three of the portal's checks.
import { interactionPolicy, type KoaContextWithOIDC } from 'oidc-provider';
import type { Db } from '../../db/client.js';
import { subjectOfAccount } from './account-lookup.js';
import { acrValues, secondFactorAsked } from './authentication-methods.js';
import { currentRequestAddress } from '../../lib/request-scope.js';
import { companyRuleBroken, wayOfSession } from '../sign-in-limits/company-rules.js';
import { type LinkedPortalSession, linkedPortalSession } from './portal-sessions.js';
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
  // And one door: a live one whose sign-in the person's company rules refuse from where this request comes (or with
  // how it signed in) is never signed into an app silently: the interaction is where the continuation refuses it.
  const linked = new WeakMap<object, Promise<LinkedPortalSession | undefined>>();
  const linkedOf = (ctx: KoaContextWithOIDC, sessionUid: string, accountId: string) => {
    let found = linked.get(ctx);
    if (!found) {
      found = linkedPortalSession(db, sessionUid, accountId);
      linked.set(ctx, found);
    }
    return found;
  };
  policy.get('login')?.checks.add(
    new interactionPolicy.Check(
      'portal_session_ended',
      'the portal session this provider session was signed in with is over',
      'login_required',
      async (ctx) => {
        const { session } = ctx.oidc;
        if (!session?.accountId || ctx.oidc.result?.login) return false;
        return !(await linkedOf(ctx, session.uid, session.accountId))?.live;
      },
    ),
  );
  policy.get('login')?.checks.add(
    new interactionPolicy.Check(
      'company_rules',
      "a rule of the person's companies refuses this sign-in",
      'login_required',
      async (ctx) => {
        const { session } = ctx.oidc;
        if (!session?.accountId || ctx.oidc.result?.login) return false;
        const portal = await linkedOf(ctx, session.uid, session.accountId);
        if (!portal?.live) return false;
        const address = currentRequestAddress() ?? ctx.ip;
        return (await companyRuleBroken(db, portal.userId, wayOfSession(portal), address)) !== undefined;
      },
    ),
  );
  // Step-up (docs/decisions/0137-step-up.md): an app asking for `urn:portal:acr:2` in `acr_values` (a voluntary
  // claim the library leaves alone) meets the portal's screens when the provider session proved no second factor, as
  // the library's own check does for an essential `acr`: the continuation asks the person for one there.
  policy.get('login')?.checks.add(
    new interactionPolicy.Check(
      'second_factor_asked',
      'the app asks for a second factor this session did not prove',
      'login_required',
      (ctx) => {
        const { oidc } = ctx;
        if (!oidc.session?.accountId || oidc.result?.login) return false;
        return secondFactorAsked(oidc.params ?? {}) && oidc.acr !== acrValues[1];
      },
    ),
  );
  return policy;
}
