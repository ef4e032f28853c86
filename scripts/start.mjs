// npm start: builds what is stale, then runs the whole product on this machine: the API, the host and each remote
// on its own port (separate origins, as in production). Ctrl-C stops everything.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { buildAll } from './lib/build.mjs';
import { checkRedirectAllowList, corsOrigins, readLayout, ROOT, runtimeConfig } from './lib/parts.mjs';
import { checkPorts, listenFailureMessage, listeningParts } from './lib/ports.mjs';
import { startStaticServer } from './lib/static-server.mjs';

const layout = readLayout();
const parts = listeningParts(layout);
const servers = [];
let api;
let stopping = false;

async function stop(code = 0) {
  if (stopping) return;
  stopping = true;
  await Promise.all(servers.map((server) => server.close()));
  if (api && api.exitCode === null) {
    api.kill('SIGTERM');
    await new Promise((resolve) => api.once('exit', resolve));
  }
  process.exit(code);
}
process.on('SIGINT', () => void stop(0));
process.on('SIGTERM', () => void stop(0));

function startApi() {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'api/src/server.ts')], {
    cwd: ROOT,
    stdio: 'inherit',
    env: {
      ...process.env,
      PORT: String(layout.api.port),
      // A taken port is reported with the variable that moves it under npm start.
      PORT_VARIABLE: 'API_PORT',
      HOST: process.env.API_BIND_HOST || layout.bind,
      CORS_ORIGINS: process.env.CORS_ORIGINS || corsOrigins(layout).join(','),
      // Links in mails point at the portal the person uses.
      PORTAL_URL: process.env.PORTAL_URL || layout.host.url,
      // The Google and Apple callbacks are built on the API's public address.
      API_PUBLIC_URL: process.env.API_PUBLIC_URL || layout.api.url,
      // The same partner targets the browser checks: the sign-in with Google/Apple carries only these.
      REDIRECT_ALLOW_LIST: runtimeConfig(layout).redirectAllowList.join(','),
      // Request logs would bury the address to open; LOG_LEVEL=info brings them back.
      LOG_LEVEL: process.env.LOG_LEVEL || 'warn',
    },
  });
  child.once('exit', (code) => {
    if (!stopping) {
      console.error(`La API se detuvo (código ${code}). Deteniendo el portal.`);
      void stop(code || 1);
    }
  });
  return child;
}

async function waitForApi(timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (stopping) return;
    try {
      const response = await fetch(`http://${layout.bind}:${layout.api.port}/health`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`La API no respondió en ${timeoutMs / 1000} s`);
}

/** Serves one part; a port that cannot be used becomes the Spanish sentence naming the part and its variable. */
async function serve(label, options) {
  try {
    return await startStaticServer(options);
  } catch (error) {
    const message = listenFailureMessage(
      parts.find((part) => part.label === label),
      error,
    );
    throw message ? new Error(message) : error;
  }
}

async function main() {
  // Before building anything: a list that would hand sessions to anyone's host stops the start (issue 13).
  await checkRedirectAllowList(runtimeConfig(layout).redirectAllowList);
  // Before the build (minutes on a first start): a taken port is known at once, and nothing has been started yet.
  const problem = await checkPorts(parts);
  if (problem) throw new Error(problem);
  if (!process.argv.includes('--no-build')) {
    console.log('Preparando el portal...');
    await buildAll();
  }
  api = startApi();
  await waitForApi();
  const config = runtimeConfig(layout);
  for (const remote of layout.remotes) {
    servers.push(
      await serve(`remoto ${remote.name}`, {
        dir: path.join(remote.absDir, 'dist'),
        port: remote.port,
        bind: layout.bind,
        runtimeConfig: config,
      }),
    );
  }
  servers.push(
    await serve('portal (host)', {
      dir: path.join(ROOT, 'host/dist'),
      port: layout.host.port,
      bind: layout.bind,
      spa: true,
      runtimeConfig: config,
    }),
  );
  console.log('');
  for (const remote of layout.remotes) console.log(`  Remoto ${remote.name.padEnd(10)} ${remote.origin}`);
  console.log(`  API               ${layout.api.url}  (documentación: ${layout.api.url}/docs)`);
  console.log('');
  console.log(`Portal listo: abre ${layout.host.url}`);
}

main().catch((error) => {
  console.error(error.message ?? error);
  void stop(1);
});
