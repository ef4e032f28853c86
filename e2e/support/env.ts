// The product the browser suite starts: its own ports and data folder, so it never meets a portal left running.
import path from 'node:path';

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
  dataDir: path.join(ROOT, '.data', offset ? `e2e-${offset}` : 'e2e'),
  adminEmail: 'admin@e2e.portal.test',
  adminPassword: 'Admin-e2e-2026!',
} as const;

export const HOST_URL = `http://127.0.0.1:${E2E.hostPort}`;
export const API_URL = `http://127.0.0.1:${E2E.apiPort}`;

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
  };
}
