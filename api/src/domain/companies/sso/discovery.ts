// The OpenID Connect client of a company's provider: discovery read with a 5 s deadline (before a connection is saved,
// and at a sign-in), the client secret sent as the provider says it takes it (HTTP Basic unless it only lists POST).
// Every request to the provider (discovery, the token exchange) goes through the outbound guard: a connection that
// lands on a loopback, private or reserved address is cut unless COMPANY_PROVIDER_PRIVATE_NETWORK=true.
import * as client from 'openid-client';
import { outboundFetch, refusedSpecialUse } from '../../../lib/outbound/special-use.js';

/** How long discovery and the token exchange may take (seconds). */
export const idpTimeoutSeconds = 5;

/** http:// only for loopback hosts, as config.ts allows for GOOGLE_ISSUER. */
export function issuerAllowed(raw: string): boolean {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return false;
  }
  if (url.username || url.password || url.search || url.hash) return false;
  const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
  return url.protocol === 'https:' || (url.protocol === 'http:' && loopback);
}

/** Where discovery is read: the issuer's `/.well-known/openid-configuration` (OpenID Connect Discovery 1.0 §4). */
export function discoveryUrl(issuer: string): string {
  return `${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`;
}

/**
 * Why a request to the provider failed at the network (no connection, a TLS failure, no answer in time): one sentence
 * whatever the cause, so that the answers to an issuer someone typed never tell one internal port from another.
 */
export const networkFailure = `no se pudo conectar con esa dirección o no respondió en ${idpTimeoutSeconds} s`;

/** A short reason for a discovery or token failure, in Spanish, without anything the provider sent back verbatim. */
export function failureReason(error: unknown): string {
  if (refusedSpecialUse(error)) return 'su dirección lleva a una red privada o reservada';
  if (error instanceof client.ResponseBodyError) return `respondió ${error.status} ${error.error}`.slice(0, 200);
  if (error instanceof client.WWWAuthenticateChallengeError) {
    const code = error.cause[0]?.parameters.error;
    return `respondió ${error.status}${code ? ` ${code}` : ''}`.slice(0, 200);
  }
  const name = (error as { name?: string })?.name;
  if (name === 'TimeoutError' || name === 'AbortError' || error instanceof TypeError) return networkFailure;
  if ((error as { cause?: { code?: string } })?.cause?.code) return networkFailure;
  if (error instanceof client.ClientError) return `respuesta no válida: ${error.code ?? error.message}`.slice(0, 200);
  return 'respuesta no válida';
}

/** Whether a discovery or token failure is the guard refusing the provider's address (a private or reserved network). */
export const privateNetworkRefused = refusedSpecialUse;

/**
 * Discovery of `issuer` and a client for it with `clientId` and `clientSecret`; throws as openid-client does. The
 * discovery and every later request of the client go through the outbound guard unless `privateNetwork` lifts it.
 */
export async function discoverIdp(
  issuer: string,
  clientId: string,
  clientSecret: string,
  privateNetwork: boolean,
): Promise<client.Configuration> {
  const insecure = issuer.startsWith('http://');
  const fetch = outboundFetch(privateNetwork) as client.CustomFetch;
  const discovered = await client.discovery(new URL(issuer), clientId, undefined, undefined, {
    execute: insecure ? [client.allowInsecureRequests] : [],
    timeout: idpTimeoutSeconds,
    [client.customFetch]: fetch,
  });
  const server = discovered.serverMetadata();
  const methods = server.token_endpoint_auth_methods_supported;
  const post =
    Array.isArray(methods) && !methods.includes('client_secret_basic') && methods.includes('client_secret_post');
  const configuration = new client.Configuration(
    server,
    clientId,
    { client_secret: clientSecret },
    post ? client.ClientSecretPost(clientSecret) : client.ClientSecretBasic(clientSecret),
  );
  if (insecure) client.allowInsecureRequests(configuration);
  configuration.timeout = idpTimeoutSeconds;
  configuration[client.customFetch] = fetch;
  return configuration;
}
