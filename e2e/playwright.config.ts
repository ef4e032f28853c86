import { generateKeyPairSync } from 'node:crypto';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { COMPANY_IDP, E2E, HOST_URL, identityEnv, portalEnv, ROOT } from './support/env';

// Each run starts from an empty embedded database (the workers read this file too: only the runner cleans).
if (!process.env.TEST_WORKER_INDEX) rmSync(E2E.dataDir, { recursive: true, force: true });

// Apple's sign-in key for this run, given to the API and to the test identity providers alike.
const appleKey = generateKeyPairSync('ec', { namedCurve: 'P-256' })
  .privateKey.export({ type: 'pkcs8', format: 'pem' })
  .toString();
const environment = { ...(process.env as Record<string, string>), ...identityEnv(appleKey) };

// Two runs side by side (scripts/test.mjs runs the suite in two parts, E2E_PORT_OFFSET apart) keep their results and
// reports apart too, as their data folders (support/env.ts).
const runFolder = path.basename(E2E.dataDir);

export default defineConfig({
  testDir: './tests',
  outputDir: path.join(__dirname, 'test-results', runFolder),
  fullyParallel: false,
  workers: 1,
  forbidOnly: true,
  retries: 0,
  // Bounds for a hang, not targets: on a loaded two-core machine (CI's two streams side by side, or a slower host) a
  // page that answers in a second on a quiet one can take ten.
  timeout: 60_000,
  expect: { timeout: 15_000 },
  // The timings reporter gives `npm test` each spec file's seconds and the counts (scripts/lib/test-report.mjs).
  reporter: [
    ['list'],
    ['./support/timings-reporter.ts'],
    ...(process.env.CI
      ? []
      : [['html', { open: 'never', outputFolder: path.join(__dirname, 'playwright-report', runFolder) }] as const]),
  ],
  use: {
    baseURL: HOST_URL,
    locale: 'es-ES',
    // Recording a trace costs about a sixth of the suite's processor time, spent on every test: none is recorded unless
    // asked (`npx playwright test --trace retain-on-failure`); a failure still leaves its screenshot.
    trace: 'off',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  webServer: [
    {
      command: 'node --import tsx api/test/helpers/identity-provider-server.ts',
      cwd: ROOT,
      // The company's provider starts last of the three (Google's and Apple's are up by then).
      url: `${COMPANY_IDP.issuer}/.well-known/openid-configuration`,
      env: environment,
      timeout: 60_000,
      reuseExistingServer: false,
      stdout: 'pipe',
      stderr: 'pipe',
    },
    {
      command: 'node scripts/start.mjs',
      cwd: ROOT,
      url: HOST_URL,
      env: { ...environment, ...portalEnv() },
      // A clean clone builds the API and five bundles first: minutes, more on a busy machine. A bound, not a target.
      timeout: 900_000,
      reuseExistingServer: false,
      stdout: 'pipe',
      stderr: 'pipe',
    },
  ],
});
