// An access token as the library would accept it, judged from the session memory alone (docs/decisions/0084): the
// token, its grant and, for a token bound to the provider session (`expiresWithSession`, the kind a single-page app
// gets without offline_access), that session, each kept in memory and trusted. The checks are the library's own
// (models/token_helpers.js `checkSessionBinding`, shared/access_token.js `loadAccessTokenGrant`, actions/introspection.js);
// what they cannot vouch for answers undefined, and the library answers the request.
import type { AdapterPayload } from 'oidc-provider';
import type { ProviderMemory } from '../provider-memory.js';

/**
 * The access token's fields these answers understand; a token carrying any other (a sender constraint such as `jkt`
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

/** The kept values a token stands on, each as the memory hands it out. */
export interface KeptToken {
  token: AdapterPayload;
  grant: AdapterPayload;
  /** The provider session a session-bound token depends on (by its uid), else undefined. */
  session: AdapterPayload | undefined;
  tokenId: string;
  grantId: string;
  clientId: string;
  accountId: string;
}

export const epochSeconds = () => Math.floor(Date.now() / 1000);

/** A token of the library's kind, unexpired, with nothing in it these answers do not understand. */
function usableToken(token: AdapterPayload, now: number): boolean {
  if (token.kind !== 'AccessToken' || typeof token.exp !== 'number' || token.exp <= now) return false;
  if (typeof token.iat !== 'number' || typeof token.scope !== 'string') return false;
  if (token.expiresWithSession !== undefined && token.expiresWithSession !== true) return false;
  if (token.expiresWithSession && typeof token.sessionUid !== 'string') return false;
  if (token.extra !== undefined && (typeof token.extra !== 'object' || Object.keys(token.extra).length > 0))
    return false;
  for (const field of Object.keys(token)) if (!understood.has(field)) return false;
  return true;
}

/**
 * The library's session binding: the provider session found by uid (unexpired), of the same account, and holding the
 * token's grant for its client. A session-bound token whose session is not kept is the library's (its lookup then
 * keeps the session for the next calls).
 */
function sessionHolds(session: AdapterPayload | undefined, token: AdapterPayload, now: number): boolean {
  if (!session || typeof session.exp !== 'number' || session.exp <= now) return false;
  if (session.accountId !== token.accountId) return false;
  const authorizations = session.authorizations as Record<string, { grantId?: unknown }> | undefined;
  const clientId = String(token.clientId);
  return Object.hasOwn(authorizations ?? {}, clientId) && authorizations?.[clientId]?.grantId === token.grantId;
}

/** The access token kept under `tokenId` and what it stands on, all kept and trusted now; undefined when one is not. */
export function keptToken(memory: ProviderMemory, tokenId: string): KeptToken | undefined {
  const token = memory.payload('AccessToken', tokenId) as AdapterPayload | undefined;
  const now = epochSeconds();
  if (!token || !usableToken(token, now)) return undefined;
  const { grantId, clientId, accountId } = token;
  if (typeof grantId !== 'string' || typeof clientId !== 'string' || typeof accountId !== 'string') return undefined;
  const grant = memory.payload('Grant', grantId) as AdapterPayload | undefined;
  // The library's own checks of the grant (it ignores the grant's expiry on lookup and then refuses an expired one).
  if (!grant || typeof grant.exp !== 'number' || grant.exp <= now) return undefined;
  if (grant.clientId !== clientId || grant.accountId !== accountId) return undefined;
  let session: AdapterPayload | undefined;
  if (token.expiresWithSession) {
    session = memory.payload('Session', String(token.sessionUid)) as AdapterPayload | undefined;
    if (!sessionHolds(session, token, now)) return undefined;
  }
  return { token, grant, session, tokenId, grantId, clientId, accountId };
}

/**
 * Whether a token judged before still stands: unexpired, and the memory still handing out the very same token, grant
 * and session (any change to them, here or on another instance, replaces or drops what it keeps).
 */
export function tokenStillKept(memory: ProviderMemory, kept: KeptToken, now = epochSeconds()): boolean {
  return (
    (kept.token.exp as number) > now &&
    (kept.grant.exp as number) > now &&
    memory.payload('AccessToken', kept.tokenId) === kept.token &&
    memory.payload('Grant', kept.grantId) === kept.grant &&
    (kept.session === undefined ||
      ((kept.session.exp as number) > now && memory.payload('Session', String(kept.token.sessionUid)) === kept.session))
  );
}
