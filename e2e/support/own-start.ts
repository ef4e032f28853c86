// `npm start` as a person runs it, beside the suite's product: no address set, no Google or Apple configured.
import { type ChildProcess, spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { E2E, ROOT } from './env';

export interface OwnStart {
  /** The portal's address as `npm start` prints it. */
  printed: string;
  stop(): Promise<void>;
}

/**
 * Starts the product with `scripts/start.mjs --no-build` (the build done already) on ports of its own and a data folder
 * of its own (`name`, inside the suite's), and answers once it printed the address to open.
 */
export async function startAsAPerson(name: string): Promise<OwnStart> {
  const dataDir = path.join(E2E.dataDir, name);
  rmSync(dataDir, { recursive: true, force: true });
  const ports = E2E.ownStart;
  const env: Record<string, string | undefined> = {
    ...process.env,
    API_PORT: String(ports.api),
    REMOTE_AUTH_PORT: String(ports.auth),
    REMOTE_APPS_PORT: String(ports.apps),
    REMOTE_ADMIN_PORT: String(ports.admin),
    REMOTE_CALCULATOR_PORT: String(ports.calculator),
    HOST_PORT: String(ports.host),
    DATA_DIR: dataDir,
    ADMIN_EMAIL: E2E.adminEmail,
    ADMIN_PASSWORD: E2E.adminPassword,
    ADMIN_SECOND_FACTOR: 'optional',
  };
  for (const variable of Object.keys(env)) {
    if (/^(GOOGLE|APPLE)_/.test(variable)) delete env[variable];
  }
  for (const variable of [
    'BIND_HOST',
    'PUBLIC_PORTAL_URL',
    'PUBLIC_API_URL',
    'PORTAL_URL',
    'API_PUBLIC_URL',
    'DATABASE_URL',
  ])
    delete env[variable];
  const child: ChildProcess = spawn(process.execPath, ['scripts/start.mjs', '--no-build'], {
    cwd: ROOT,
    env,
    stdio: 'pipe',
  });
  let output = '';
  const printed = await new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (chunk) => {
      output += chunk;
      const address = /Portal listo: abre (\S+)/.exec(output)?.[1];
      if (address) resolve(address);
    });
    child.stderr?.on('data', (chunk) => {
      output += chunk;
    });
    child.once('exit', (code) => reject(new Error(`npm start terminó (${code}):\n${output}`)));
  });
  return {
    printed,
    async stop() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      // SIGTERM, kill's default: the start stops every part it started.
      child.kill();
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
