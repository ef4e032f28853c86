// The API's production build: its TypeScript sources (and the @portal/contracts rules it applies) bundled by esbuild
// into plain JavaScript in api/dist, run with `node api/dist/server.js`, with its npm dependencies bundled in too but for
// those that read files of their own at run time (OUTSIDE: those come from the API's own production install). A process
// then loads one file instead of some 2 500 (docs/decisions/0110-api-bundle-with-dependencies.md). tsx runs the
// sources in development and tests only.
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './parts.mjs';

const API = path.join(ROOT, 'api');
export const API_DIST = path.join(API, 'dist');
/**
 * The dependencies left outside the bundle: a native binary (argon2), a WebAssembly build and its data files
 * (PGlite), static files served from the package (Swagger UI), a package version read from its package.json (Swagger),
 * worker-thread transports loaded by path (pino), and a package whose use of url.parse() Node warns about outside
 * node_modules only (samlify's redirect binding: a DEP0169 line in the server's log).
 */
const OUTSIDE = [
  '@node-rs/argon2',
  '@electric-sql/pglite',
  '@fastify/swagger-ui',
  '@fastify/swagger',
  'pino',
  'samlify',
];
/**
 * CommonJS dependencies inside an ES module bundle: `require` for their own require() calls (esbuild's shim calls it),
 * `__filename` and `__dirname` for the few that name their own folder.
 */
const COMMONJS_BANNER = [
  "import { createRequire as __portalCreateRequire } from 'node:module';",
  "import { fileURLToPath as __portalFileURLToPath } from 'node:url';",
  "import { dirname as __portalDirname } from 'node:path';",
  'const require = __portalCreateRequire(import.meta.url);',
  'const __filename = __portalFileURLToPath(import.meta.url);',
  'const __dirname = __portalDirname(__filename);',
].join(' ');
/** The bundles: the server and the console commands (`npm run admin`). */
const ENTRIES = {
  server: 'api/src/server.ts',
  admin: 'api/src/cli/admin.ts',
};

/** @param {string} entry @returns {number} */
function newestMtime(entry) {
  if (!existsSync(entry)) return 0;
  const info = statSync(entry);
  if (!info.isDirectory()) return info.mtimeMs;
  let newest = 0;
  for (const child of readdirSync(entry)) newest = Math.max(newest, newestMtime(path.join(entry, child)));
  return newest;
}

/** Fresh when every bundle is newer than the API's and the contracts package's sources and the API's package.json. */
export function isApiFresh() {
  const built = Object.keys(ENTRIES).map((name) => path.join(API_DIST, `${name}.js`));
  if (!built.every((file) => existsSync(file))) return false;
  const oldest = Math.min(...built.map((file) => statSync(file).mtimeMs));
  const sources = [path.join(API, 'src'), path.join(ROOT, 'contracts/src'), path.join(API, 'package.json')];
  return oldest > Math.max(...sources.map(newestMtime));
}

/** Held while a process builds: the API suites of two streams (and npm test's own steps) may ask at the same time. */
const LOCK = path.join(API, '.dist-lock');

/**
 * Runs `build` holding the lock; a lock whose process is gone (killed mid-build) is taken over.
 * @param {() => Promise<void>} build
 */
async function holdingLock(build) {
  for (;;) {
    try {
      mkdirSync(LOCK);
      writeFileSync(path.join(LOCK, 'pid'), String(process.pid));
      break;
    } catch (error) {
      if (/** @type {NodeJS.ErrnoException} */ (error).code !== 'EEXIST') throw error;
      const holder = Number(readFileSync(path.join(LOCK, 'pid'), { encoding: 'utf8', flag: 'a+' }));
      if (holder && !isAlive(holder)) rmSync(LOCK, { recursive: true, force: true });
      else await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  try {
    await build();
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}

/** @param {number} pid */
function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return /** @type {NodeJS.ErrnoException} */ (error).code === 'EPERM';
  }
}

/** @param {{ force?: boolean, log?: (line: string) => void }} options */
export async function buildApi({ force = false, log = console.log } = {}) {
  if (!force && isApiFresh()) {
    log('· api: al día');
    return;
  }
  await holdingLock(async () => {
    // Another process may have built it while this one waited.
    if (!force && isApiFresh()) log('· api: al día');
    else await compile(log);
  });
}

/** @param {(line: string) => void} log */
async function compile(log) {
  const started = Date.now();
  const esbuild = await import('esbuild');
  rmSync(API_DIST, { recursive: true, force: true });
  await esbuild.build({
    entryPoints: Object.fromEntries(Object.entries(ENTRIES).map(([name, file]) => [name, path.join(ROOT, file)])),
    outdir: API_DIST,
    bundle: true,
    // @portal/contracts (TypeScript sources, a development dependency of the API) is bundled in, resolved through its
    // package exports like tsx does; so are the API's dependencies but OUTSIDE, installed next to the bundle.
    external: OUTSIDE.flatMap((name) => [name, `${name}/*`]),
    banner: { js: COMMONJS_BANNER },
    platform: 'node',
    format: 'esm',
    target: 'node22',
    sourcemap: true,
    // One file per entry, no shared chunks: the code finds its neighbours from its own address (import.meta.url:
    // ./migrations, the repository root two folders up), so every entry must sit in api/dist itself.
    logLevel: 'warning',
  });
  // The migrations are read at run time next to the code that applies them (src/db/migrate.ts: ./migrations/).
  cpSync(path.join(API, 'src/db/migrations'), path.join(API_DIST, 'migrations'), { recursive: true });
  log(`· api: listo en ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
