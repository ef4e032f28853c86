// What the rest of the API is given: the configuration read from the environment (../config.ts builds it).
import type { LogLevel } from './environment.js';

export interface Config {
  port: number;
  host: string;
  /** PostgreSQL connection string; undefined means the embedded PGlite database in `dataDir/pglite`. */
  databaseUrl: string | undefined;
  dataDir: string;
  /** PostgreSQL: longest wait for a connection, a statement and its answer (DATABASE_TIMEOUT_MS, 4 s). */
  databaseTimeoutMs: number;
  /** Every request is answered within it, in the worst case with the Spanish 503 (REQUEST_TIMEOUT_MS, 8 s). */
  requestTimeoutMs: number;
  /**
   * After SIGTERM, how long readiness answers 503 while every request is still served, before the instance hands
   * its traffic off and stops listening (SHUTDOWN_DRAIN_MS, 0): a balancer that checks readiness must notice within it.
   */
  shutdownDrainMs: number;
  adminEmail: string | undefined;
  adminPassword: string | undefined;
  corsOrigins: string[];
  tokenTtlSeconds: number;
  /** Lifetime of the partner-scoped tokens minted by `POST /auth/partner-token` (never past the session's). */
  partnerTokenTtlSeconds: number;
  /** PKCS#8 PEM of the ES256 signing key; undefined means generate one and keep it in `dataDir/keys`. */
  jwtPrivateKey: string | undefined;
  /**
   * The portal's key as a SAML identity provider (RSA, PKCS#8 PEM) and its certificate; both undefined: generated and
   * kept in `dataDir/keys`. The previous certificate is published during a rotation, never used to sign.
   */
  samlIdp: { privateKey: string | undefined; certificate: string | undefined; previousCertificate: string | undefined };
  loginRateLimitPerMinute: number;
  /** Per client IP and minute on each other anonymous auth call (register, codes, verificar-email). */
  authRateLimitPerMinute: number;
  /** `smtp://…` or `smtps://…`; undefined means mails are printed to the log instead of sent. */
  smtpUrl: string | undefined;
  mailFrom: string;
  /** Where the portal's pages are, for the links in mails. */
  portalUrl: string;
  /** Shared rate-limit counters; undefined keeps them in this process's memory. */
  redisUrl: string | undefined;
  /** Prepended to every Redis key, so several deployments (or test runs) can share one Redis. */
  redisKeyPrefix: string;
  logLevel: LogLevel;
  /**
   * Which proxies in front of the API to believe about the client's address (`X-Forwarded-For`), for the per-IP
   * limits: false (none, the default), a number of hops, or the balancers' addresses/CIDRs.
   */
  trustProxy: false | number | string[];
  /**
   * Partner targets (same patterns as the portal's runtime config): what a Google/Apple sign-in may carry on to and
   * what `POST /auth/partner-token` mints tokens for. Refused at start: a host ending in a dot, and a `*.D` entry
   * unless D is under PORTAL_URL's or API_PUBLIC_URL's host or under a REDIRECT_WILDCARD_DOMAINS domain (never a
   * public suffix).
   */
  redirectAllowList: string[];
  /** REDIRECT_WILDCARD_DOMAINS: the domains the operator declares its own, under which a `*.` entry is accepted. */
  redirectWildcardDomains: string[];
  /** The API's own public origin: the Google and Apple callback addresses are built on it. */
  apiPublicUrl: string;
  /** OIDC_ISSUER: the OpenID Connect provider's issuer, an origin (API_PUBLIC_URL unless set). */
  oidcIssuer: string;
  /**
   * OIDC_BACKCHANNEL_PRIVATE_NETWORK: back-channel logouts may go to loopback and private addresses (apps on the
   * company's network, a local trial). Off unless the API itself is on a loopback address.
   */
  oidcBackchannelPrivateNetwork: boolean;
  /**
   * PARTNER_EVENTS_TIMEOUT_MS: longest wait for a partner app's event receiver to answer one try (10 s); a slow or
   * hanging receiver is retried later and never holds a sender past it. It bounds a batch to a company's SIEM too.
   */
  partnerEventsTimeoutMs: number;
  /**
   * COMPANY_PROVIDER_PRIVATE_NETWORK: a company's OpenID Connect provider or SAML metadata address may be on loopback
   * and private addresses (discovery, the token exchange and the metadata reading reach it). Off unless the API itself
   * is on a loopback address.
   */
  companyProviderPrivateNetwork: boolean;
  /** Sign-in with Google; undefined when not configured (the button then lands on the portal's error message). */
  google: GoogleConfig | undefined;
  /** Sign-in with Apple; undefined when not configured. */
  apple: AppleConfig | undefined;
  /** Stripe billing; undefined when not configured (every /facturacion call answers 503). */
  billing: BillingConfig | undefined;
  /**
   * 'required' (the default) lets only a session that proved a second factor (TOTP, recovery code or passkey)
   * administer; 'optional' (ADMIN_SECOND_FACTOR=optional, for a local trial) lifts that.
   */
  adminSecondFactor: 'required' | 'optional';
  /** The WebAuthn relying party the passkeys belong to. */
  webauthn: WebAuthnConfig;
  /** Where Prometheus scrapes `GET /metrics` (docs/decisions/0053-metrics.md). */
  metrics: MetricsConfig;
}

export interface MetricsConfig {
  /** METRICS_PORT: a listener of its own for `/metrics`; undefined means none. */
  port: number | undefined;
  /** METRICS_HOST: that listener's address, loopback unless the operator opens it (127.0.0.1). */
  host: string;
  /** METRICS_TOKEN: the bearer secret that opens `/metrics` on the API's own port; undefined keeps it closed (404). */
  token: string | undefined;
}

export interface WebAuthnConfig {
  /** The relying party ID: the portal's host name (WEBAUTHN_RP_ID; 'localhost' for a portal on 127.0.0.1). */
  rpId: string;
  /** Shown by the browser and the authenticator beside the passkey. */
  rpName: string;
  /** The origins a passkey ceremony may come from (WEBAUTHN_ORIGINS; PORTAL_URL, or its localhost twin on this machine). */
  origins: string[];
}

export interface GoogleConfig {
  /** OpenID Connect issuer; discovery reads `{issuer}/.well-known/openid-configuration`. */
  issuer: string;
  clientId: string;
  clientSecret: string;
}

export interface AppleConfig {
  issuer: string;
  /** The Services ID the web sign-in uses. */
  clientId: string;
  teamId: string;
  keyId: string;
  /** PKCS#8 PEM of the Sign in with Apple key (.p8); the client secret is an ES256 JWT signed with it. */
  privateKey: string;
}

export interface BillingConfig {
  secretKey: string;
  /** Where the Stripe SDK sends its requests; unset means Stripe itself. Tests point it at a local stand-in. */
  apiBase: { protocol: 'http' | 'https'; host: string; port: number } | undefined;
}
