// The whole API as a bench runs it: a throw-away embedded database unless BENCH_DATABASE_URL names a PostgreSQL to
// use, no logs, the per-address limits out of the way, and whatever the bench's own variables add.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/client.js';
import type { Clock } from '../src/domain/clock.js';

/**
 * Every call of a bench comes from 127.0.0.1: at the API's per-address limits most of the load would be answered 429
 * (a route that gains a limit would stop a bench that raised only the others). Raised here for every bench, once.
 */
const perAddressLimitsRaised = {
  LOGIN_RATE_LIMIT_PER_MINUTE: '100000',
  AUTH_RATE_LIMIT_PER_MINUTE: '100000',
};

export async function startBenchApi(env: Record<string, string> = {}, { clock }: { clock?: Clock } = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-bench-'));
  const config = loadConfig({
    ...perAddressLimitsRaised,
    ...process.env,
    DATABASE_URL: process.env.BENCH_DATABASE_URL,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    ...env,
  });
  // Opened before buildApp: a cold PGlite start on a busy machine can outlast Fastify's 10 s plugin timeout.
  const app = await buildApp({ config, database: await openDatabase(config), clock });
  /** Closes the API and removes its data. */
  const dispose = async () => {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
  return { app, dispose };
}
