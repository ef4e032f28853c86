import { inspect } from 'node:util';
import { buildApp } from './app.js';
import { loadConfig, type Config } from './config.js';
import { embeddedDatabaseDir } from './db/client.js';
import { loadEnvFile } from './lib/env-file.js';
import { diskFull } from './lib/errors.js';
import { keepDataPrivate } from './lib/private-data.js';

function readConfig(): Config {
  try {
    loadEnvFile();
    return loadConfig();
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
}

const config = readConfig();

/** Emscripten's numbers, which PGlite's file errors carry (not Linux's), for the few a start can meet. */
const emscriptenErrors: Record<number, string> = {
  2: 'EACCES',
  20: 'EEXIST',
  29: 'EIO',
  31: 'EISDIR',
  44: 'ENOENT',
  54: 'ENOTDIR',
  63: 'EPERM',
  69: 'EROFS',
};

/**
 * Why the API could not start, in one Spanish line: a full disk says which disk and what to do; anything else its
 * message. PGlite throws a bare `ErrnoError` (no message, Emscripten's errno): it is named, never `undefined`.
 */
function startFailure(error: unknown): string {
  const full = diskFull(error);
  if (full === 'database' && config.databaseUrl) {
    let server = 'PostgreSQL';
    try {
      server = `PostgreSQL (${new URL(config.databaseUrl).host})`;
    } catch {}
    return `no queda espacio en el disco de ${server}: libera espacio en ese servidor`;
  }
  if (full) return `no queda espacio en ${config.dataDir} (libera espacio o usa otro DATA_DIR)`;
  if (error instanceof Error) return error.message || error.name;
  const { name, errno } = (error ?? {}) as { name?: unknown; errno?: unknown };
  if (name === 'ErrnoError' && typeof errno === 'number') {
    const code = emscriptenErrors[errno] ?? `errno ${errno} de Emscripten`;
    return `la base de datos embebida no pudo usar sus archivos en ${embeddedDatabaseDir(config.dataDir)} (${code})`;
  }
  return inspect(error, { breakLength: Number.POSITIVE_INFINITY, depth: 2 });
}

const app = await (async () => {
  keepDataPrivate(config.dataDir);
  return buildApp({ config });
})().catch((error: unknown) => {
  console.error(`No se pudo iniciar la API: ${startFailure(error)}`);
  process.exit(1);
});

let closing = false;
/**
 * SIGTERM (a supervisor, a rolling restart) leaves the balancer first: readiness turns 503 for SHUTDOWN_DRAIN_MS while
 * everything is served, then the hand-off until the balancer sends nothing more (plugins/app/drain.ts). SIGINT (Ctrl-C
 * at a terminal) closes at once. Then requests in flight finish and the process exits 0.
 */
async function shutdown(signal: NodeJS.Signals) {
  if (closing) return;
  closing = true;
  if (signal === 'SIGTERM') {
    app.log.info({ signal, drainMs: config.shutdownDrainMs }, 'leaving the balancer');
    await app.drain.leave(config.shutdownDrainMs);
  }
  app.log.info({ signal }, 'shutting down');
  // Requests in flight finish within REQUEST_TIMEOUT_MS (or get the 503); then mail sends get 2 s and their claims are
  // released, each database step bounded by DATABASE_TIMEOUT_MS. Past all that something is stuck: exit anyway.
  const bound = config.requestTimeoutMs + 2 * config.databaseTimeoutMs + 2_000;
  setTimeout(() => {
    app.log.error({ signal, boundMs: bound }, 'shutdown did not finish in time; exiting anyway');
    process.exit(1);
  }, bound).unref();
  await app.close();
  process.exit(0);
}
process.once('SIGINT', shutdown);
process.once('SIGTERM', shutdown);

/** Why the API could not listen, in Spanish, naming the variable that moves it (`npm start` passes API_PORT). */
function listenFailure(error: NodeJS.ErrnoException): string {
  const variable = process.env.PORT_VARIABLE || 'PORT';
  if (error.code === 'EADDRINUSE')
    return `El puerto ${config.port} (API) ya está en uso. Cierra el otro proceso o usa ${variable}=…`;
  if (error.code === 'EACCES')
    return `No hay permiso para usar el puerto ${config.port} (API). Usa ${variable}= con un puerto mayor que 1023.`;
  return `No se pudo escuchar en ${config.host}:${config.port}: ${error.message}`;
}

try {
  await app.listen({ port: config.port, host: config.host });
} catch (error) {
  console.error(listenFailure(error as NodeJS.ErrnoException));
  // Releases what already started: the database (and PGlite's lock file), Redis, the mail loop.
  await app.close();
  process.exit(1);
}
console.log(`API escuchando en http://${config.host}:${config.port}`);

// Metrics on a listener of their own (METRICS_PORT), never the public one (docs/decisions/0053-metrics.md).
try {
  const address = await app.metrics.listen();
  if (address) console.log(`Métricas en ${address}/metrics`);
} catch (error) {
  const { code, message } = error as NodeJS.ErrnoException;
  console.error(
    code === 'EADDRINUSE'
      ? `El puerto ${config.metrics.port} (métricas) ya está en uso. Cierra el otro proceso o usa METRICS_PORT=…`
      : `No se pudo escuchar en ${config.metrics.host}:${config.metrics.port} (métricas): ${message}`,
  );
  await app.close();
  process.exit(1);
}
