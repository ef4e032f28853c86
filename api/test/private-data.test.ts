// What the API keeps on disk (signing key, PGlite files and their write-ahead log, where codes pass in clear) is
// readable by its owner only, on a new data directory and on one an older version left open.
import assert from 'node:assert/strict';
import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { registration } from './helpers/accounts.js';
import { startApi } from './helpers/processes.js';

const root = mkdtempSync(join(tmpdir(), 'portal-private-'));
describe('private-data.test.ts', () => {
  after(() => rmSync(root, { recursive: true, force: true }));

  /** Every path under `dir` (itself included) that a group or other user could read, write or enter. */
  function openToOthers(dir: string): string[] {
    const found: string[] = [];
    const walk = (path: string) => {
      const stat = lstatSync(path);
      if (stat.isSymbolicLink()) return;
      if ((stat.mode & 0o077) !== 0) found.push(`${path} ${(stat.mode & 0o777).toString(8)}`);
      if (stat.isDirectory()) for (const name of readdirSync(path)) walk(join(path, name));
    };
    walk(dir);
    return found;
  }

  async function runApiOnce(dataDir: string) {
    const api = await startApi({
      DATA_DIR: dataDir,
      DATABASE_URL: undefined,
      REDIS_URL: undefined,
      SMTP_URL: undefined,
    });
    try {
      // A registration writes a password hash and a code through the write-ahead log.
      const response = await fetch(`${api.url}/auth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(registration('privada@portal.test')),
      });
      assert.equal(response.status, 201);
    } finally {
      await api.stop();
    }
  }

  describe('the data directory', () => {
    it('a new one is created 0700 and every file in it 0600', async () => {
      const dataDir = join(root, 'nuevo');
      await runApiOnce(dataDir);
      assert.equal(lstatSync(dataDir).mode & 0o777, 0o700);
      assert.ok(readdirSync(join(dataDir, 'pglite')).length > 0, 'PGlite wrote its files');
      assert.deepEqual(openToOthers(dataDir), []);
    });

    it('one left readable by an older version is tightened at start', async () => {
      const dataDir = join(root, 'antiguo');
      mkdirSync(join(dataDir, 'keys'), { recursive: true, mode: 0o755 });
      chmodSync(dataDir, 0o755);
      writeFileSync(join(dataDir, 'notas.txt'), 'restos', { mode: 0o644 });
      chmodSync(join(dataDir, 'notas.txt'), 0o666);
      await runApiOnce(dataDir);
      assert.deepEqual(openToOthers(dataDir), []);
    });
  });
});
