// The server side of auth.bench.ts, in a process of its own so the load generator does not share its event loop:
// the whole API and, beside it in the same process, a bare Fastify route as the floor to compare against.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/client.js';

const dataDir = mkdtempSync(join(tmpdir(), 'portal-bench-'));
// A throw-away embedded database unless BENCH_DATABASE_URL names a PostgreSQL to use (it gets the bench's admin).
const config = loadConfig({
  ...process.env,
  DATABASE_URL: process.env.BENCH_DATABASE_URL,
  DATA_DIR: dataDir,
  LOG_LEVEL: 'silent',
});
// Opened before buildApp: a cold PGlite start on a busy machine can outlast Fastify's 10 s plugin timeout.
const api = await buildApp({ config, database: await openDatabase(config) });
const bare = Fastify({ logger: false });
bare.get('/bare', async () => ({ ok: true }));

const apiAddress = await api.listen({ host: '127.0.0.1', port: 0 });
const bareAddress = await bare.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(`${JSON.stringify({ api: apiAddress, bare: bareAddress })}\n`);

process.once('SIGTERM', async () => {
  await Promise.all([api.close(), bare.close()]);
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(0);
});
