// The product the browser suite starts: its own ports and data folder, so it never meets a portal left running.
import path from 'node:path';
import { execFileSync } from 'node:child_process';

export const ROOT = path.resolve(__dirname, '..', '..');

/** E2E_PORT_OFFSET moves every port (and the data folder), so two suites can run side by side on one machine. */
const offset = Number(process.env.E2E_PORT_OFFSET ?? 0) || 0;

export const E2E = {
  apiPort: 3100 + offset,
  hostPort: 8180 + offset,
  authPort: 3101 + offset,
  appsPort: 3102 + offset,
  adminPort: 3103 + offset,
  calculatorPort: 3104 + offset,
  /** A second shell, started by a test, whose calculator remote is down until the test brings it up. */
  spareHostPort: 8181 + offset,
  spareCalculatorPort: 3194 + offset,
  /** Where a spare shell's API is: nothing listens there until a test starts a relay to the real API. */
  spareApiPort: 3195 + offset,
  /** The SMTP sink the API delivers mail to (support/mail-sink.ts) and a partner web app allowed as redirect target. */
  smtpPort: 3107 + offset,
  partnerPort: 3108 + offset,
  /** The test identity providers standing in for Google and Apple (api/test/helpers/identity-provider-server.ts). */
  googlePort: 3109 + offset,
  applePort: 3110 + offset,
  /** A company's own identity provider (like Entra ID), in the same process (tests/company-sign-in.spec.ts). */
  companyIdpPort: 3120 + offset,
  /** SAML software the project did not write (tests/saml.spec.ts): SimpleSAMLphp as a company's IdP, Apache with
   * mod_auth_mellon as partner apps. */
  samlIdpPort: 3121 + offset,
  mellonPort: 3122 + offset,
  /** A partner app guarding a page by an app role (tests/app-roles-apache.spec.ts): Apache with mod_auth_openidc,
   * Apache with mod_auth_mellon. */
  roleOpenidcPort: 3123 + offset,
  roleMellonPort: 3124 + offset,
  /** The OpenID Connect spec's relying parties (support/relying-parties/): a single-page app, two server apps. */
  spaPort: 3116 + offset,
  serverAppPort: 3117 + offset,
  thirdPartyAppPort: 3118 + offset,
  /** The companies spec's partner server app, asking for the `organization` scope (tests/companies.spec.ts). */
  companyAppPort: 3119 + offset,
  /** A second product started by a test the way a person starts it (`npm start`, no address set): its parts' ports. */
  ownStart: {
    api: 3111 + offset,
    auth: 3112 + offset,
    apps: 3113 + offset,
    admin: 3114 + offset,
    calculator: 3115 + offset,
    host: 8182 + offset,
  },
  dataDir: path.join(ROOT, '.data', offset ? `e2e-${offset}` : 'e2e'),
  adminEmail: 'admin@e2e.portal.test',
  adminPassword: 'Admin-e2e-2026!',
} as const;

/**
 * The portal and the API where `npm start` prints and configures them: localhost, where every feature works (a page
 * on an IP address cannot use passkeys). The same pages opened at 127.0.0.1 work too, passkeys aside.
 */
export const HOST_URL = `http://localhost:${E2E.hostPort}`;
export const API_URL = `http://localhost:${E2E.apiPort}`;
/** The same portal opened at an IP address. */
export const HOST_IP_URL = `http://127.0.0.1:${E2E.hostPort}`;
export const PARTNER_URL = `http://127.0.0.1:${E2E.partnerPort}`;
/** The single-page app on localhost (an origin of its own); the server apps on 127.0.0.1 (back-channel logouts). */
export const SPA_URL = `http://localhost:${E2E.spaPort}`;
export const SERVER_APP_URL = `http://127.0.0.1:${E2E.serverAppPort}`;
export const THIRD_PARTY_APP_URL = `http://127.0.0.1:${E2E.thirdPartyAppPort}`;
/** Where the SMTP sink writes each received mail (inside the data folder, so every run starts with an empty inbox). */
export const MAIL_DIR = path.join(E2E.dataDir, 'mail');

/** The product's default redirect allow-list, read from its one source (an ES module the config loader cannot import). */
function defaultRedirectAllowList(): string[] {
  const script = `import('./scripts/lib/parts.mjs').then((m) => console.log(JSON.stringify(m.DEFAULT_REDIRECT_ALLOW_LIST)))`;
  return JSON.parse(execFileSync(process.execPath, ['-e', script], { cwd: ROOT, encoding: 'utf8' })) as string[];
}

// Named like the API (localhost): Apple's form_post then reaches it same-site, with its Lax sign-in cookie.
export const GOOGLE_ISSUER = `http://localhost:${E2E.googlePort}`;
export const APPLE_ISSUER = `http://localhost:${E2E.applePort}`;
/**
 * A company's own provider, as a platform administrator connects it (PUT /admin/empresas/:id/proveedor): its issuer
 * and the client it registered for the portal. The API reads none of these; the test gives them with the company.
 */
export const COMPANY_IDP = {
  issuer: `http://localhost:${E2E.companyIdpPort}`,
  clientId: 'portal-e2e-empresa',
  clientSecret: 'secreto-e2e-empresa',
} as const;

/**
 * Sign-in with Google and Apple against the test identity providers: the same variables for the API and for the
 * providers' process (the company's provider's port and client, the providers' process only). Apple's key is made per
 * run (the runner passes the one it made to both processes).
 */
export function identityEnv(applePrivateKeyPem: string): Record<string, string> {
  return {
    API_PUBLIC_URL: API_URL,
    GOOGLE_ISSUER,
    GOOGLE_CLIENT_ID: 'portal-e2e-google',
    GOOGLE_CLIENT_SECRET: 'secreto-e2e-google',
    APPLE_ISSUER,
    APPLE_CLIENT_ID: 'com.portal.e2e',
    APPLE_TEAM_ID: 'EQUIPOE2E1',
    APPLE_KEY_ID: 'CLAVEE2E01',
    APPLE_PRIVATE_KEY: applePrivateKeyPem,
    IDP_GOOGLE_PORT: String(E2E.googlePort),
    IDP_APPLE_PORT: String(E2E.applePort),
    IDP_COMPANY_PORT: String(E2E.companyIdpPort),
    IDP_COMPANY_CLIENT_ID: COMPANY_IDP.clientId,
    IDP_COMPANY_CLIENT_SECRET: COMPANY_IDP.clientSecret,
  };
}

/** Environment for scripts/start.mjs. */
export function portalEnv(): Record<string, string> {
  return {
    API_PORT: String(E2E.apiPort),
    HOST_PORT: String(E2E.hostPort),
    REMOTE_AUTH_PORT: String(E2E.authPort),
    REMOTE_APPS_PORT: String(E2E.appsPort),
    REMOTE_ADMIN_PORT: String(E2E.adminPort),
    REMOTE_CALCULATOR_PORT: String(E2E.calculatorPort),
    DATA_DIR: E2E.dataDir,
    ADMIN_EMAIL: E2E.adminEmail,
    ADMIN_PASSWORD: E2E.adminPassword,
    CORS_EXTRA_ORIGINS: `http://127.0.0.1:${E2E.spareHostPort}`,
    LOG_LEVEL: 'warn',
    // The suite signs in through the API from 127.0.0.1 many times a minute (every test starts signed in); the
    // default 20 a minute per IP would answer some of those with 429. The limit itself has its own API tests.
    LOGIN_RATE_LIMIT_PER_MINUTE: '300',
    // Every admin spec starts from a token the API answers to the administrator's password (signInAsAdmin). The
    // production default (required: only a session that proved a second factor administers) is covered by the API's
    // second-factor and passkeys suites and by scripts/check-production-api.mjs; second-factor.spec.ts and
    // passkeys.spec.ts play the second step itself in Chromium.
    ADMIN_SECOND_FACTOR: 'optional',
    SMTP_URL: `smtp://127.0.0.1:${E2E.smtpPort}`,
    REDIRECT_ALLOW_LIST: [...defaultRedirectAllowList(), PARTNER_URL].join(','),
  };
}
