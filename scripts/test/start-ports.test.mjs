// `npm start` with a port already taken: one Spanish line naming the part, the port and the variable that moves it,
// the parts already started stopped, a non-zero exit. The port is held by a listener of this test.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { buildApi } from '../lib/build-api.mjs';
import { ROOT } from '../lib/parts.mjs';

/** @type {string[]} */
const dataDirs = [];
after(() => {
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
});

/** @param {number} port @returns {Promise<import('node:net').Server>} */
function listen(port) {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => resolve(server));
  });
}

const close = (/** @type {import('node:net').Server} */ server) => new Promise((resolve) => server.close(resolve));

/** @param {number} count */
async function freePorts(count) {
  const servers = [];
  for (let i = 0; i < count; i++) servers.push(await listen(0));
  const ports = servers.map((server) => /** @type {import('node:net').AddressInfo} */ (server.address()).port);
  await Promise.all(servers.map(close));
  return ports;
}

/** True when something listens on the port (the test can not take it). */
/** @param {number} port */
async function taken(port) {
  try {
    await close(await listen(port));
    return false;
  } catch {
    return true;
  }
}

async function portalEnv() {
  const [api, auth, apps, admin, calculator, host] = /** @type {[number, number, number, number, number, number]} */ (
    await freePorts(6)
  );
  const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-start-ports-'));
  dataDirs.push(dataDir);
  /** @type {import('../lib/types.js').Env} */
  const env = {
    ...process.env,
    API_PORT: String(api),
    REMOTE_AUTH_PORT: String(auth),
    REMOTE_APPS_PORT: String(apps),
    REMOTE_ADMIN_PORT: String(admin),
    REMOTE_CALCULATOR_PORT: String(calculator),
    HOST_PORT: String(host),
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
  };
  delete env.DATABASE_URL;
  const ports = { api, auth, apps, admin, calculator, host };
  return { env, dataDir, ports };
}

/**
 * @param {import('../lib/types.js').Env} env
 * @param {{ onSpawn?: (child: import('node:child_process').ChildProcess) => void }} [options]
 */
function start(env, { onSpawn } = {}) {
  const child = spawn(process.execPath, ['scripts/start.mjs', '--no-build'], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  onSpawn?.(child);
  return new Promise((resolve) => {
    const killer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.once('exit', (code) => {
      clearTimeout(killer);
      resolve({ code, stdout, stderr });
    });
  });
}

test('a port taken before the start: the part, the port and its variable, nothing started, exit 1', async () => {
  const { env, dataDir, ports } = await portalEnv();
  const holder = await listen(ports.auth);
  try {
    const result = await start(env);
    assert.equal(result.code, 1);
    assert.match(
      result.stderr,
      new RegExp(
        `El puerto ${ports.auth} \\(remoto auth\\) ya está en uso\\. Cierra el otro proceso o usa REMOTE_AUTH_PORT=…`,
      ),
    );
    assert.doesNotMatch(result.stderr, /EADDRINUSE/);
    // It stops before starting anything: no API (its embedded database was never opened), no other part listening.
    assert.equal(existsSync(path.join(dataDir, 'pglite')), false);
    for (const [name, port] of Object.entries(ports)) {
      if (name !== 'auth') assert.equal(await taken(port), false, `${name} (${port}) quedó escuchando`);
    }
  } finally {
    await close(holder);
  }
});

test('the API port taken: named with API_PORT', async () => {
  const { env, ports } = await portalEnv();
  const holder = await listen(ports.api);
  try {
    const result = await start(env);
    assert.equal(result.code, 1);
    assert.match(
      result.stderr,
      new RegExp(`El puerto ${ports.api} \\(API\\) ya está en uso\\. Cierra el otro proceso o usa API_PORT=…`),
    );
  } finally {
    await close(holder);
  }
});

test('two parts configured on one port: both variables named', async () => {
  const { env, ports } = await portalEnv();
  const result = await start({ ...env, HOST_PORT: String(ports.apps) });
  assert.equal(result.code, 1);
  assert.match(result.stderr, new RegExp(`REMOTE_APPS_PORT y HOST_PORT usan el mismo puerto ${ports.apps}`));
});

test('a port taken while the portal starts: the parts already started are stopped, exit 1', async () => {
  // `--no-build` starts the compiled API: a fresh clone has none until it is built.
  await buildApi({ log: () => {} });
  const { env, dataDir, ports } = await portalEnv();
  /** @type {Promise<import('node:net').Server> | undefined} */
  let holder;
  // The API opens its database (and takes the lock file) long before the remotes are served: the admin remote's
  // port is taken in between, after the check made at the start.
  const result = await start(env, {
    onSpawn: (child) => {
      const timer = setInterval(async () => {
        if (holder || !existsSync(path.join(dataDir, 'pglite.lock'))) return;
        holder = listen(ports.admin);
        clearInterval(timer);
      }, 20);
      child.once('exit', () => clearInterval(timer));
    },
  });
  try {
    assert.ok(holder, 'the API started before the port was taken');
    assert.equal(result.code, 1, result.stdout + result.stderr);
    assert.match(
      result.stderr,
      new RegExp(
        `El puerto ${ports.admin} \\(remoto admin\\) ya está en uso\\. Cierra el otro proceso o usa REMOTE_ADMIN_PORT=…`,
      ),
    );
    // The API and the remotes served before it were started, and are stopped again.
    for (const name of /** @type {const} */ (['api', 'auth', 'apps', 'calculator', 'host'])) {
      assert.equal(await taken(ports[name]), false, `${name} (${ports[name]}) quedó escuchando`);
    }
    assert.equal(existsSync(path.join(dataDir, 'pglite.lock')), false, 'the API released its database');
  } finally {
    if (holder) await close(await holder);
  }
});

test('a stop signal to npm start alone stops the API child and every server, and frees every port', async () => {
  await buildApi({ log: () => {} });
  const { env, dataDir, ports } = await portalEnv();
  const result = await start(env, {
    onSpawn: (child) => {
      let out = '';
      child.stdout?.on('data', (chunk) => {
        out += chunk;
        if (out.includes('Portal listo')) child.kill('SIGTERM');
      });
    },
  });
  assert.match(result.stdout, /Portal listo/, result.stderr);
  // The address printed is one where every feature works: localhost (passkeys refuse an IP address), every part alike.
  assert.match(result.stdout, new RegExp(`Portal listo: abre http://localhost:${ports.host}\n`));
  assert.match(result.stdout, new RegExp(`API +http://localhost:${ports.api} `));
  assert.match(result.stdout, new RegExp(`Remoto auth +http://localhost:${ports.auth}\n`));
  assert.equal(result.code, 0, result.stdout + result.stderr);
  for (const name of /** @type {const} */ (['api', 'auth', 'apps', 'admin', 'calculator', 'host'])) {
    assert.equal(await taken(ports[name]), false, `${name} (${ports[name]}) quedó escuchando`);
  }
  assert.equal(existsSync(path.join(dataDir, 'pglite.lock')), false, 'the API released its database');
});
