// What a client may be and use: the response type, how it authenticates (its secret stored as SHA-256, clients.ts),
// PKCE always, the signing algorithm, the portal's own metadata, and the browser origins that may call for it.
import type Provider from 'oidc-provider';
import { type Client, type Configuration, errors } from 'oidc-provider';
import { oidcSubjectKinds } from '../../../db/schema.js';
import { algorithm } from '../../tokens/keys.js';
import { clientAllowsOrigin } from '../client-facts.js';
import { clientSecretMatches, portalClientMetadata } from './clients.js';

/** The configuration's client part. */
export function clientSettings(): Configuration {
  return {
    responseTypes: ['code'],
    // What discovery advertises is what a client can use: a confidential client presents its secret in the header
    // (client_secret_basic, its registered method) or in the form (the library takes either for a secret), a public
    // one none (clients.ts); a JWT method has no key to check here and would always fail.
    clientAuthMethods: ['client_secret_basic', 'client_secret_post', 'none'],
    pkce: { required: () => true },
    allowOmittingSingleRegisteredRedirectUri: false,
    clientDefaults: {
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic',
      id_token_signed_response_alg: algorithm,
    },
    enabledJWA: {
      idTokenSigningAlgValues: [algorithm],
      userinfoSigningAlgValues: [algorithm],
      introspectionSigningAlgValues: [algorithm],
      authorizationSigningAlgValues: [algorithm],
    },
    extraClientMetadata: {
      properties: [...portalClientMetadata],
      validator(_ctx, key, value) {
        if (key === 'portal_first_party' && typeof value !== 'boolean') throw new errors.InvalidClientMetadata(key);
        if (key === 'portal_app_id' && value !== null && !Number.isInteger(value))
          throw new errors.InvalidClientMetadata(key);
        if (key === 'portal_subject' && !(oidcSubjectKinds as readonly unknown[]).includes(value))
          throw new errors.InvalidClientMetadata(key);
        if (key === 'portal_subject_salt' && value !== undefined && typeof value !== 'string')
          throw new errors.InvalidClientMetadata(key);
      },
    },
    clientBasedCORS: (_ctx, origin, client) => clientAllowsOrigin(origin, client),
  };
}

/** Secrets are stored as SHA-256 (clients.ts): the presented one is hashed before the comparison. */
export function hashedClientSecrets(provider: Provider): void {
  provider.Client.prototype.compareClientSecret = function compareClientSecret(this: Client, presented: string) {
    return clientSecretMatches(this.clientSecret, presented);
  };
}
