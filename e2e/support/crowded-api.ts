// An API of a test's own, on the spare API port, whose database already holds more people than the suite could sign
// up: a temporary data folder prepared by api/test/helpers/seed-many-users.ts, then the same compiled API the suite
// runs (api/dist/server.js, built by the suite's start), accepting calls from the spare shell.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { E2E, ROOT } from './env';

export interface CrowdedApi {
  url: string;
  /** Stops the API and removes its data folder. */
  close(): Promise<void>;
}

/**
 * Starts the API with the suite's administrator and `count` active people `<tag>-0001@e2e.portal.test` …, one minute
 * apart and numbered newest first, for a shell at `shellUrl` (its origin is the one CORS allows).
 */
export async function startCrowdedApi(options: { tag: string; count: number; shellUrl: string }): Promise<CrowdedApi> {
  const url = `http://127.0.0.1:${E2E.spareApiPort}`;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-e2e-crowded-'));
  const env = {
    ...process.env,
    // The embedded database in this folder, whatever the machine's environment says.
    DATABASE_URL: '',
    REDIS_URL: '',
    DATA_DIR: dataDir,
    ADMIN_EMAIL: E2E.adminEmail,
    ADMIN_PASSWORD: E2E.adminPassword,
    ADMIN_SECOND_FACTOR: 'optional',
    HOST: '127.0.0.1',
    PORT: String(E2E.spareApiPort),
    API_PUBLIC_URL: url,
    PORTAL_URL: options.shellUrl,
    CORS_ORIGINS: options.shellUrl,
    LOG_LEVEL: 'warn',
  };
  let child: ChildProcess | undefined;
  // A worker that ends without the test's `finally` (a timeout) still takes the API and its folder with it.
  const leftBehind = () => {
    child?.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  };
  process.once('exit', leftBehind);
  const close = async () => {
    process.off('exit', leftBehind);
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child?.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'api/test/helpers/seed-many-users.ts', options.tag, String(options.count)],
      { cwd: ROOT, env },
    );
    const started = spawn(process.execPath, ['api/dist/server.js'], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    child = started;
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (started.exitCode !== null) throw new Error(`the API stopped (code ${started.exitCode})`);
      const healthy = await fetch(`${url}/health`).then(
        (response) => response.ok,
        () => false,
      );
      if (healthy) break;
      if (Date.now() > deadline) throw new Error(`the API did not answer at ${url}/health`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  } catch (error) {
    await close();
    throw error;
  }
  return { url, close };
}
