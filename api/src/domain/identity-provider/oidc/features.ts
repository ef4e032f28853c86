// Which of the library's features the provider offers, and how.
import type { Configuration } from 'oidc-provider';
import type { Db } from '../../../db/client.js';
import { deviceFlowFeature } from './device-flow.js';
import { rpInitiatedLogout } from './logouts.js';
import type { ProviderMemory } from '../provider-memory.js';

export function features(db: Db, memory: ProviderMemory, portalUrl: string): NonNullable<Configuration['features']> {
  return {
    devInteractions: { enabled: false },
    userinfo: { enabled: true },
    // A client revokes its own tokens (a public one too, to log out: RFC 7009 §2.1), never another's, and the answer
    // to a stranger's token is the same 200 as to an unknown one (docs/decisions/0055).
    revocation: {
      enabled: true,
      allowedPolicy: async (_ctx, client, token) => 'clientId' in token && token.clientId === client.clientId,
    },
    introspection: {
      enabled: true,
      // Only a confidential client, and only about its own tokens: another client's token answers inactive.
      allowedPolicy: async (_ctx, client, token) =>
        client.clientAuthMethod !== 'none' && 'clientId' in token && token.clientId === client.clientId,
    },
    rpInitiatedLogout: rpInitiatedLogout(db, memory, portalUrl),
    backchannelLogout: { enabled: true },
    // `claims` (docs/decisions/0149-step-up-at-every-door.md): its `acr` asks for step-up as `acr_values` does; the
    // claims it names are released only as the scopes allow (login-policy.ts).
    claimsParameter: { enabled: true },
    registration: { enabled: false },
    // Sign-in on devices (docs/decisions/0086): the person answers at the portal's /dispositivo.
    deviceFlow: deviceFlowFeature(portalUrl),
    pushedAuthorizationRequests: { enabled: false },
  };
}
