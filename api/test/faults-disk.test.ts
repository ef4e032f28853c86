// A full disk, with real processes: the API (`node api/dist/server.js`) on a tmpfs of the test's own, PGlite's DATA_DIR or a
// PostgreSQL server of this file's own on it. The test fills the disk with a file and deletes it again. Also what a
// start refused by PGlite's file system for another reason says.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { pgliteExtensions } from '../src/db/client.js';
import { messages } from '../src/lib/errors.js';
import { registration } from './helpers/accounts.js';
import { backends } from './helpers/app.js';
import { compiledApi } from './helpers/compiled-api.js';
import { createPostgresCluster, type PostgresCluster } from './helpers/postgres-cluster.js';
import { type Answer, call, freePort, logLines, startApi, waitFor, type ApiProcess } from './helpers/processes.js';
import { mountSmallDisk, type SmallDisk } from './helpers/small-disk.js';

const apiDir = fileURLToPath(new URL('../', import.meta.url));

/** The environment every API here runs with: no outside services, and no DATABASE_URL unless given. */
const baseEnv = (env: Record<string, string | undefined>): Record<string, string | undefined> => ({
  DATABASE_URL: undefined,
  SMTP_URL: undefined,
  REDIS_URL: undefined,
  ADMIN_EMAIL: undefined,
  ADMIN_PASSWORD: undefined,
  PORT_VARIABLE: undefined,
  LOG_LEVEL: 'warn',
  AUTH_RATE_LIMIT_PER_MINUTE: '1000',
  ...env,
});

/** Starts the API once and waits for it to exit by itself (it should not start): its exit code and what it printed. */
function startExpectingExit(env: Record<string, string | undefined>) {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, HOST: '127.0.0.1', ...baseEnv(env) };
  for (const [name, value] of Object.entries(childEnv)) if (value === undefined) delete childEnv[name];
  const child = spawn(process.execPath, [compiledApi('server')], {
    cwd: apiDir,
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const killer = setTimeout(() => child.kill('SIGKILL'), 120_000);
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.once('exit', (code) => {
      clearTimeout(killer);
      resolve({ code, stdout, stderr });
    }),
  );
}

/** The status and body of an answer, to compare whole. */
const statusAndBody = ({ status, body }: Answer) => ({ status, body });

/** One unlabelled metric's value from a scrape of the metrics port ('absent' when the scrape has no such line). */
async function metric(metricsPort: number, name: string): Promise<string> {
  const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  return new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? 'absent';
}

const unavailable = { statusCode: 503, message: messages.unavailable, code: 'SERVICE_UNAVAILABLE' };
const cannotWrite = { statusCode: 503, message: messages.databaseCannotWrite, code: 'DATABASE_CANNOT_WRITE' };

/** What a registration of `email` left in the database, table by table. */
const rowsSql = `SELECT
  (SELECT count(*) FROM users WHERE email = $1)::int AS users,
  (SELECT count(*) FROM pending_registrations p JOIN users u ON u.id = p.user_id WHERE u.email = $1)::int AS registrations,
  (SELECT count(*) FROM account_codes c JOIN users u ON u.id = c.user_id WHERE u.email = $1)::int AS codes,
  (SELECT count(*) FROM mail_outbox WHERE recipient = $1)::int AS mails`;
type Rows = { users: number; registrations: number; codes: number; mails: number };

/**
 * The story of a disk that fills up under a running API and is freed again, the same on both backends: readiness and
 * /health say the database cannot write (liveness stays 200), a registration gets the Spanish 503 and leaves nothing,
 * the metrics say it, the log tells it once; freed, the API serves again by itself and the same address registers.
 */
async function fillAndFree(
  api: ApiProcess,
  disk: SmallDisk,
  metricsPort: number,
  rowsOf: (email: string) => Promise<Rows>,
) {
  const pid = api.child.pid;
  const email = 'disco-lleno@portal.test';
  assert.deepEqual((await call(api, 'GET', '/health/ready')).body, { status: 'ok', database: 'ok' });
  const errorsBefore = logLines(api, 50).length;

  await disk.fill();
  const ready = await waitFor(
    'readiness to say the database cannot write',
    async () => {
      const answer = await call(api, 'GET', '/health/ready');
      return answer.status === 503 && answer;
    },
    20_000,
    250,
  );
  assert.deepEqual(ready.body, cannotWrite);
  assert.deepEqual(statusAndBody(await call(api, 'GET', '/health')), { status: 503, body: cannotWrite });
  assert.deepEqual(statusAndBody(await call(api, 'GET', '/health/live')), { status: 200, body: { status: 'ok' } });
  assert.equal(await metric(metricsPort, 'portal_database_writable'), '0');
  assert.equal(await metric(metricsPort, 'portal_database_up'), '1', 'the database still answers reads');
  for (let i = 0; i < 3; i++) {
    assert.deepEqual(statusAndBody(await call(api, 'POST', '/auth/register', registration(email))), {
      status: 503,
      body: unavailable,
    });
  }
  // Reads still work: the catalogue is served.
  assert.equal((await call(api, 'GET', '/apps/listar')).status, 200);
  assert.equal((await call(api, 'GET', '/health/ready')).status, 503);

  await disk.free();
  await waitFor(
    'readiness once the disk has room',
    async () => (await call(api, 'GET', '/health/ready')).status === 200,
    20_000,
    250,
  );
  assert.deepEqual(statusAndBody(await call(api, 'GET', '/health')), {
    status: 200,
    body: { status: 'ok', database: 'ok' },
  });
  assert.equal(await metric(metricsPort, 'portal_database_writable'), '1');
  const registered = await call(api, 'POST', '/auth/register', registration(email));
  assert.equal(registered.status, 201, JSON.stringify(registered.body));
  assert.equal(api.child.pid, pid);
  assert.equal(api.child.exitCode, null);

  // Told once when it began, once when it ended: no line per refused request.
  await waitFor('the end in the log', () => logLines(api, 40).some((line) => line.msg === 'database can write again'));
  assert.deepEqual(
    logLines(api, 50)
      .slice(errorsBefore)
      .map((line) => line.msg),
    ['database cannot write: readiness answers 503 until a write probe succeeds'],
  );
  // The refused registrations left nothing: the one accepted afterwards is the only one of that address.
  assert.deepEqual(await rowsOf(email), { users: 1, registrations: 1, codes: 1, mails: 1 });
}

const dataDirLine = (dataDir: string) =>
  `No se pudo iniciar la API: no queda espacio en ${dataDir} (libera espacio o usa otro DATA_DIR)`;

if (backends.includes('pglite'))
  describe('the embedded database (PGlite) on a small disk', () => {
    let disk: SmallDisk;
    let api: ApiProcess | undefined;
    let dataDir: string;

    before(async () => {
      // Smaller than a fresh database (about 40 MB).
      disk = await mountSmallDisk('faults-disk', 8);
      dataDir = join(disk.dir, 'data');
    });
    after(async () => {
      if (api && api.child.exitCode !== null) process.stderr.write(`API exited:\n${api.output()}\n`);
      await api?.stop();
      await disk?.unmount();
    });

    it('a fresh start that runs out of room: one Spanish line naming DATA_DIR and the fix, exit 1', async () => {
      const { code, stdout, stderr } = await startExpectingExit({ DATA_DIR: dataDir, PORT: String(await freePort()) });
      assert.equal(code, 1);
      assert.equal(stderr.trim(), dataDirLine(dataDir));
      assert.equal(stdout, '', 'nothing else, no stack');
    });

    it('a start on a disk with no room at all (not even for the lock file): the same line', async () => {
      await disk.fill();
      try {
        const { code, stdout, stderr } = await startExpectingExit({
          DATA_DIR: dataDir,
          PORT: String(await freePort()),
        });
        assert.equal(code, 1);
        assert.equal(stderr.trim(), dataDirLine(dataDir));
        assert.equal(stdout, '');
      } finally {
        await disk.free();
      }
    });

    it('a start that PGlite refuses with a bare file error (no message): named, never undefined', async () => {
      // DATA_DIR/pglite is a file, not a folder: PGlite throws `{ name: 'ErrnoError', errno: 54 }`, Emscripten's ENOTDIR.
      const elsewhere = mkdtempSync(join(tmpdir(), 'portal-faults-disk-notdir-'));
      try {
        writeFileSync(join(elsewhere, 'pglite'), '');
        const { code, stdout, stderr } = await startExpectingExit({
          DATA_DIR: elsewhere,
          PORT: String(await freePort()),
        });
        assert.equal(stdout, '');
        assert.equal(code, 1);
        assert.equal(
          stderr.trim(),
          `No se pudo iniciar la API: la base de datos embebida no pudo usar sus archivos en ${join(elsewhere, 'pglite')} (ENOTDIR)`,
        );
      } finally {
        rmSync(elsewhere, { recursive: true, force: true });
      }
    });

    it('given room, the same DATA_DIR starts; when the disk then fills up the API says it cannot write, and serves again once freed', async () => {
      await disk.resize(200);
      const metricsPort = await freePort();
      api = await startApi(baseEnv({ DATA_DIR: dataDir, METRICS_PORT: String(metricsPort) }), {
        readyWithinMs: 120_000,
      });
      let rows: Rows | undefined;
      await fillAndFree(api, disk, metricsPort, async () => {
        // PGlite is one process's: the rows are read once the API has stopped.
        await api!.stop();
        const db = await PGlite.create({ dataDir: join(dataDir, 'pglite'), extensions: pgliteExtensions });
        try {
          rows = (await db.query<Rows>(rowsSql, ['disco-lleno@portal.test'])).rows[0];
        } finally {
          await db.close();
        }
        return rows!;
      });
    });
  });

if (backends.includes('postgres'))
  describe('PostgreSQL on a small disk', () => {
    let disk: SmallDisk;
    let cluster: PostgresCluster;
    let api: ApiProcess | undefined;
    let db: pg.Pool;
    let dataDir: string;

    before(async () => {
      // A fresh cluster takes about 40 MB, its write-ahead log included.
      disk = await mountSmallDisk('faults-disk-pg', 120);
      cluster = await createPostgresCluster({ parentDir: disk.dir });
      db = new pg.Pool({ connectionString: cluster.url, max: 2 });
      db.on('error', () => {});
      // The API's own DATA_DIR (its signing key) is elsewhere: only the database's disk fills up.
      dataDir = mkdtempSync(join(tmpdir(), 'portal-faults-disk-data-'));
    });
    after(async () => {
      if (api && api.child.exitCode !== null) process.stderr.write(`API exited:\n${api.output()}\n`);
      await api?.stop();
      await db?.end().catch(() => {});
      await cluster?.drop();
      await disk?.unmount();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    });

    it('a first start (migrations) on a full database disk: one Spanish line naming the server, exit 1', async () => {
      await disk.fill();
      try {
        const { code, stdout, stderr } = await startExpectingExit({
          DATABASE_URL: cluster.url,
          DATA_DIR: dataDir,
          PORT: String(await freePort()),
        });
        assert.equal(code, 1);
        assert.equal(
          stderr.trim(),
          `No se pudo iniciar la API: no queda espacio en el disco de PostgreSQL (${new URL(cluster.url).host}): libera espacio en ese servidor`,
        );
        assert.equal(stdout, '', 'nothing else, no stack');
      } finally {
        await disk.free();
      }
    });

    it('a running API whose database disk fills up says it cannot write, and serves again once freed', async () => {
      const metricsPort = await freePort();
      api = await startApi(
        baseEnv({ DATABASE_URL: cluster.url, DATA_DIR: dataDir, METRICS_PORT: String(metricsPort) }),
        { readyWithinMs: 120_000 },
      );
      await fillAndFree(api, disk, metricsPort, async (email) => (await db.query<Rows>(rowsSql, [email])).rows[0]!);
    });
  });
