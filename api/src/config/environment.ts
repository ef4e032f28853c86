// Every environment variable the API reads, as one TypeBox schema: its type, its default, what it accepts and the
// Spanish a person reads when it is wrong. read-environment.ts checks the environment against it variable by variable,
// in this order (with several wrong, the first is reported); ../config.ts adds the defaults and rules that involve
// other variables, and builds the API's Config. scripts/test/configuration-doc.test.mjs imports this file (plain
// Node: packages only, no relative imports) to hold docs/configuration.md to it.
//
// Besides TypeBox's keywords a variable may say:
// - `errorMessage`: the Spanish problem when a keyword refuses the value, one text or one per keyword; `{value}` is
//   the value received. A `Type.Refine` check carries its own.
// - `lowercase: true`: read in lower case. `trim: false`: surrounding spaces count (others are trimmed).
// - `onlyWith`: ignored unless that variable, read before it, is set.
// Empty counts as unset. A number is digits only, a true|false is exactly that, a list (`Type.Array`) is
// comma-separated. Lengths are in patterns without the `u` flag, so they count as JavaScript's `length` does. A
// variable with neither a `default` nor `Type.Optional` has a default that follows from others (../config.ts).
import { resolve } from 'node:path';
import { API_DEFAULT_PORT, defaultLocalOrigins, HOST } from '@portal/contracts/manifest';
import { wildcardDomainProblems } from '@portal/contracts/redirect/allow-list-entries';
import { type Static, type TSchema, Type } from 'typebox';

const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof logLevels)[number];

/**
 * The shell and every remote as `npm start` serves them on this machine (the portal's manifest): at localhost, the
 * address it prints, and at 127.0.0.1, where a page still works (passkeys aside).
 */
export const defaultCorsOrigins = [...defaultLocalOrigins('localhost'), ...defaultLocalOrigins('127.0.0.1')];

export const environment = Type.Object({
  // `production` refuses the development defaults that are unsafe there (../config.ts).
  NODE_ENV: Type.Optional(Type.String()),
  DATABASE_URL: Type.Optional(
    Type.String({ pattern: /^postgres(ql)?:\/\//, errorMessage: 'debe empezar por postgres:// o postgresql://' }),
  ),
  ADMIN_EMAIL: Type.Optional(
    Type.String({
      lowercase: true,
      pattern: /^(?=.{0,254}$)[^\s@]+@[^\s@]+$/, // at most 254 characters
      errorMessage: 'no es un email válido (recibido "{value}")',
    }),
  ),
  ADMIN_PASSWORD: Type.Optional(
    Type.String({ trim: false, pattern: /^[\s\S]{6,256}$/, errorMessage: 'debe tener entre 6 y 256 caracteres' }),
  ),
  CORS_ORIGINS: Type.Array(origin(), { default: defaultCorsOrigins }),
  JWT_PRIVATE_KEY: Type.Optional(
    privateKey('debe ser una clave EC P-256 en formato PEM PKCS#8 (-----BEGIN PRIVATE KEY-----)'),
  ),
  SAML_IDP_PRIVATE_KEY: Type.Optional(
    privateKey('debe ser una clave RSA de 2048 o 3072 bits en formato PEM PKCS#8 (-----BEGIN PRIVATE KEY-----)'),
  ),
  SAML_IDP_CERTIFICATE: Type.Optional(
    certificate('debe ser un certificado X.509 en formato PEM (-----BEGIN CERTIFICATE-----)'),
  ),
  SAML_IDP_PREVIOUS_CERTIFICATE: Type.Optional(
    certificate('debe ser un certificado X.509 en formato PEM (-----BEGIN CERTIFICATE-----)'),
  ),
  SMTP_URL: Type.Optional(
    Type.String({
      pattern: /^smtps?:\/\/[^/]/,
      errorMessage: 'debe empezar por smtp:// o smtps:// (p. ej. smtp://usuario:clave@correo.example.com:587)',
    }),
  ),
  REDIS_URL: Type.Optional(
    Type.String({ pattern: /^rediss?:\/\/[^/]/, errorMessage: 'debe empezar por redis:// o rediss://' }),
  ),
  MAIL_FROM: Type.String({
    default: 'Portal de aplicaciones <no-reply@portal.local>',
    pattern: /^[^\r\n]*<?[^\s@<>]+@[^\s@<>]+>?$/,
    errorMessage: 'debe ser un remitente como "Portal <no-reply@empresa.com>" (recibido "{value}")',
  }),
  LOG_LEVEL: Type.Enum(logLevels, {
    default: 'info',
    errorMessage: `debe ser uno de ${logLevels.join(', ')} (recibido "{value}")`,
  }),
  PORT: integer(0, 65535, API_DEFAULT_PORT),
  HOST: Type.String({ default: '127.0.0.1' }),
  PORTAL_URL: origin(`http://localhost:${HOST.port}`),
  API_PUBLIC_URL: origin(),
  REDIRECT_WILDCARD_DOMAINS: refined(Type.Array(Type.String(), { default: [], lowercase: true }), [
    (domains) => wildcardDomainProblems(domains).length === 0,
    (domains) => wildcardDomainProblems(domains)[0] ?? '',
  ]),
  DATA_DIR: Type.Decode(Type.String(), (dir) => resolve(dir)),
  DATABASE_TIMEOUT_MS: integer(100, 60_000, 4_000),
  REQUEST_TIMEOUT_MS: integer(200, 120_000, 8_000),
  SHUTDOWN_DRAIN_MS: integer(0, 300_000, 0),
  TOKEN_TTL_SECONDS: integer(60, 60 * 60 * 24 * 30, 86_400),
  PARTNER_TOKEN_TTL_SECONDS: integer(60, 60 * 60 * 24, 3_600),
  LOGIN_RATE_LIMIT_PER_MINUTE: integer(1, 100_000, 20),
  AUTH_RATE_LIMIT_PER_MINUTE: integer(1, 100_000, 30),
  REDIS_KEY_PREFIX: Type.String({ default: 'portal:' }),
  TRUST_PROXY: proxies(),
  REDIRECT_ALLOW_LIST: Type.Array(Type.String(), { default: [] }),
  OIDC_ISSUER: origin(),
  OIDC_BACKCHANNEL_PRIVATE_NETWORK: flag(),
  PARTNER_EVENTS_TIMEOUT_MS: integer(100, 60_000, 10_000),
  COMPANY_PROVIDER_PRIVATE_NETWORK: flag(),
  GOOGLE_CLIENT_ID: Type.Optional(Type.String()),
  GOOGLE_CLIENT_SECRET: Type.Optional(Type.String()),
  APPLE_CLIENT_ID: Type.Optional(Type.String()),
  APPLE_TEAM_ID: Type.Optional(Type.String()),
  APPLE_KEY_ID: Type.Optional(Type.String()),
  APPLE_PRIVATE_KEY: Type.Optional(
    privateKey('debe ser el contenido del archivo .p8 de Apple (-----BEGIN PRIVATE KEY-----)'),
  ),
  GOOGLE_ISSUER: Type.Optional(issuer('https://accounts.google.com', 'GOOGLE_CLIENT_ID')),
  APPLE_ISSUER: Type.Optional(issuer('https://appleid.apple.com', 'APPLE_CLIENT_ID')),
  STRIPE_SECRET_KEY: Type.Optional(
    Type.String({
      pattern: /^(sk|rk)_(test|live)_\S+$/,
      errorMessage: 'debe ser una clave secreta de Stripe (sk_test_…, sk_live_… o rk_…)',
    }),
  ),
  STRIPE_API_BASE: Type.Optional(stripeApiBase()),
  ADMIN_SECOND_FACTOR: Type.Enum(['required', 'optional'], {
    default: 'required',
    errorMessage: 'debe ser required u optional (recibido "{value}")',
  }),
  WEBAUTHN_RP_ID: Type.String({
    lowercase: true,
    pattern: /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/,
    errorMessage: 'debe ser un nombre de dominio como portal.example.com (recibido "{value}")',
  }),
  WEBAUTHN_ORIGINS: Type.Array(origin()),
  WEBAUTHN_RP_NAME: Type.String({ default: 'Portal de Aplicaciones' }),
  METRICS_PORT: Type.Optional(integer(1, 65535)),
  METRICS_HOST: Type.String({ default: '127.0.0.1' }),
  METRICS_TOKEN: Type.Optional(
    Type.String({
      pattern: /^\S{32,}$/,
      errorMessage: 'debe tener al menos 32 caracteres sin espacios (p. ej. la salida de openssl rand -hex 32)',
    }),
  ),
});

// The kinds of variable above. Function declarations, so the schema can come first.

/** A whole number within a range. */
function integer(minimum: number, maximum: number, fallback?: number) {
  const range = `debe estar entre ${minimum} y ${maximum} (recibido {value})`;
  return Type.Integer({
    minimum,
    maximum,
    default: fallback,
    errorMessage: { type: 'debe ser un número entero (recibido "{value}")', minimum: range, maximum: range },
  });
}

/** true or false. */
function flag() {
  return Type.Boolean({ errorMessage: 'debe ser true o false (recibido "{value}")' });
}

/** `type` with further checks, in order, each with the Spanish problem it reports. */
function refined<T extends TSchema>(
  type: T,
  ...checks: [check: (value: Static<T>) => boolean, problem: (value: Static<T>) => string][]
): T {
  return checks.reduce((checked, [check, problem]) => Type.Refine(checked, check, problem) as T, type);
}

/** An origin such as https://portal.example.com; a trailing slash is dropped. */
function origin(fallback?: string) {
  const isOrigin = (raw: string) => {
    const url = URL.parse(raw);
    return (url?.protocol === 'http:' || url?.protocol === 'https:') && url.origin === raw.replace(/\/$/, '');
  };
  return Type.Decode(
    refined(
      Type.String({ default: fallback }),
      [(raw) => URL.canParse(raw), (raw) => `contiene un origen que no es una URL: "${raw}"`],
      [isOrigin, (raw) => `debe contener solo orígenes como https://portal.example.com (recibido "${raw}")`],
    ),
    (raw) => new URL(raw).origin,
  );
}

/** An OpenID Connect issuer: https, or http on this machine for the tests' providers; no trailing slash. */
function issuer(fallback: string, onlyWith: string) {
  const secure = (raw: string) => {
    const url = URL.parse(raw);
    const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(url?.hostname ?? '');
    return url?.protocol === 'https:' || (url?.protocol === 'http:' && loopback);
  };
  return Type.Decode(
    refined(
      Type.String({ default: fallback, onlyWith }),
      [(raw) => URL.canParse(raw), (raw) => `no es una URL (recibido "${raw}")`],
      [secure, (raw) => `debe ser una URL https:// (http:// solo en 127.0.0.1 para pruebas; recibido "${raw}")`],
    ),
    (raw) => raw.replace(/\/$/, ''),
  );
}

/** A PKCS#8 PEM; hosting panels often store it on one line with literal "\n". */
function privateKey(errorMessage: string) {
  const pem = Type.String({ pattern: /-----BEGIN PRIVATE KEY-----/, errorMessage });
  return Type.Decode(pem, (text) => text.replace(/\\n/g, '\n'));
}

function certificate(errorMessage: string) {
  const pem = Type.String({ pattern: /-----BEGIN CERTIFICATE-----/, errorMessage });
  return Type.Decode(pem, (text) => text.replace(/\\n/g, '\n'));
}

/**
 * Which proxies may say who the client is: false, a number of hops, or addresses/CIDRs. Never `true`: believing every
 * X-Forwarded-For would let any client pick its own address, and with it the per-address locks and rate limits.
 */
function proxies() {
  const hops = (raw: string) => /^\d+$/.test(raw);
  const addresses = (raw: string) =>
    raw
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean);
  return Type.Decode(
    refined(
      Type.String({ default: 'false' }),
      [
        (raw) => raw !== 'true',
        () =>
          'no acepta true (cualquier cliente podría elegir su dirección): indica el número de saltos o las direcciones de los balanceadores',
      ],
      [
        (raw) => !hops(raw) || (Number(raw) >= 1 && Number(raw) <= 10),
        (raw) => `debe estar entre 1 y 10 (recibido ${Number(raw)})`,
      ],
      [
        (raw) =>
          raw === 'false' || hops(raw) || addresses(raw).every((item) => /^[0-9a-f.:]+(\/\d{1,3})?$/i.test(item)),
        (raw) => `debe ser un número de saltos o direcciones IP/CIDR separadas por comas (recibido "${raw}")`,
      ],
    ),
    (raw): false | number | string[] => (raw === 'false' ? false : hops(raw) ? Number(raw) : addresses(raw)),
  );
}

/** Where the Stripe SDK sends its requests (only with a secret key): an http(s) URL, as protocol, host and port. */
function stripeApiBase() {
  return Type.Decode(
    refined(
      Type.String({ onlyWith: 'STRIPE_SECRET_KEY' }),
      [(raw) => URL.canParse(raw), (raw) => `debe ser una URL como http://127.0.0.1:12111 (recibido "${raw}")`],
      [
        (raw) => ['http:', 'https:'].includes(URL.parse(raw)?.protocol ?? ''),
        (raw) => `debe empezar por http:// o https:// (recibido "${raw}")`,
      ],
    ),
    (raw) => {
      const url = new URL(raw);
      const protocol: 'http' | 'https' = url.protocol === 'http:' ? 'http' : 'https';
      return { protocol, host: url.hostname, port: url.port ? Number(url.port) : protocol === 'http' ? 80 : 443 };
    },
  );
}
