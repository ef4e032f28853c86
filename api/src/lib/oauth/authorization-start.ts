// The start of an authorization-code sign-in at another provider (Google, Apple, a company's own): fresh state, nonce
// and PKCE verifier kept in the sealed transaction, and the provider's address that carries their public halves.
import * as client from 'openid-client';
import type { SignInTransaction } from './transaction-cookie.js';

export interface AuthorizationStart {
  /** Who answers and where the person goes on afterwards (the parts of the transaction that are not fresh secrets). */
  transaction: Pick<SignInTransaction, 'provider' | 'companyId' | 'setupLinkId' | 'redirectUrl' | 'binding'>;
  redirectUri: string;
  scope: string;
  ttlMs: number;
  /** More parameters of the provider's address (`response_mode`, `login_hint`). */
  parameters?: Record<string, string>;
}

/** The transaction to seal in the cookie and the provider's address to send the browser to (PKCE S256). */
export async function startAuthorization(
  configuration: client.Configuration,
  start: AuthorizationStart,
): Promise<{ transaction: SignInTransaction; url: URL }> {
  const transaction: SignInTransaction = {
    ...start.transaction,
    state: client.randomState(),
    nonce: client.randomNonce(),
    codeVerifier: client.randomPKCECodeVerifier(),
    expiresAt: Date.now() + start.ttlMs,
  };
  const url = client.buildAuthorizationUrl(configuration, {
    redirect_uri: start.redirectUri,
    scope: start.scope,
    state: transaction.state,
    nonce: transaction.nonce,
    code_challenge: await client.calculatePKCECodeChallenge(transaction.codeVerifier),
    code_challenge_method: 'S256',
    ...start.parameters,
  });
  return { transaction, url };
}
