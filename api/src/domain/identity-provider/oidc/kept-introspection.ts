// Introspection answered from the session memory (docs/decisions/0084): a resource server that asks about an access
// token on every request gets, when the client and the token (with its grant and, for a session-bound token, its
// provider session) are kept in this instance's memory and trusted, the very body oidc-provider's introspection action
// makes (actions/introspection.js, `renderTokenResponse`), without its pipeline. The client authenticates with
// client_secret_basic, as resource servers do (the secret compared with its stored hash in constant time); only a
// confidential client, and only about its own tokens (the provider's `allowedPolicy`). Anything else (a wrong secret,
// a secret in the form, a token not kept, a refresh token, a parameter or header this answer does not understand)
// answers undefined, and the library answers the request untouched, refusals included.
import { parse } from 'node:querystring';
import type Provider from 'oidc-provider';
import type { AdapterPayload } from 'oidc-provider';
import type { User } from '../../../db/schema.js';
import { userIdOf } from '../claims.js';
import { clientSecretMatches } from './clients.js';
import { type KeptToken, keptToken, tokenStillKept } from './kept-token.js';
import { anyOriginHeaders } from './kept-userinfo.js';
import type { ProviderMemory } from '../provider-memory.js';
import { subjectRuleOf } from '../client-facts.js';
import { subjectFor } from '../subjects.js';

export interface IntrospectionAnswer {
  body: string;
  headers: Readonly<Record<string, string>>;
}

/** The request as the route hands it over: its Authorization header and its form body, read as a string. */
export type KeptIntrospection = (authorization: string | undefined, body: string) => IntrospectionAnswer | undefined;

/** Asked without Origin (the route leaves a browser's request to the library): the library's CORS, any origin. */
const headers = anyOriginHeaders;

/** The parameters the library reads here (besides client assertions, which this answer leaves to it). */
const understood = new Set(['token', 'token_type_hint', 'client_id', 'client_secret']);

/**
 * A client id or secret as the portal issues them (base64url): the library's form-decoding of the Basic header leaves
 * such a value as it is, so both read the same client. Anything else is the library's to decode or refuse.
 */
const plain = /^[A-Za-z0-9_-]+$/;
const basicHeader = /^basic ([A-Za-z0-9+/]+={0,2})$/i;

interface Credentials {
  clientId: string;
  secret: string;
}

/**
 * The client's credentials from a Basic header, as the library reads them, or undefined for anything it would read
 * otherwise or refuse. A secret in the form (client_secret_post) is the library's: whether it takes one at all is its
 * configuration's `clientAuthMethods`.
 */
function credentials(authorization: string | undefined, params: Record<string, string>): Credentials | undefined {
  const { client_id: bodyId, client_secret: bodySecret } = params;
  if (authorization === undefined || bodySecret !== undefined) return undefined;
  const encoded = basicHeader.exec(authorization)?.[1];
  if (!encoded || encoded.length % 4 !== 0) return undefined;
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon === -1) return undefined;
  const clientId = decoded.slice(0, colon);
  const secret = decoded.slice(colon + 1);
  if (!plain.test(clientId) || !plain.test(secret)) return undefined;
  // The library's own refusal of a body client_id that is not the header's.
  if (bodyId !== undefined && bodyId !== clientId) return undefined;
  return { clientId, secret };
}

/** The form's parameters, each once and each one this answer understands; undefined otherwise (the library's). */
function formParams(body: string): Record<string, string> | undefined {
  const parsed = parse(body);
  const params: Record<string, string> = {};
  for (const [name, value] of Object.entries(parsed)) {
    if (!understood.has(name) || typeof value !== 'string') return undefined;
    params[name] = value;
  }
  return params;
}

/**
 * An answer made from a kept token, reused while the memory hands out the very same values: the token's, and the
 * client's metadata and the account its `sub` is made of (a client switched to another kind of subject is new metadata).
 */
interface Made {
  kept: KeptToken;
  metadata: AdapterPayload;
  user: User;
  body: string;
}

export function createKeptIntrospection(provider: Provider, memory: ProviderMemory): KeptIntrospection {
  const answers = new WeakMap<AdapterPayload, Made>();
  const inactive: IntrospectionAnswer = Object.freeze({ body: JSON.stringify({ active: false }), headers });

  /** The library's body for an active token of the asking client, field for field and in its order. */
  function make(kept: KeptToken, value: string, metadata: AdapterPayload): Made | undefined {
    const userId = userIdOf(kept.accountId);
    if (userId === undefined) return undefined;
    // The `sub` is the client's own subject of the person (subjects.ts), made of the account kept in memory.
    const user = memory.get(userId, 'oidc:account') as User | undefined;
    if (!user) return undefined;
    const { token } = kept;
    // A token with the scope `roles` is the library's: its answer carries the roles read then (account-lookup.ts).
    if (
      String(token.scope ?? '')
        .split(' ')
        .includes('roles')
    )
      return undefined;
    const body: Record<string, unknown> = { active: false, sub: subjectFor(subjectRuleOf(metadata), user) };
    Object.assign(body, {
      active: true,
      client_id: token.clientId,
      exp: token.exp,
      iat: token.iat,
      sid: token.sid,
      iss: provider.issuer,
      jti: token.jti !== value ? token.jti : undefined,
      scope: token.scope || undefined,
      token_type: 'Bearer',
    });
    const made = { kept, metadata, user, body: JSON.stringify(body) };
    answers.set(token, made);
    return made;
  }

  return (authorization, body) => {
    const params = formParams(body);
    const value = params?.token;
    if (!params || !value) return undefined;
    const presented = credentials(authorization, params);
    if (!presented) return undefined;
    const client = memory.client(presented.clientId);
    const metadata = client.found ? (client.value as AdapterPayload | undefined) : undefined;
    // A confidential client of the portal's kind, with nothing that changes the answer (pairwise subjects, signed
    // introspection answers): the library's allowedPolicy lets only such a client introspect.
    if (metadata?.token_endpoint_auth_method !== 'client_secret_basic') return undefined;
    if (metadata.subject_type !== undefined && metadata.subject_type !== 'public') return undefined;
    if (metadata.introspection_signed_response_alg !== undefined) return undefined;
    if (metadata.introspection_encrypted_response_alg !== undefined) return undefined;
    const secret = typeof metadata.client_secret === 'string' ? metadata.client_secret : undefined;
    // A wrong secret is the library's to refuse (401 invalid_client, in the provider's Spanish shape).
    if (!clientSecretMatches(secret, presented.secret)) return undefined;

    const token = memory.payload('AccessToken', value) as AdapterPayload | undefined;
    if (!token) return undefined;
    const made = answers.get(token);
    const kept = made && tokenStillKept(memory, made.kept) ? made.kept : keptToken(memory, value);
    if (!kept) return undefined;
    // Another client's token: the same answer as an unknown one, whatever its state.
    if (kept.clientId !== presented.clientId) return inactive;
    const current =
      made?.kept === kept &&
      made.metadata === metadata &&
      made.user === memory.get(userIdOf(kept.accountId) ?? 0, 'oidc:account');
    const answer = current ? made : make(kept, value, metadata);
    return answer ? { body: answer.body, headers } : undefined;
  };
}
