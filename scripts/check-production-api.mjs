// The API as it is deployed, checked from the outside (a step of `npm test`, usable alone in CI:
// `node scripts/check-production-api.mjs`): compiled to JavaScript (the API part of `npm run build`), installed with
// its production dependencies only (`npm ci --omit=dev` for the API workspace, from the project's lock file, into a
// temporary folder), started there with plain `node` on the embedded PGlite, and asked for /health and a sign-in of
// the administrator. No tsx, TypeScript or webpack in that install: a missing runtime dependency fails here. It first
// checks that a production start on the development defaults is refused, one Spanish line per variable. Prints one
// summary line with the time of each phase; exit code 0 when everything answered, 1 otherwise. Last, the administrator's
// stored password hash says that production hashes at OWASP's argon2 cost (the API suites hash at the lowest).
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { API_DIST, buildApi } from './lib/build-api.mjs';
import { ROOT } from './lib/parts.mjs';

/** The root's workspaces: npm ci wants every folder the lock file names. @type {string[]} */
const WORKSPACES = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).workspaces;
const DEV_ONLY = ['tsx', 'typescript', 'webpack', 'esbuild', 'react'];

/** Prints the stored password hash of the account `argv[2]` from the embedded database in `argv[1]`. */
const STORED_ADMIN_HASH = `
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
const [dataDir, email] = process.argv.slice(1);
const client = await PGlite.create({ dataDir, extensions: { pg_trgm } });
const { rows } = await client.query('SELECT password_hash FROM users WHERE email = $1', [email]);
console.log(rows[0]?.password_hash ?? '');
await client.close();
`;

/** @returns {Promise<number>} */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
      server.close(() => resolve(port));
    });
  });
}

/** @param {string} url @param {import('node:child_process').ChildProcess} api */
async function waitForHealth(url, api, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (api.exitCode !== null) throw new Error(`la API compilada terminó (código ${api.exitCode})`);
    try {
      const response = await fetch(`${url}/health`);
      if (response.ok) return response;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`la API compilada no respondió en ${timeoutMs / 1000} s`);
}

/** @param {number} since */
const seconds = (since) => `${((Date.now() - since) / 1000).toFixed(1)} s`;

/** @param {string} deploy @returns {Promise<string[]>} the phases with their times */
async function check(deploy) {
  const phases = [];
  let started = Date.now();
  await buildApi({ log: () => {} });
  phases.push(`compilación ${seconds(started)}`);

  // What a deployment ships: the manifests and the lock file (so npm installs exactly those versions) and api/dist.
  started = Date.now();
  cpSync(path.join(ROOT, 'package.json'), path.join(deploy, 'package.json'));
  cpSync(path.join(ROOT, 'package-lock.json'), path.join(deploy, 'package-lock.json'));
  for (const workspace of WORKSPACES) {
    mkdirSync(path.join(deploy, workspace));
    cpSync(path.join(ROOT, workspace, 'package.json'), path.join(deploy, workspace, 'package.json'));
  }
  cpSync(API_DIST, path.join(deploy, 'api/dist'), { recursive: true });
  const install = spawnSync(
    'npm',
    ['ci', '--omit=dev', '--workspace=@portal/api', '--include-workspace-root=false', '--no-audit', '--no-fund'],
    { cwd: deploy, encoding: 'utf8', env: { ...process.env, NODE_ENV: 'production' } },
  );
  assert.equal(install.status, 0, `npm ci --omit=dev falló:\n${install.stderr}`);
  for (const devOnly of DEV_ONLY) {
    assert.equal(existsSync(path.join(deploy, 'node_modules', devOnly)), false, `${devOnly} no debe instalarse`);
  }
  phases.push(`instalación de producción ${seconds(started)}`);

  started = Date.now();
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const admin = { email: 'admin@produccion.test', password: 'Produccion-2026!' };
  // Only what a deployment sets: no DATABASE_URL (the embedded PGlite), no tsx loader, no test variables.
  const base = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: path.join(deploy, 'data'),
    ADMIN_EMAIL: admin.email,
    ADMIN_PASSWORD: admin.password,
    LOG_LEVEL: 'warn',
  };

  // On the development defaults a production start stops before listening, naming each unsafe one.
  const refused = spawnSync(process.execPath, ['api/dist/server.js'], {
    cwd: deploy,
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...base, ADMIN_SECOND_FACTOR: 'optional' },
  });
  assert.equal(refused.status, 1, `la API arrancó en producción con los valores de desarrollo:\n${refused.stderr}`);
  assert.deepEqual(
    refused.stderr
      .trim()
      .split('\n')
      .map((line) => /^Configuración inválida: ([A-Z_]+) /.exec(line)?.[1]),
    ['JWT_PRIVATE_KEY', 'SMTP_URL', 'ADMIN_SECOND_FACTOR', 'CORS_ORIGINS'],
    `producción sin configurar no dijo una línea por variable:\n${refused.stderr}`,
  );
  assert.equal(existsSync(base.DATA_DIR), false, 'la API rechazada no debe crear DATA_DIR');
  phases.push(`rechazo de los valores de desarrollo ${seconds(started)}`);

  started = Date.now();
  const { privateKey } = generateKeyPairSync('ec', {
    namedCurve: 'P-256',
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  const api = spawn(process.execPath, ['api/dist/server.js'], {
    cwd: deploy,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: {
      ...base,
      JWT_PRIVATE_KEY: privateKey,
      // Nothing listens there: a mail would wait in the outbox, and this check sends none it needs.
      SMTP_URL: `smtp://127.0.0.1:${await freePort()}`,
      CORS_ORIGINS: 'https://portal.example.com',
    },
  });
  let stderr = '';
  api.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  try {
    const health = await waitForHealth(url, api).catch((error) => {
      throw new Error(`${error.message}\n${stderr}`);
    });
    assert.deepEqual(await health.json(), { status: 'ok', database: 'ok' });
    phases.push(`arranque ${seconds(started)}`);

    started = Date.now();
    const login = await fetch(`${url}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(admin),
    });
    assert.equal(login.status, 200, `POST /auth/login respondió ${login.status}\n${stderr}`);
    const { access_token: token } = await login.json();
    assert.equal(typeof token, 'string', 'POST /auth/login no devolvió un token');
    const user = await fetch(`${url}/auth/user`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(user.status, 200, `GET /auth/user con el token respondió ${user.status}`);
    assert.equal((await user.json()).email, admin.email);
    // The production default: an administrator without a second factor is asked to set one up before
    // any admin call works.
    const stats = await fetch(`${url}/user/stats`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(stats.status, 403, `GET /user/stats sin segundo factor respondió ${stats.status}`);
    assert.equal((await stats.json()).code, 'SECOND_FACTOR_SETUP_REQUIRED');
    phases.push(`inicio de sesión ${seconds(started)}`);
  } finally {
    api.kill('SIGTERM');
    if (api.exitCode === null) await new Promise((resolve) => api.once('exit', resolve));
  }

  // The API suites hash at argon2's lowest cost in their own processes; production hashes at OWASP's. The
  // administrator's stored hash, read from the stopped API's database with the deployment's own PGlite, says which.
  started = Date.now();
  const stored = spawnSync(
    process.execPath,
    ['--input-type=module', '-e', STORED_ADMIN_HASH, path.join(base.DATA_DIR, 'pglite'), admin.email],
    { cwd: deploy, encoding: 'utf8', timeout: 60_000 },
  );
  assert.equal(stored.status, 0, `no se pudo leer la base de datos de la API detenida:\n${stored.stderr}`);
  assert.match(
    stored.stdout.trim(),
    /^\$argon2id\$v=19\$m=19456,t=2,p=1\$/,
    'la contraseña del administrador no se guardó con el coste de producción (argon2id, m=19456, t=2, p=1)',
  );
  phases.push(`coste de argon2 de producción ${seconds(started)}`);
  return phases;
}

const started = Date.now();
const deploy = mkdtempSync(path.join(tmpdir(), 'portal-api-prod-'));
try {
  const phases = await check(deploy);
  console.log(
    `ok    producción (API compilada): los valores de desarrollo rechazados, /health 200, sesión del administrador con token y panel cerrado hasta configurar un segundo factor, contraseña con el coste de argon2 de producción, con solo las dependencias ` +
      `de producción, en ${seconds(started)} (${phases.join(', ')})`,
  );
} catch (error) {
  console.error(`FALLA producción (API compilada) tras ${seconds(started)}: ${/** @type {Error} */ (error).message}`);
  process.exitCode = 1;
} finally {
  rmSync(deploy, { recursive: true, force: true });
}
