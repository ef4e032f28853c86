// How long what the provider issues lives: codes, tokens, interactions, and the provider session, which never outlives
// the portal session it was signed in with.
import type { Configuration } from 'oidc-provider';
import type { PortalLogin } from '../portal-sessions.js';

/** Lifetimes, in seconds. Codes are short; access tokens are opaque and checked at each use, so they may last a while. */
export const oidcLifetimes = {
  authorizationCode: 60,
  accessToken: 15 * 60,
  idToken: 60 * 60,
  interaction: 30 * 60,
  refreshToken: 30 * 24 * 60 * 60,
  /** A device's code: long enough to find the phone, sign in and type it (RFC 8628 §3.2 `expires_in`). */
  deviceCode: 10 * 60,
} as const;

const seconds = (ms: number) => Math.floor(ms / 1000);

/** The library's `ttl`: a provider session without a portal session to follow lasts `defaultSessionTtlSeconds`. */
export function ttlSettings(defaultSessionTtlSeconds: number): NonNullable<Configuration['ttl']> {
  return {
    AccessToken: oidcLifetimes.accessToken,
    AuthorizationCode: oidcLifetimes.authorizationCode,
    DeviceCode: oidcLifetimes.deviceCode,
    IdToken: oidcLifetimes.idToken,
    Interaction: oidcLifetimes.interaction,
    RefreshToken: oidcLifetimes.refreshToken,
    Grant: oidcLifetimes.refreshToken,
    // The provider session ends with the portal session it was signed in with.
    Session(ctx, session) {
      const portal = (ctx.oidc?.result as { portal?: PortalLogin } | undefined)?.portal;
      const now = seconds(Date.now());
      const until = portal?.expiresAt ?? session.exp;
      return until && until > now ? until - now : defaultSessionTtlSeconds;
    },
  };
}
