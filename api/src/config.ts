import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { allowListProblems, wildcardDomainProblems } from '@portal/contracts/redirect/allow-list-entries';
import { defaultLocalOrigins, HOST } from '@portal/contracts/manifest';
import { defaultRelyingPartyId, isLoopbackHost } from '@portal/contracts/passkeys/relying-party';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

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
   * hanging receiver is retried later and never holds a sender past it.
   */
  partnerEventsTimeoutMs: number;
  /**
   * COMPANY_PROVIDER_PRIVATE_NETWORK: a company's OpenID Connect provider may be on loopback and private addresses
   * (discovery and the token exchange reach it). Off unless the API itself is on a loopback address.
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

const minMetricsTokenLength = 32;

/** Metrics are never public by accident: their own port on loopback, or the API's port behind a long secret. */
export function metricsConfig(env: Env, apiPort: number): MetricsConfig {
  const port = read(env, 'METRICS_PORT') === undefined ? undefined : integer(env, 'METRICS_PORT', 0, 1, 65535);
  if (port !== undefined && port === apiPort) {
    throw new ConfigError(
      'METRICS_PORT',
      `debe ser distinto de PORT (${apiPort}): las métricas no van por el puerto público`,
    );
  }
  const host = read(env, 'METRICS_HOST') ?? '127.0.0.1';
  if (read(env, 'METRICS_HOST') !== undefined && port === undefined) {
    throw new ConfigError('METRICS_HOST', 'solo tiene sentido con METRICS_PORT');
  }
  const token = read(env, 'METRICS_TOKEN');
  if (token !== undefined && (token.length < minMetricsTokenLength || /\s/.test(token))) {
    throw new ConfigError(
      'METRICS_TOKEN',
      `debe tener al menos ${minMetricsTokenLength} caracteres sin espacios (p. ej. la salida de openssl rand -hex 32)`,
    );
  }
  return { port, host, token };
}

export interface WebAuthnConfig {
  /** The relying party ID: the portal's host name (WEBAUTHN_RP_ID; 'localhost' for a portal on 127.0.0.1). */
  rpId: string;
  /** Shown by the browser and the authenticator beside the passkey. */
  rpName: string;
  /** The origins a passkey ceremony may come from (WEBAUTHN_ORIGINS; PORTAL_URL, or its localhost twin on this machine). */
  origins: string[];
}

/**
 * The relying party from PORTAL_URL unless WEBAUTHN_RP_ID / WEBAUTHN_ORIGINS say otherwise. Browsers refuse an IP
 * address as relying party ID, so a portal on 127.0.0.1 uses 'localhost' and accepts its localhost origin: passkeys
 * on a local trial work at http://localhost:8080.
 */
export function webauthnConfig(env: Env, portalUrl: string): WebAuthnConfig {
  const portal = new URL(portalUrl);
  // The same rule the portal's pages follow to know whether they may offer passkeys (@portal/contracts).
  const loopback = isLoopbackHost(portal.hostname);
  const rpId = (read(env, 'WEBAUTHN_RP_ID') ?? defaultRelyingPartyId(portal)).toLowerCase();
  if (!/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/.test(rpId)) {
    throw new ConfigError(
      'WEBAUTHN_RP_ID',
      `debe ser un nombre de dominio como portal.example.com (recibido "${rpId}")`,
    );
  }
  const list = read(env, 'WEBAUTHN_ORIGINS');
  const origins =
    list === undefined
      ? // On this machine only the localhost twin: a page at 127.0.0.1 cannot use the 'localhost' RP ID anyway.
        [loopback ? `${portal.protocol}//localhost${portal.port ? `:${portal.port}` : ''}` : portal.origin]
      : list
          .split(',')
          .map((item) => item.trim())
          .filter(Boolean)
          .map((item) => origin('WEBAUTHN_ORIGINS', item));
  for (const allowed of origins) {
    const host = new URL(allowed).hostname;
    if (host !== rpId && !host.endsWith(`.${rpId}`)) {
      throw new ConfigError(
        'WEBAUTHN_ORIGINS',
        `contiene ${allowed}, cuyo dominio no es ${rpId} ni un subdominio suyo`,
      );
    }
  }
  return { rpId, rpName: read(env, 'WEBAUTHN_RP_NAME') ?? 'Portal de Aplicaciones', origins };
}

/**
 * Whether the provider may post back-channel logouts to loopback and private addresses. The library refuses them by
 * default (a registered URI must not turn the API into a way into the internal network); a portal on loopback (a
 * local trial, the tests) has its apps there too.
 */
function backchannelPrivateNetwork(env: Env, apiPublicUrl: string): boolean {
  return privateNetwork(env, 'OIDC_BACKCHANNEL_PRIVATE_NETWORK', apiPublicUrl);
}

/**
 * Whether the API may reach a company's OpenID Connect provider on loopback and private addresses. Refused by default
 * (src/lib/outbound/special-use.ts): an issuer a company's owner types must not lead the API into the internal
 * network; a portal on loopback (a local trial, the tests) runs its providers there too.
 */
function companyProviderPrivateNetwork(env: Env, apiPublicUrl: string): boolean {
  return privateNetwork(env, 'COMPANY_PROVIDER_PRIVATE_NETWORK', apiPublicUrl);
}

/** A true|false variable that defaults to whether API_PUBLIC_URL's host is loopback. */
function privateNetwork(env: Env, name: string, apiPublicUrl: string): boolean {
  const raw = read(env, name);
  if (raw === undefined) return isLoopbackHost(new URL(apiPublicUrl).hostname);
  if (raw !== 'true' && raw !== 'false') throw new ConfigError(name, `debe ser true o false (recibido "${raw}")`);
  return raw === 'true';
}

function adminSecondFactor(env: Env): 'required' | 'optional' {
  const value = read(env, 'ADMIN_SECOND_FACTOR') ?? 'required';
  if (value !== 'required' && value !== 'optional') {
    throw new ConfigError('ADMIN_SECOND_FACTOR', `debe ser required u optional (recibido "${value}")`);
  }
  return value;
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

/** Billing is on only when STRIPE_SECRET_KEY is set; otherwise every billing call answers 503. */
export function loadBillingConfig(env: Env): BillingConfig | undefined {
  const secretKey = env.STRIPE_SECRET_KEY?.trim();
  if (!secretKey) return undefined;
  if (!/^(sk|rk)_(test|live)_\S+$/.test(secretKey)) {
    throw new ConfigError('STRIPE_SECRET_KEY', 'debe ser una clave secreta de Stripe (sk_test_…, sk_live_… o rk_…)');
  }
  const rawBase = env.STRIPE_API_BASE?.trim();
  if (!rawBase) return { secretKey, apiBase: undefined };
  let url: URL;
  try {
    url = new URL(rawBase);
  } catch {
    throw new ConfigError('STRIPE_API_BASE', `debe ser una URL como http://127.0.0.1:12111 (recibido "${rawBase}")`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError('STRIPE_API_BASE', `debe empezar por http:// o https:// (recibido "${rawBase}")`);
  }
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  const port = url.port ? Number(url.port) : protocol === 'http' ? 80 : 443;
  return { secretKey, apiBase: { protocol, host: url.hostname, port } };
}

export class ConfigError extends Error {
  constructor(variable: string, problem: string);
  /** Several problems reported at once: one line each, in order. */
  constructor(problems: ConfigError[]);
  constructor(variable: string | ConfigError[], problem?: string) {
    super(
      typeof variable === 'string'
        ? `Configuración inválida: ${variable} ${problem}`
        : variable.map((error) => error.message).join('\n'),
    );
    this.name = 'ConfigError';
  }
}

const repoRoot = resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..');

/**
 * The shell and every remote as `npm start` serves them on this machine (the portal's manifest): at localhost, the
 * address it prints, and at 127.0.0.1, where a page still works (passkeys aside).
 */
export const defaultCorsOrigins = [...defaultLocalOrigins('localhost'), ...defaultLocalOrigins('127.0.0.1')];

const logLevels: LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

type Env = Record<string, string | undefined>;

/** Empty strings count as unset so that `FOO= npm start` behaves like leaving FOO out. */
function read(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value ? value : undefined;
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(name, `debe ser un número entero (recibido "${raw}")`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(name, `debe estar entre ${min} y ${max} (recibido ${value})`);
  return value;
}

function origin(name: string, raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(name, `contiene un origen que no es una URL: "${raw}"`);
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.origin !== raw.replace(/\/$/, '')) {
    throw new ConfigError(name, `debe contener solo orígenes como https://portal.example.com (recibido "${raw}")`);
  }
  return url.origin;
}

/** Several variables that only work together: all set, or none (answers undefined). */
function group<K extends string>(env: Env, names: Record<K, string>): Record<K, string> | undefined {
  const values = Object.fromEntries(Object.entries(names).map(([key, name]) => [key, read(env, name as string)]));
  const missing = Object.entries(names)
    .filter(([key]) => values[key] === undefined)
    .map(([, name]) => name as string);
  if (missing.length === Object.keys(names).length) return undefined;
  if (missing.length > 0) {
    const given = Object.entries(names)
      .filter(([key]) => values[key] !== undefined)
      .map(([, name]) => name);
    throw new ConfigError(
      missing.join(', '),
      `falta${missing.length > 1 ? 'n' : ''}: van junto con ${given.join(', ')}`,
    );
  }
  return values as Record<K, string>;
}

function issuerUrl(name: string, raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(name, `no es una URL (recibido "${raw}")`);
  }
  const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) {
    throw new ConfigError(
      name,
      `debe ser una URL https:// (http:// solo en 127.0.0.1 para pruebas; recibido "${raw}")`,
    );
  }
  return raw.replace(/\/$/, '');
}

function oauthConfig(env: Env): { google: GoogleConfig | undefined; apple: AppleConfig | undefined } {
  const google = group(env, { clientId: 'GOOGLE_CLIENT_ID', clientSecret: 'GOOGLE_CLIENT_SECRET' });
  const apple = group(env, {
    clientId: 'APPLE_CLIENT_ID',
    teamId: 'APPLE_TEAM_ID',
    keyId: 'APPLE_KEY_ID',
    privateKey: 'APPLE_PRIVATE_KEY',
  });
  const applePrivateKey = apple?.privateKey.replace(/\\n/g, '\n');
  if (applePrivateKey !== undefined && !applePrivateKey.includes('-----BEGIN PRIVATE KEY-----')) {
    throw new ConfigError(
      'APPLE_PRIVATE_KEY',
      'debe ser el contenido del archivo .p8 de Apple (-----BEGIN PRIVATE KEY-----)',
    );
  }
  return {
    google: google && {
      ...google,
      issuer: issuerUrl('GOOGLE_ISSUER', read(env, 'GOOGLE_ISSUER') ?? 'https://accounts.google.com'),
    },
    apple: apple && {
      ...apple,
      privateKey: applePrivateKey as string,
      issuer: issuerUrl('APPLE_ISSUER', read(env, 'APPLE_ISSUER') ?? 'https://appleid.apple.com'),
    },
  };
}

/**
 * Which proxies may say who the client is. Never `true`: believing every X-Forwarded-For would let any client pick
 * its own address, and with it the per-address sign-in locks and rate limits.
 */
function trustProxy(env: Env): false | number | string[] {
  const raw = read(env, 'TRUST_PROXY');
  if (raw === undefined || raw === 'false') return false;
  if (raw === 'true') {
    throw new ConfigError(
      'TRUST_PROXY',
      'no acepta true (cualquier cliente podría elegir su dirección): indica el número de saltos o las direcciones de los balanceadores',
    );
  }
  if (/^\d+$/.test(raw)) return integer(env, 'TRUST_PROXY', 0, 1, 10);
  const addresses = raw
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
  if (addresses.some((item) => !/^[0-9a-f.:]+(\/\d{1,3})?$/i.test(item))) {
    throw new ConfigError(
      'TRUST_PROXY',
      `debe ser un número de saltos o direcciones IP/CIDR separadas por comas (recibido "${raw}")`,
    );
  }
  return addresses;
}

function commaList(env: Env, name: string): string[] {
  return (
    read(env, name)
      ?.split(',')
      .map((item) => item.trim())
      .filter(Boolean) ?? []
  );
}

/** The domains a `*.` entry may sit under besides the portal's and the API's own hosts, each refused when public. */
function redirectWildcardDomains(env: Env): string[] {
  const domains = commaList(env, 'REDIRECT_WILDCARD_DOMAINS').map((domain) => domain.toLowerCase());
  const [problem] = wildcardDomainProblems(domains);
  if (problem !== undefined) throw new ConfigError('REDIRECT_WILDCARD_DOMAINS', problem);
  return domains;
}

/**
 * The comma-separated allow-list, refused at start when an entry would hand tokens to anyone's host
 * (docs/decisions/0004-redirect-wildcards-own-domains-only.md): the shared rule, told which hosts are the portal's own.
 */
function redirectAllowList(env: Env, ownUrls: string[], wildcardDomains: string[]): string[] {
  const entries = commaList(env, 'REDIRECT_ALLOW_LIST');
  const [problem] = allowListProblems(entries, { ownUrls, wildcardDomains });
  if (problem !== undefined) throw new ConfigError('REDIRECT_ALLOW_LIST', problem);
  return entries;
}

/**
 * What a production start (NODE_ENV=production) refuses: the defaults that make a local trial work with nothing set
 * but would be unsafe in production (docs/decisions/0058-production-refuses-development-defaults.md). One line each.
 */
export function productionProblems(env: Env): ConfigError[] {
  if (read(env, 'NODE_ENV') !== 'production') return [];
  const problems: ConfigError[] = [];
  if (read(env, 'JWT_PRIVATE_KEY') === undefined) {
    problems.push(
      new ConfigError(
        'JWT_PRIVATE_KEY',
        'falta: en producción la clave de firma no se genera en DATA_DIR (cambiaría al perder el disco y cada instancia tendría la suya, cerrando las sesiones); créala con openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256',
      ),
    );
  }
  if (read(env, 'SMTP_URL') === undefined) {
    problems.push(
      new ConfigError(
        'SMTP_URL',
        'falta: en producción los correos (y sus códigos) no se escriben en el registro de la API; indica el servidor de correo (smtp://usuario:clave@correo.example.com:587)',
      ),
    );
  }
  if (read(env, 'ADMIN_SECOND_FACTOR') === 'optional') {
    problems.push(
      new ConfigError(
        'ADMIN_SECOND_FACTOR',
        'no admite optional en producción: un administrador debe probar un segundo factor (quita la variable o usa required)',
      ),
    );
  }
  if (commaList(env, 'CORS_ORIGINS').length === 0) {
    problems.push(
      new ConfigError(
        'CORS_ORIGINS',
        'falta: en producción indica los orígenes del portal y de cada remoto (https://portal.example.com,https://auth.example.com,…); los de localhost solo sirven en esta máquina',
      ),
    );
  }
  return problems;
}

/**
 * The API's configuration, or a ConfigError naming every variable that stops it. A production start reports its
 * refusals together with the first malformed value, so one restart after fixing them is enough.
 */
export function loadConfig(env: Env = process.env): Config {
  const refusals = productionProblems(env);
  let config: Config;
  try {
    config = readConfig(env);
  } catch (error) {
    if (error instanceof ConfigError && refusals.length > 0) throw new ConfigError([error, ...refusals]);
    throw error;
  }
  if (refusals.length > 0) throw new ConfigError(refusals);
  return config;
}

function readConfig(env: Env): Config {
  const databaseUrl = read(env, 'DATABASE_URL');
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL', 'debe empezar por postgres:// o postgresql://');
  }

  const adminEmail = read(env, 'ADMIN_EMAIL')?.toLowerCase();
  if (adminEmail !== undefined && (adminEmail.length > 254 || !/^[^\s@]+@[^\s@]+$/.test(adminEmail))) {
    throw new ConfigError('ADMIN_EMAIL', `no es un email válido (recibido "${adminEmail}")`);
  }
  const adminPassword = env.ADMIN_PASSWORD || undefined;
  if (adminPassword !== undefined && (adminPassword.length < 6 || adminPassword.length > 256)) {
    throw new ConfigError('ADMIN_PASSWORD', 'debe tener entre 6 y 256 caracteres');
  }

  const corsList = read(env, 'CORS_ORIGINS');
  const corsOrigins =
    corsList === undefined
      ? defaultCorsOrigins
      : corsList
          .split(',')
          .map((item) => item.trim())
          .filter(Boolean)
          .map((item) => origin('CORS_ORIGINS', item));

  // Hosting panels often store multi-line secrets on one line with literal "\n".
  const jwtPrivateKey = read(env, 'JWT_PRIVATE_KEY')?.replace(/\\n/g, '\n');
  if (jwtPrivateKey !== undefined && !jwtPrivateKey.includes('-----BEGIN PRIVATE KEY-----')) {
    throw new ConfigError(
      'JWT_PRIVATE_KEY',
      'debe ser una clave EC P-256 en formato PEM PKCS#8 (-----BEGIN PRIVATE KEY-----)',
    );
  }

  const smtpUrl = read(env, 'SMTP_URL');
  if (smtpUrl !== undefined && !/^smtps?:\/\/[^/]/.test(smtpUrl)) {
    throw new ConfigError(
      'SMTP_URL',
      'debe empezar por smtp:// o smtps:// (p. ej. smtp://usuario:clave@correo.example.com:587)',
    );
  }
  const redisUrl = read(env, 'REDIS_URL');
  if (redisUrl !== undefined && !/^rediss?:\/\/[^/]/.test(redisUrl)) {
    throw new ConfigError('REDIS_URL', 'debe empezar por redis:// o rediss://');
  }
  const mailFrom = read(env, 'MAIL_FROM') ?? 'Portal de aplicaciones <no-reply@portal.local>';
  if (!/^[^\r\n]*<?[^\s@<>]+@[^\s@<>]+>?$/.test(mailFrom)) {
    throw new ConfigError(
      'MAIL_FROM',
      `debe ser un remitente como "Portal <no-reply@empresa.com>" (recibido "${mailFrom}")`,
    );
  }

  const logLevel = (read(env, 'LOG_LEVEL') ?? 'info') as LogLevel;
  if (!logLevels.includes(logLevel)) {
    throw new ConfigError('LOG_LEVEL', `debe ser uno de ${logLevels.join(', ')} (recibido "${logLevel}")`);
  }

  const port = integer(env, 'PORT', 3000, 0, 65535);
  const portalUrl = origin('PORTAL_URL', read(env, 'PORTAL_URL') ?? `http://localhost:${HOST.port}`);
  const apiPublicUrl = origin('API_PUBLIC_URL', read(env, 'API_PUBLIC_URL') ?? `http://localhost:${port}`);
  const wildcardDomains = redirectWildcardDomains(env);
  return {
    port,
    host: read(env, 'HOST') ?? '127.0.0.1',
    databaseUrl,
    dataDir: resolve(read(env, 'DATA_DIR') ?? resolve(repoRoot, '.data')),
    databaseTimeoutMs: integer(env, 'DATABASE_TIMEOUT_MS', 4_000, 100, 60_000),
    requestTimeoutMs: integer(env, 'REQUEST_TIMEOUT_MS', 8_000, 200, 120_000),
    shutdownDrainMs: integer(env, 'SHUTDOWN_DRAIN_MS', 0, 0, 300_000),
    adminEmail,
    adminPassword,
    corsOrigins,
    tokenTtlSeconds: integer(env, 'TOKEN_TTL_SECONDS', 86400, 60, 60 * 60 * 24 * 30),
    partnerTokenTtlSeconds: integer(env, 'PARTNER_TOKEN_TTL_SECONDS', 3600, 60, 60 * 60 * 24),
    jwtPrivateKey,
    loginRateLimitPerMinute: integer(env, 'LOGIN_RATE_LIMIT_PER_MINUTE', 20, 1, 100000),
    authRateLimitPerMinute: integer(env, 'AUTH_RATE_LIMIT_PER_MINUTE', 30, 1, 100000),
    smtpUrl,
    mailFrom,
    portalUrl,
    redisUrl,
    redisKeyPrefix: read(env, 'REDIS_KEY_PREFIX') ?? 'portal:',
    logLevel,
    trustProxy: trustProxy(env),
    redirectAllowList: redirectAllowList(env, [portalUrl, apiPublicUrl], wildcardDomains),
    redirectWildcardDomains: wildcardDomains,
    apiPublicUrl,
    oidcIssuer: origin('OIDC_ISSUER', read(env, 'OIDC_ISSUER') ?? apiPublicUrl),
    oidcBackchannelPrivateNetwork: backchannelPrivateNetwork(env, apiPublicUrl),
    partnerEventsTimeoutMs: integer(env, 'PARTNER_EVENTS_TIMEOUT_MS', 10_000, 100, 60_000),
    companyProviderPrivateNetwork: companyProviderPrivateNetwork(env, apiPublicUrl),
    ...oauthConfig(env),
    billing: loadBillingConfig(env),
    adminSecondFactor: adminSecondFactor(env),
    webauthn: webauthnConfig(env, portalUrl),
    metrics: metricsConfig(env, port),
  };
}
