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
  /** The SMTP sink the API delivers mail to (support/mail-sink.ts) and a partner web app allowed as redirect target. */
  smtpPort: 3107 + offset,
  partnerPort: 3108 + offset,
  dataDir: path.join(ROOT, '.data', offset ? `e2e-${offset}` : 'e2e'),
  adminEmail: 'admin@e2e.portal.test',
  adminPassword: 'Admin-e2e-2026!',
} as const;

export const HOST_URL = `http://127.0.0.1:${E2E.hostPort}`;
export const API_URL = `http://127.0.0.1:${E2E.apiPort}`;
export const PARTNER_URL = `http://127.0.0.1:${E2E.partnerPort}`;
/** Where the SMTP sink writes each received mail (inside the data folder, so every run starts with an empty inbox). */
export const MAIL_DIR = path.join(E2E.dataDir, 'mail');

/** The product's default redirect allow-list, read from its one source (an ES module the config loader cannot import). */
function defaultRedirectAllowList(): string[] {
  const script = `import('./scripts/lib/parts.mjs').then((m) => console.log(JSON.stringify(m.DEFAULT_REDIRECT_ALLOW_LIST)))`;
  return JSON.parse(execFileSync(process.execPath, ['-e', script], { cwd: ROOT, encoding: 'utf8' })) as string[];
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
    SMTP_URL: `smtp://127.0.0.1:${E2E.smtpPort}`,
    REDIRECT_ALLOW_LIST: [...defaultRedirectAllowList(), PARTNER_URL].join(','),
  };
}
