// Userinfo answered from the session memory (docs/decisions/0055): when everything a GET /oidc/me needs is kept in
// this instance's memory and trusted (the access token, its grant, its client, the account and its plan), the answer
// is built here, with the library's own claims filtering, instead of going through oidc-provider's pipeline, whose
// cost dwarfs the lookups. A token bound to the provider session is answered too while that session is kept
// (kept-token.ts). Anything else (a token not kept, expired, bound to a key, for a resource, without openid; a client
// whose answers are signed or whose subjects are pairwise; an origin the client does not have) answers undefined, and
// the library answers the request untouched. A token with the scope `roles` is answered while the person's roles in the
// client's app are kept too (account-lookup.ts: a role given or taken drops them, as a plan change drops the plan).
import type Provider from 'oidc-provider';
import type { AdapterPayload, Client, Grant } from 'oidc-provider';
import type { User } from '../../../db/schema.js';
import { accountClaims, type EntitlementClaims, userIdOf } from '../claims.js';
import { type KeptToken, keptToken, tokenStillKept } from './kept-token.js';
import type { ProviderMemory } from '../provider-memory.js';
import { entitlementKey, entitlementsStand, type KeptRoles, rolesKey, rolesStand } from './account-lookup.js';
import { clientAllowsOrigin, portalFacts } from '../client-facts.js';
import { subjectFor } from '../subjects.js';

export interface UserinfoAnswer {
  body: string;
  headers: Readonly<Record<string, string>>;
}

/** The answer for a bearer token (and the request's Origin), or undefined when the library must answer. */
export type KeptUserinfo = (
  token: string,
  origin: string | undefined,
) => UserinfoAnswer | undefined | Promise<UserinfoAnswer | undefined>;

/**
 * What the library's userinfo and introspection answers carry besides the API's own headers (their `noCache`, JSON
 * body and CORS).
 */
const fixedHeaders = {
  'content-type': 'application/json; charset=utf-8',
  'cache-control': 'no-store',
  vary: 'Origin',
  'access-control-expose-headers': 'WWW-Authenticate',
} as const;
/** The library's CORS for a request without Origin (a server's): any origin. */
export const anyOriginHeaders = Object.freeze({ ...fixedHeaders, 'access-control-allow-origin': '*' });

/** The kept values an answer is made from, each as the memory hands it out. */
interface Kept extends KeptToken {
  metadata: AdapterPayload;
  user: User;
  plan: EntitlementClaims;
  /** The roles in the client's app, for a token with the scope `roles` (`[]` for a client tied to no app). */
  roles?: { kept: KeptRoles | undefined; key: string | undefined; value: string[] };
  /** Where they are kept. */
  userId: number;
  planKey: string;
}

/** An answer made from kept values, reused while the memory hands out the very same values. */
interface Made {
  kept: Kept;
  client: Client;
  body: string;
}

/** The values the answer is made from, each kept in memory and trusted now; undefined when one is not. */
function keptValues(memory: ProviderMemory, tokenId: string): Kept | undefined {
  const token = keptToken(memory, tokenId);
  if (!token || !String(token.token.scope).split(' ').includes('openid')) return undefined;
  const client = memory.client(token.clientId);
  const metadata = client.found ? (client.value as AdapterPayload | undefined) : undefined;
  const userId = userIdOf(token.accountId);
  if (!metadata || userId === undefined) return undefined;
  const user = memory.get(userId, 'oidc:account') as User | undefined;
  if (user?.status !== 'active') return undefined;
  const appId = metadata.portal_app_id;
  const planKey = entitlementKey(typeof appId === 'number' ? appId : null);
  const plan = memory.get(userId, planKey) as Kept['plan'] | undefined;
  if (!plan || !entitlementsStand(plan)) return undefined;
  if (!String(token.token.scope).split(' ').includes('roles'))
    return { ...token, metadata, user, plan, userId, planKey };
  if (typeof appId !== 'number')
    return { ...token, metadata, user, plan, userId, planKey, roles: { kept: undefined, key: undefined, value: [] } };
  const key = rolesKey(appId);
  const roles = memory.get(userId, key) as KeptRoles | undefined;
  if (!roles || !rolesStand(roles, plan.plan != null)) return undefined;
  return { ...token, metadata, user, plan, userId, planKey, roles: { kept: roles, key, value: roles.roles } };
}

/**
 * Whether an answer made before still stands: its token still kept and standing (kept-token.ts), and the memory still
 * handing out the very same client, account and plan (any change to them replaces or drops what it keeps).
 */
function stillKept(memory: ProviderMemory, { kept }: Made): boolean {
  return (
    tokenStillKept(memory, kept) &&
    memory.client(kept.clientId).value === kept.metadata &&
    memory.get(kept.userId, 'oidc:account') === kept.user &&
    memory.get(kept.userId, kept.planKey) === kept.plan &&
    entitlementsStand(kept.plan) &&
    (kept.roles?.key === undefined ||
      (memory.get(kept.userId, kept.roles.key) === kept.roles.kept &&
        rolesStand(kept.roles.kept as KeptRoles, kept.plan.plan != null)))
  );
}

export function createKeptUserinfo(provider: Provider, memory: ProviderMemory): KeptUserinfo {
  const answers = new WeakMap<AdapterPayload, Made>();

  /**
   * The body as the library's userinfo action makes it (actions/userinfo.js, `respond`): the grant's scopes among the
   * token's, the account's claims with its `sub`, masked by the library's Claims. The grant and client come through
   * the library's own models (their lookups answer from the same memory).
   */
  async function make(kept: Kept): Promise<Made | undefined> {
    const [grant, client] = await Promise.all([
      provider.Grant.find(kept.grantId, { ignoreExpiration: true }) as Promise<Grant | undefined>,
      provider.Client.find(kept.clientId),
    ]);
    if (!grant || !client) return undefined;
    if (client.subjectType === 'pairwise' || client.userinfoSignedResponseAlg || client.userinfoEncryptedResponseAlg)
      return undefined;
    const { appId, subject } = portalFacts(client);
    if (appId !== (typeof kept.metadata.portal_app_id === 'number' ? kept.metadata.portal_app_id : null))
      return undefined;
    const scope = grant.getOIDCScopeFiltered(new Set(String(kept.token.scope).split(' ')));
    const rejected = grant.getRejectedOIDCClaims();
    const claims = new provider.Claims(
      accountClaims(
        kept.user,
        subjectFor(subject, kept.user),
        appId === null ? undefined : kept.plan.plan,
        kept.plan.organization,
        kept.plan.lapsedPlan,
        kept.roles?.value,
      ),
      { client },
    );
    claims.scope(scope);
    claims.mask({});
    claims.rejected(rejected);
    const made: Made = { kept, client, body: JSON.stringify(await claims.result()) };
    // Anything the memory changed meanwhile (the lookups above may then have read the database): the library answers.
    if (!stillKept(memory, made)) return undefined;
    answers.set(kept.token, made);
    return made;
  }

  /** The library's CORS for userinfo: any origin without an Origin header, else only the client's own. */
  function answer(made: Made, origin: string | undefined): UserinfoAnswer | undefined {
    if (origin === undefined) return { body: made.body, headers: anyOriginHeaders };
    if (!clientAllowsOrigin(origin, made.client)) return undefined;
    return { body: made.body, headers: { ...fixedHeaders, 'access-control-allow-origin': origin } };
  }

  return (value, origin) => {
    const token = memory.payload('AccessToken', value) as AdapterPayload | undefined;
    if (!token) return undefined;
    const made = answers.get(token);
    if (made && stillKept(memory, made)) return answer(made, origin);
    const kept = keptValues(memory, value);
    if (!kept) return undefined;
    // Whatever fails while making it (a lookup that went to a database now failing), the library answers as it would.
    return make(kept).then(
      (fresh) => (fresh ? answer(fresh, origin) : undefined),
      () => undefined,
    );
  };
}
