// The API's configuration: the environment read against its schema (config/environment.ts), plus what involves
// several variables (the defaults that follow from others, the rules across them, what a production start refuses),
// turned into the Config the rest of the API is given (config/types.ts).
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { allowListProblems } from '@portal/contracts/redirect/allow-list-entries';
import { defaultRelyingPartyId, isLoopbackHost } from '@portal/contracts/passkeys/relying-party';
import { Type, type StaticDecode } from 'typebox';
import { environment } from './config/environment.js';
import { ConfigError, type Env, given, readEnvironment, type Rules } from './config/read-environment.js';
import type { BillingConfig, Config } from './config/types.js';

export { defaultCorsOrigins, type LogLevel } from './config/environment.js';
export { ConfigError } from './config/read-environment.js';
export type {
  AppleConfig,
  BillingConfig,
  Config,
  GoogleConfig,
  MetricsConfig,
  WebAuthnConfig,
} from './config/types.js';

type Environment = StaticDecode<typeof environment>;

const repoRoot = resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..');

/** Whether a URL's host is this machine (a local trial, the tests). */
const onLoopback = (url: string) => isLoopbackHost(new URL(url).hostname);

/** Several variables that only work together: all set, or none. */
function allOrNone(...names: string[]) {
  return (_values: Environment, env: Env) => {
    const missing = names.filter((name) => given(env, name) === undefined);
    if (missing.length === 0 || missing.length === names.length) return;
    const set = names.filter((name) => !missing.includes(name));
    throw new ConfigError(missing.join(', '), `falta${missing.length > 1 ? 'n' : ''}: van junto con ${set.join(', ')}`);
  };
}

const rules: Rules<Environment> = {
  defaults: {
    API_PUBLIC_URL: ({ PORT }) => `http://localhost:${PORT}`,
    DATA_DIR: () => resolve(repoRoot, '.data'),
    OIDC_ISSUER: ({ API_PUBLIC_URL }) => API_PUBLIC_URL,
    // The library refuses back-channel logouts to loopback and private addresses, and src/lib/outbound/special-use.ts
    // a company's provider there: neither may lead the API into the internal network. A portal on loopback has its
    // apps and providers there too.
    OIDC_BACKCHANNEL_PRIVATE_NETWORK: ({ API_PUBLIC_URL }) => onLoopback(API_PUBLIC_URL),
    COMPANY_PROVIDER_PRIVATE_NETWORK: ({ API_PUBLIC_URL }) => onLoopback(API_PUBLIC_URL),
    // Browsers refuse an IP address as relying party ID: a portal on 127.0.0.1 uses 'localhost' (the rule the portal's
    // pages follow too), and only its localhost twin, since a page at 127.0.0.1 cannot use that ID anyway.
    WEBAUTHN_RP_ID: ({ PORTAL_URL }) => defaultRelyingPartyId(new URL(PORTAL_URL)),
    WEBAUTHN_ORIGINS: ({ PORTAL_URL }) => {
      const portal = new URL(PORTAL_URL);
      const port = portal.port ? `:${portal.port}` : '';
      return [onLoopback(PORTAL_URL) ? `${portal.protocol}//localhost${port}` : portal.origin];
    },
  },
  checks: {
    // Tokens go only to the portal's own hosts or named domains (docs/decisions/0004-redirect-wildcards-own-domains-only.md).
    REDIRECT_ALLOW_LIST: (values) => {
      const [problem] = allowListProblems(values.REDIRECT_ALLOW_LIST, {
        ownUrls: [values.PORTAL_URL, values.API_PUBLIC_URL],
        wildcardDomains: values.REDIRECT_WILDCARD_DOMAINS,
      });
      if (problem !== undefined) throw new ConfigError('REDIRECT_ALLOW_LIST', problem);
    },
    GOOGLE_CLIENT_ID: allOrNone('GOOGLE_CLIENT_ID', 'GOOGLE_CLIENT_SECRET'),
    APPLE_CLIENT_ID: allOrNone('APPLE_CLIENT_ID', 'APPLE_TEAM_ID', 'APPLE_KEY_ID', 'APPLE_PRIVATE_KEY'),
    WEBAUTHN_ORIGINS: ({ WEBAUTHN_RP_ID: rpId, WEBAUTHN_ORIGINS: origins }) => {
      const outside = origins.find((allowed) => {
        const host = new URL(allowed).hostname;
        return host !== rpId && !host.endsWith(`.${rpId}`);
      });
      if (outside !== undefined) {
        throw new ConfigError(
          'WEBAUTHN_ORIGINS',
          `contiene ${outside}, cuyo dominio no es ${rpId} ni un subdominio suyo`,
        );
      }
    },
    // Metrics are never public by accident: their own port on loopback, or the API's port behind a long secret.
    METRICS_PORT: ({ METRICS_PORT, PORT }) => {
      if (METRICS_PORT === PORT) {
        throw new ConfigError(
          'METRICS_PORT',
          `debe ser distinto de PORT (${PORT}): las métricas no van por el puerto público`,
        );
      }
    },
    METRICS_HOST: ({ METRICS_PORT }, env) => {
      if (given(env, 'METRICS_HOST') !== undefined && METRICS_PORT === undefined) {
        throw new ConfigError('METRICS_HOST', 'solo tiene sentido con METRICS_PORT');
      }
    },
  },
};

/**
 * What a production start (NODE_ENV=production) refuses: the defaults that make a local trial work with nothing set
 * but would be unsafe in production (docs/decisions/0058-production-refuses-development-defaults.md). One line each.
 */
const productionRefusals: [variable: string, refused: (env: Env) => boolean, problem: string][] = [
  [
    'JWT_PRIVATE_KEY',
    (env) => given(env, 'JWT_PRIVATE_KEY') === undefined,
    'falta: en producción la clave de firma no se genera en DATA_DIR (cambiaría al perder el disco y cada instancia tendría la suya, cerrando las sesiones); créala con openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256',
  ],
  [
    'SMTP_URL',
    (env) => given(env, 'SMTP_URL') === undefined,
    'falta: en producción los correos (y sus códigos) no se escriben en el registro de la API; indica el servidor de correo (smtp://usuario:clave@correo.example.com:587)',
  ],
  [
    'ADMIN_SECOND_FACTOR',
    (env) => given(env, 'ADMIN_SECOND_FACTOR') === 'optional',
    'no admite optional en producción: un administrador debe probar un segundo factor (quita la variable o usa required)',
  ],
  [
    'CORS_ORIGINS',
    (env) => (given(env, 'CORS_ORIGINS') ?? '').split(',').every((item) => !item.trim()),
    'falta: en producción indica los orígenes del portal y de cada remoto (https://portal.example.com,https://auth.example.com,…); los de localhost solo sirven en esta máquina',
  ],
];

function productionProblems(env: Env): ConfigError[] {
  if (given(env, 'NODE_ENV') !== 'production') return [];
  return productionRefusals
    .filter(([, refused]) => refused(env))
    .map(([variable, , problem]) => new ConfigError(variable, problem));
}

/**
 * The API's configuration, or a ConfigError naming every variable that stops it. A production start reports its
 * refusals together with the first malformed value, so one restart after fixing them is enough.
 */
export function loadConfig(env: Env = process.env): Config {
  const refusals = productionProblems(env);
  let values: Environment;
  try {
    values = readEnvironment(environment, env, rules);
  } catch (error) {
    if (error instanceof ConfigError && refusals.length > 0) throw new ConfigError([error, ...refusals]);
    throw error;
  }
  if (refusals.length > 0) throw new ConfigError(refusals);
  return toConfig(values);
}

/** Billing is on only when STRIPE_SECRET_KEY is set; otherwise every billing call answers 503. */
export function loadBillingConfig(env: Env): BillingConfig | undefined {
  return billing(readEnvironment(Type.Pick(environment, ['STRIPE_SECRET_KEY', 'STRIPE_API_BASE']), env));
}

function billing(values: Pick<Environment, 'STRIPE_SECRET_KEY' | 'STRIPE_API_BASE'>): BillingConfig | undefined {
  const { STRIPE_SECRET_KEY: secretKey, STRIPE_API_BASE: apiBase } = values;
  return secretKey === undefined ? undefined : { secretKey, apiBase };
}

/** The object when every value is set; undefined when none is (a group's rule leaves no third case). */
function whole<T extends Record<string, unknown>>(values: T): { [K in keyof T]: NonNullable<T[K]> } | undefined {
  return Object.values(values).every((value) => value !== undefined)
    ? (values as { [K in keyof T]: NonNullable<T[K]> })
    : undefined;
}

function toConfig(env: Environment): Config {
  return {
    port: env.PORT,
    host: env.HOST,
    databaseUrl: env.DATABASE_URL,
    dataDir: env.DATA_DIR,
    databaseTimeoutMs: env.DATABASE_TIMEOUT_MS,
    requestTimeoutMs: env.REQUEST_TIMEOUT_MS,
    shutdownDrainMs: env.SHUTDOWN_DRAIN_MS,
    adminEmail: env.ADMIN_EMAIL,
    adminPassword: env.ADMIN_PASSWORD,
    corsOrigins: env.CORS_ORIGINS,
    tokenTtlSeconds: env.TOKEN_TTL_SECONDS,
    partnerTokenTtlSeconds: env.PARTNER_TOKEN_TTL_SECONDS,
    jwtPrivateKey: env.JWT_PRIVATE_KEY,
    samlIdp: {
      privateKey: env.SAML_IDP_PRIVATE_KEY,
      certificate: env.SAML_IDP_CERTIFICATE,
      previousCertificate: env.SAML_IDP_PREVIOUS_CERTIFICATE,
    },
    loginRateLimitPerMinute: env.LOGIN_RATE_LIMIT_PER_MINUTE,
    authRateLimitPerMinute: env.AUTH_RATE_LIMIT_PER_MINUTE,
    smtpUrl: env.SMTP_URL,
    mailFrom: env.MAIL_FROM,
    portalUrl: env.PORTAL_URL,
    redisUrl: env.REDIS_URL,
    redisKeyPrefix: env.REDIS_KEY_PREFIX,
    logLevel: env.LOG_LEVEL,
    trustProxy: env.TRUST_PROXY,
    redirectAllowList: env.REDIRECT_ALLOW_LIST,
    redirectWildcardDomains: env.REDIRECT_WILDCARD_DOMAINS,
    apiPublicUrl: env.API_PUBLIC_URL,
    oidcIssuer: env.OIDC_ISSUER,
    oidcBackchannelPrivateNetwork: env.OIDC_BACKCHANNEL_PRIVATE_NETWORK,
    partnerEventsTimeoutMs: env.PARTNER_EVENTS_TIMEOUT_MS,
    companyProviderPrivateNetwork: env.COMPANY_PROVIDER_PRIVATE_NETWORK,
    google: whole({
      clientId: env.GOOGLE_CLIENT_ID,
      clientSecret: env.GOOGLE_CLIENT_SECRET,
      issuer: env.GOOGLE_ISSUER,
    }),
    apple: whole({
      clientId: env.APPLE_CLIENT_ID,
      teamId: env.APPLE_TEAM_ID,
      keyId: env.APPLE_KEY_ID,
      privateKey: env.APPLE_PRIVATE_KEY,
      issuer: env.APPLE_ISSUER,
    }),
    billing: billing(env),
    adminSecondFactor: env.ADMIN_SECOND_FACTOR,
    webauthn: { rpId: env.WEBAUTHN_RP_ID, rpName: env.WEBAUTHN_RP_NAME, origins: env.WEBAUTHN_ORIGINS },
    metrics: { port: env.METRICS_PORT, host: env.METRICS_HOST, token: env.METRICS_TOKEN },
  };
}
