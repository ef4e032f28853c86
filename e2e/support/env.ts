// The product the browser suite starts: its own ports and data folder, so it never meets a portal left running.
import path from 'node:path';

export const ROOT = path.resolve(__dirname, '..', '..');

export const E2E = {
  apiPort: 3100,
  hostPort: 8180,
  calculatorPort: 3104,
  /** A second shell, started by a test, whose calculator remote is down until the test brings it up. */
  spareHostPort: 8181,
  spareCalculatorPort: 3194,
  dataDir: path.join(ROOT, '.data', 'e2e'),
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
    REMOTE_CALCULATOR_PORT: String(E2E.calculatorPort),
    DATA_DIR: E2E.dataDir,
    ADMIN_EMAIL: E2E.adminEmail,
    ADMIN_PASSWORD: E2E.adminPassword,
    CORS_EXTRA_ORIGINS: `http://127.0.0.1:${E2E.spareHostPort}`,
    LOG_LEVEL: 'warn',
  };
}
