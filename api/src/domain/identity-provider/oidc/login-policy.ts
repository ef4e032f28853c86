// When the provider asks the person to sign in: the library's policy, with the portal's checks.
import { errors, interactionPolicy, type KoaContextWithOIDC } from 'oidc-provider';
import type { Db } from '../../../db/client.js';
import { subjectOfAccount } from './account-lookup.js';
import { acrValues, essentialAcrAsked, secondFactorAsked } from '../authentication-methods.js';
import { currentRequestAddress } from '../../../lib/request-scope.js';
import { companyRuleBroken, wayOfSession } from '../../sign-in-limits/company-rules.js';
import { type LinkedPortalSession, linkedPortalSession } from '../portal-sessions.js';
import type { ProviderMemory } from '../provider-memory.js';

/**
 * The library's base policy, where an app's id_token_hint and a `sub` value it names in `claims` are compared with the
 * client's subject of the person (not the accountId), a provider session whose portal session is over asks for a
 * sign-in again, and the `claims` parameter (docs/decisions/0149-step-up-at-every-door.md) asks nothing the portal's
 * own checks do not: its `acr` is step-up, and the claims it names are released only as the scopes allow.
 */
export function loginPolicy(db: Db, memory: ProviderMemory): interactionPolicy.DefaultPolicy {
  const policy = interactionPolicy.base();
  /** Whether `sub` is not this client's subject of the signed-in person. */
  const otherSubject = async (ctx: KoaContextWithOIDC, sub: unknown) => {
    const { session, client } = ctx.oidc;
    if (!session?.accountId || !client) return true;
    return sub !== (await subjectOfAccount(db, memory, client, session.accountId));
  };
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
        return otherSubject(ctx, hint.payload?.sub);
      },
    ),
    hintIndex === -1 ? undefined : hintIndex,
  );
  // A `sub` value in `claims` the same way; once the person answered and is still someone else, the app is told
  // login_required (OpenID Connect Core §5.5.1: never a token for a different person) instead of asking again.
  const subIndex = loginChecks?.findIndex((check) => check.reason === 'claims_id_token_sub_value') ?? -1;
  loginChecks?.remove('claims_id_token_sub_value');
  loginChecks?.add(
    new interactionPolicy.Check(
      'claims_id_token_sub_value',
      'requested subject could not be obtained',
      'login_required',
      async (ctx) => {
        const sub = (ctx.oidc.claims as { id_token?: { sub?: { value?: unknown } } }).id_token?.sub;
        if (!sub || !('value' in sub) || !(await otherSubject(ctx, sub.value))) return false;
        if (ctx.oidc.result?.login) throw new errors.LoginRequired('requested subject could not be obtained');
        return true;
      },
    ),
    subIndex === -1 ? undefined : subIndex,
  );
  // An essential `acr` is the portal's step-up below (second_factor_asked): the library's own checks, which want the
  // session's acr to be one of those named, would ask again and again of a session whose level is above the one named
  // (levels are ordered), and forever of a value the portal never gives, which is refused to the app at once.
  loginChecks?.remove('essential_acrs');
  loginChecks?.remove('essential_acr');
  loginChecks?.add(
    new interactionPolicy.Check(
      'essential_acr',
      'none of the requested ACRs could be obtained',
      'unmet_authentication_requirements',
      (ctx) => {
        const asked = essentialAcrAsked(ctx.oidc.params ?? {});
        if (asked.length > 0 && !asked.some((value) => (acrValues as readonly string[]).includes(value)))
          throw new errors.UnmetAuthenticationRequirements('none of the requested ACRs could be obtained');
        return false;
      },
    ),
  );
  // The claims an app names in `claims` never ask for a consent of their own: only what the scopes allow is released
  // (the library drops any other claim not in the grant), so the scopes' consent is all there is to give.
  policy.get('consent')?.checks.remove('op_claims_missing');
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
  // Step-up (docs/decisions/0137-step-up.md): an app asking for `urn:portal:acr:2` in `acr_values` or the `acr` of
  // `claims` meets the portal's screens when the provider session proved no second factor: the continuation asks the
  // person for one there.
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
