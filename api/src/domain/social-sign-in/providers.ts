import * as client from 'openid-client';
import type { AppleConfig, Config, GoogleConfig } from '../../config.js';
import type { IdentityProvider } from '../../db/schema.js';
import { appleClientSecret } from '../../lib/oauth/apple-client-secret.js';

/** Everything the routes need to run one provider's authorization-code flow. */
export interface OidcProvider {
  name: IdentityProvider;
  /** Where the provider sends its answer: a GET with the query (Google) or a form POST (Apple). */
  responseMode: 'query' | 'form_post';
  scope: string;
  /** The client for one sign-in: discovery is read once and kept; Apple's secret is made anew each time. */
  configuration(): Promise<client.Configuration>;
}

/** http:// issuers are only accepted on loopback (config.ts), where the test identity providers run. */
function allowHttpIssuer(configuration: client.Configuration, issuer: string): void {
  if (issuer.startsWith('http://')) client.allowInsecureRequests(configuration);
}

const requestTimeoutSeconds = 10;

/** Discovery once per process; a failed one is tried again at the next sign-in instead of being kept. */
function discoveryOnce(issuer: string, clientId: string, clientSecret: string | undefined) {
  let discovered: Promise<client.Configuration> | undefined;
  return () => {
    discovered ??= client
      .discovery(new URL(issuer), clientId, clientSecret, undefined, {
        execute: issuer.startsWith('http://') ? [client.allowInsecureRequests] : [],
        timeout: requestTimeoutSeconds,
      })
      .catch((error: unknown) => {
        discovered = undefined;
        throw error;
      });
    return discovered;
  };
}

function google(config: GoogleConfig): OidcProvider {
  const discover = discoveryOnce(config.issuer, config.clientId, config.clientSecret);
  return {
    name: 'google',
    responseMode: 'query',
    scope: 'openid email profile',
    configuration: discover,
  };
}

function apple(config: AppleConfig): OidcProvider {
  const discover = discoveryOnce(config.issuer, config.clientId, undefined);
  return {
    name: 'apple',
    // Apple sends the name and email only with response_mode=form_post.
    responseMode: 'form_post',
    scope: 'openid email name',
    async configuration() {
      const server = (await discover()).serverMetadata();
      const configuration = new client.Configuration(
        server,
        config.clientId,
        undefined,
        client.ClientSecretPost(await appleClientSecret(config)),
      );
      allowHttpIssuer(configuration, config.issuer);
      configuration.timeout = requestTimeoutSeconds;
      return configuration;
    },
  };
}

/** The providers this deployment has configured, by name. */
export function configuredProviders(config: Config): Partial<Record<IdentityProvider, OidcProvider>> {
  return {
    ...(config.google && { google: google(config.google) }),
    ...(config.apple && { apple: apple(config.apple) }),
  };
}
