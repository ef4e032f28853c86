// Connecting or changing a company's own sign-in, as `PUT /empresas/:id/proveedor` and its setup link's page do it.
import type { KeyObject } from 'node:crypto';
import type { Db } from '../../../db/client.js';
import type { AuditActor } from '../../audit/log.js';
import type { CompanyAccess } from '../access.js';
import { type ConnectionInput, type SamlConnectionInput, saveConnection, saveSamlConnection } from './connections.js';
import { samlSpAddresses } from './saml-metadata.js';
import { connectionSecretKey } from './secret.js';

export interface ProviderSaveDeps {
  db: Db;
  /** The key that seals an OpenID Connect client secret (sso/secret.ts). */
  secretKey: Buffer;
  apiPublicUrl: string;
  /** Whether a provider may be at a private address (COMPANY_PROVIDER_PRIVATE_NETWORK). */
  privateNetwork: boolean;
}

/** The dependencies from the app's database, signing key and configuration. */
export const providerSaveDeps = (
  db: Db,
  signingKey: KeyObject,
  config: { apiPublicUrl: string; companyProviderPrivateNetwork: boolean },
): ProviderSaveDeps => ({
  db,
  secretKey: connectionSecretKey(signingKey),
  apiPublicUrl: config.apiPublicUrl,
  privateNetwork: config.companyProviderPrivateNetwork,
});

/** The address a company's OpenID Connect provider sends its people back to. */
export const companyRedirectUri = (apiPublicUrl: string) => `${apiPublicUrl}/auth/empresa/callback`;

export type ProviderInput = (ConnectionInput & { tipo?: 'oidc' }) | (SamlConnectionInput & { tipo: 'saml' });

/** Saves the provider by its `tipo` and answers what the provider registers next (its return or the SAML SP's). */
export async function saveProvider(
  deps: ProviderSaveDeps,
  actor: AuditActor,
  access: CompanyAccess,
  input: ProviderInput,
) {
  if (input.tipo === 'saml') {
    await saveSamlConnection(deps.db, actor, access, input, deps.privateNetwork);
    return samlSpAddresses(deps.apiPublicUrl, access.companyId);
  }
  await saveConnection(deps.db, deps.secretKey, actor, access, input, deps.privateNetwork);
  return { redirectUri: companyRedirectUri(deps.apiPublicUrl) };
}
