// Userinfo answered from the session memory (docs/decisions/0055): when everything a GET /oidc/me needs is kept in
// this instance's memory and trusted (the access token, its grant, its client, the account and its plan), the answer
// is built here, with the library's own claims filtering, instead of going through oidc-provider's pipeline, whose
// cost dwarfs the lookups. Anything else (a token not kept, expired, bound to a provider session or to a key, for a
// resource, without openid; a client whose answers are signed or whose subjects are the library's pairwise ones; an
// origin the client does not have) answers undefined, and the library answers the request untouched.
import type Provider from 'oidc-provider';
import type { AdapterPayload, Client, Grant } from 'oidc-provider';
import type { User } from '../../db/schema.js';
import { accountClaims, type EntitlementClaims, userIdOf } from './claims.js';
import type { ProviderMemory } from './provider-memory.js';
import { clientAllowsOrigin, entitlementKey, entitlementsStand, portalFacts } from './provider.js';
import { subjectFor } from './subjects.js';

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
 * The access token's fields this answer understands; a token carrying any other (a sender constraint such as `jkt`
 * or `x5t#S256`, an audience, requested claims, authorization details) is left to the library.
 */
const understood = new Set([
  'iat',
  'exp',
  'jti',
  'kind',
  'gty',
  'grantId',
  'accountId',
  'clientId',
  'scope',
  'sid',
  'sessionUid',
  'expiresWithSession',
  'extra',
]);

/** What the library's userinfo answer carries besides the API's own headers (its `noCache`, JSON body and CORS). */
const fixedHeaders = {
  'content-type': 'application/json; charset=utf-8',
  'cache-control': 'no-store',
  vary: 'Origin',
  'access-control-expose-headers': 'WWW-Authenticate',
} as const;
const anyOriginHeaders = Object.freeze({ ...fixedHeaders, 'access-control-allow-origin': '*' });

/** The kept values an answer is made from, each as the memory hands it out. */
interface Kept {
  token: AdapterPayload;
  grant: AdapterPayload;
  metadata: AdapterPayload;
  user: User;
  plan: EntitlementClaims;
  /** Where they are kept. */
  tokenId: string;
  grantId: string;
  clientId: string;
  userId: number;
  planKey: string;
}

/** An answer made from kept values, reused while the memory hands out the very same values. */
interface Made {
  kept: Kept;
  client: Client;
  body: string;
}

const epochSeconds = () => Math.floor(Date.now() / 1000);

/** A token the library would accept, with nothing in it this answer does not understand. */
function usableToken(token: AdapterPayload, now: number): boolean {
  if (token.kind !== 'AccessToken' || typeof token.exp !== 'number' || token.exp <= now) return false;
  if (typeof token.iat !== 'number' || typeof token.scope !== 'string') return false;
  // Bound to a provider session: the library reads that session (by uid, from the database) on every use.
  if (token.expiresWithSession) return false;
  for (const field of Object.keys(token)) if (!understood.has(field)) return false;
  return token.scope.split(' ').includes('openid');
}

/** The values the answer is made from, each kept in memory and trusted now; undefined when one is not. */
function keptValues(memory: ProviderMemory, tokenId: string, token: AdapterPayload): Kept | undefined {
  const now = epochSeconds();
  if (!usableToken(token, now) || typeof token.grantId !== 'string' || typeof token.clientId !== 'string')
    return undefined;
  const { grantId, clientId } = token;
  const grant = memory.payload('Grant', grantId) as AdapterPayload | undefined;
  // The library's own checks of the grant (it ignores the grant's expiry on lookup and then refuses an expired one).
  if (!grant || typeof grant.exp !== 'number' || grant.exp <= now) return undefined;
  if (grant.clientId !== clientId || grant.accountId !== token.accountId) return undefined;
  const client = memory.client(clientId);
  const metadata = client.found ? (client.value as AdapterPayload | undefined) : undefined;
  const userId = userIdOf(String(token.accountId));
  if (!metadata || userId === undefined) return undefined;
  const user = memory.get(userId, 'oidc:account') as User | undefined;
  if (user?.status !== 'active') return undefined;
  const appId = metadata.portal_app_id;
  const planKey = entitlementKey(typeof appId === 'number' ? appId : null);
  const plan = memory.get(userId, planKey) as Kept['plan'] | undefined;
  if (!plan || !entitlementsStand(plan)) return undefined;
  return { token, grant, metadata, user, plan, tokenId, grantId, clientId, userId, planKey };
}

/**
 * Whether an answer made before still stands: its token and grant unexpired, and the memory still handing out the
 * very same grant, client, account and plan (any change to them replaces or drops what it keeps).
 */
function stillKept(memory: ProviderMemory, { kept }: Made): boolean {
  const now = epochSeconds();
  return (
    (kept.token.exp as number) > now &&
    (kept.grant.exp as number) > now &&
    memory.payload('Grant', kept.grantId) === kept.grant &&
    memory.client(kept.clientId).value === kept.metadata &&
    memory.get(kept.userId, 'oidc:account') === kept.user &&
    memory.get(kept.userId, kept.planKey) === kept.plan &&
    entitlementsStand(kept.plan)
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
      ),
      { client },
    );
    claims.scope(scope);
    claims.mask({});
    claims.rejected(rejected);
    const made: Made = { kept, client, body: JSON.stringify(await claims.result()) };
    // Anything the memory changed meanwhile (the lookups above may then have read the database): the library answers.
    if (memory.payload('AccessToken', kept.tokenId) !== kept.token || !stillKept(memory, made)) return undefined;
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
    const kept = keptValues(memory, value, token);
    if (!kept) return undefined;
    // Whatever fails while making it (a lookup that went to a database now failing), the library answers as it would.
    return make(kept).then(
      (fresh) => (fresh ? answer(fresh, origin) : undefined),
      () => undefined,
    );
  };
}
