// The API alone (`node api/dist/server.js`) on a port already taken: one Spanish line naming the port and PORT, the
// database it had opened released again, exit code 1. The port is held by this test.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { compiledApi } from './helpers/compiled-api.js';

const apiDir = fileURLToPath(new URL('../', import.meta.url));
const dataDir = mkdtempSync(join(tmpdir(), 'portal-api-port-'));
describe('server-port.test.ts', () => {
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  function runServer(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
    const childEnv: NodeJS.ProcessEnv = {
      ...process.env,
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      ...env,
    };
    delete childEnv.DATABASE_URL;
    delete childEnv.PORT_VARIABLE;
    const child = spawn(process.execPath, [compiledApi('server')], {
      cwd: apiDir,
      env: childEnv,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const killer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    return new Promise((resolve) =>
      child.once('exit', (code) => {
        clearTimeout(killer);
        resolve({ code, stderr });
      }),
    );
  }

  test('a taken PORT: the port and the variable named, the embedded database released, exit 1', async () => {
    const holder: Server = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const port = (holder.address() as { port: number }).port;
    try {
      const { code, stderr } = await runServer({ PORT: String(port) });
      assert.equal(code, 1);
      assert.equal(stderr.trim(), `El puerto ${port} (API) ya está en uso. Cierra el otro proceso o usa PORT=…`);
      // It had opened (and migrated) the embedded database before listening: the lock is given back.
      assert.ok(existsSync(join(dataDir, 'pglite')));
      assert.equal(existsSync(join(dataDir, 'pglite.lock')), false);
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  });
});
