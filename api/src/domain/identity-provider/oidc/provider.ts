// The portal's OpenID Connect provider (docs/decisions/0055-openid-connect-provider.md): oidc-provider configured with
// the portal's storage, keys, accounts, screens and sessions. Nothing of the protocol is written here: each part of
// the configuration, and each of the portal's adjustments to the library, lives in a file of its own.
import Provider, { type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import { acrValues } from '../authentication-methods.js';
import type { Db } from '../../../db/client.js';
import type { SigningKey } from '../../tokens/keys.js';
import { accountFinder, clientSubjectClaims, clientSubjectIntrospection } from './account-lookup.js';
import { createAdapterFactory } from './adapter.js';
import { clientSettings, hashedClientSecrets } from './client-settings.js';
import { clientMetadata, findClient } from './clients.js';
import { grantLoader } from '../consents.js';
import { deviceAnswers } from './device-flow.js';
import { interactionPath, oidcRoutes } from './endpoints.js';
import { features } from './features.js';
import { addressedToIssuer } from './issuer-address.js';
import { ttlSettings } from './lifetimes.js';
import { loginPolicy } from './login-policy.js';
import { portalFormPostPages } from './logout-page.js';
import { queueBackchannelLogouts } from './logouts.js';
import { linkPortalSessions, type RefreshChecks } from '../portal-sessions.js';
import { errorRenderer, spanishProtocolErrors } from './protocol-errors.js';
import { cookieSettings, signingJwks } from './provider-keys.js';
import type { ProviderMemory } from '../provider-memory.js';
import { scopeClaims, oidcScopes } from '../scopes.js';

export interface IdentityProviderDeps {
  db: Db;
  issuer: string;
  portalUrl: string;
  signingKey: SigningKey;
  /** Back-channel logouts may reach loopback and private addresses (the library's SSRF guard lifted for them). */
  backchannelPrivateNetwork: boolean;
  defaultSessionTtlSeconds: number;
  /** What the provider keeps in this instance's session memory (provider-memory.ts). */
  memory: ProviderMemory;
  /** Whether a refresh token still stands for the portal session behind it (portal-sessions.ts). */
  refreshes: RefreshChecks;
  /** Wakes the back-channel delivery loop after logouts were queued. */
  logoutsQueued(): void;
  /**
   * Whether a device polled for this device code less than `devicePollIntervalSeconds` ago (RFC 8628 §3.5 slow_down);
   * it counts this poll as the last one either way.
   */
  devicePollTooSoon(deviceCode: string): Promise<boolean>;
  /** Reports what the provider did (metrics and logs). */
  events: {
    tokenIssued(grantType: string): void;
    serverError(error: unknown): void;
  };
}

export async function createIdentityProvider(deps: IdentityProviderDeps): Promise<Provider> {
  const { db, memory } = deps;
  const configuration: Configuration = {
    adapter: createAdapterFactory({
      db,
      clientMetadata: async (clientId) => {
        const row = await findClient(db, clientId);
        return row ? clientMetadata(row) : undefined;
      },
      memory,
    }),
    jwks: await signingJwks(deps.signingKey),
    cookies: cookieSettings(deps.signingKey),
    routes: oidcRoutes,
    scopes: [...oidcScopes],
    // `amr` and `acr`: how the person signed in, in every ID token (authentication-methods.ts); with `openid`, since the
    // library releases a claim of no scope only when the app asks for it by name.
    claims: { ...scopeClaims, openid: [...scopeClaims.openid, 'acr', 'amr'] },
    acrValues: [...acrValues],
    // Scope claims go into the ID token too: the app learns the person and the plan from the token, not a second call.
    conformIdTokenClaims: false,
    ...clientSettings(),
    findAccount: accountFinder(db, memory, deps.refreshes),
    features: features(db, memory, deps.portalUrl),
    interactions: {
      policy: loginPolicy(db, memory),
      url: (_ctx, interaction) => interactionPath(interaction.uid),
    },
    loadExistingGrant: grantLoader(db),
    issueRefreshToken: async (_ctx, client, code) =>
      client.grantTypeAllowed('refresh_token') && code.scopes.has('offline_access'),
    rotateRefreshToken: true,
    ttl: ttlSettings(deps.defaultSessionTtlSeconds),
    // The library's outgoing requests (back-channel logouts) refuse special-use addresses through a dispatcher of
    // its own; an operator whose apps live on the private network lifts that (OIDC_BACKCHANNEL_PRIVATE_NETWORK).
    fetch: (url, options) => {
      if (deps.backchannelPrivateNetwork) delete (options as { dispatcher?: unknown }).dispatcher;
      return globalThis.fetch(url, options);
    },
    renderError: errorRenderer(deps.portalUrl),
  };

  const provider = new Provider(deps.issuer, configuration);
  // Nothing a request says about its address reaches the provider: its host and protocol are the issuer's, the
  // client's address the API's own reading (the request's scope, lib/request-scope.ts).
  provider.use(addressedToIssuer(deps.issuer));
  hashedClientSecrets(provider);
  queueBackchannelLogouts(provider, db, () => deps.logoutsQueued());
  clientSubjectClaims(provider);
  // Each of these reads the library's answer after it is made: the last one added reads it first.
  clientSubjectIntrospection(provider, db, memory);
  linkPortalSessions(provider, db, () => deps.logoutsQueued());
  spanishProtocolErrors(provider);
  deviceAnswers(provider, deps.portalUrl, (deviceCode) => deps.devicePollTooSoon(deviceCode));
  portalFormPostPages(provider);

  provider.on('grant.success', (ctx: KoaContextWithOIDC) => {
    deps.events.tokenIssued(String(ctx.oidc.params?.grant_type ?? 'unknown'));
  });
  provider.on('server_error', (_ctx: unknown, error: unknown) => deps.events.serverError(error));
  return provider;
}
