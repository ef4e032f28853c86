// npm start: builds what is stale, then runs the whole product on this machine: the API, the host and each remote
// on its own port (separate origins, as in production). Ctrl-C stops everything.
import path from 'node:path';
import { buildAll } from './lib/build.mjs';
import { API_DIST, buildApi } from './lib/build-api.mjs';
import { checkRedirectAllowList, loadDotEnv, readLayout, ROOT, runtimeConfig } from './lib/parts.mjs';
import { checkPorts, listenFailureMessage, listeningParts } from './lib/ports.mjs';
import { portalRun } from './lib/portal-run.mjs';
import { startStaticServer } from './lib/static-server.mjs';

loadDotEnv();
const layout = readLayout();
const parts = listeningParts(layout);
const run = portalRun(layout);

async function waitForApi(timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (run.stopping) return;
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
/** @param {string} label @param {Parameters<typeof startStaticServer>[0]} options */
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
  // Before building anything: a list that would hand sessions to anyone's host stops the start.
  await checkRedirectAllowList(runtimeConfig(layout).redirectAllowList);
  // Before the build (minutes on a first start): a taken port is known at once, and nothing has been started yet.
  const problem = await checkPorts(parts);
  if (problem) throw new Error(problem);
  // The compiled API (npm run build), with plain node as in production.
  const api = [path.join(API_DIST, 'server.js')];
  if (process.argv.includes('--no-build')) run.startApi(api);
  else {
    console.log('Preparando el portal...');
    // The API starts as soon as it is compiled (a first start creates its database, seconds of work), while the
    // bundles build beside it; what it prints meanwhile comes after the build's lines.
    await Promise.all([buildAll(), buildApi().then(() => run.startApi(api, { held: true }))]);
    run.releaseApiOutput();
  }
  await waitForApi();
  const config = runtimeConfig(layout);
  for (const remote of layout.remotes) {
    run.servers.push(
      await serve(`remoto ${remote.name}`, {
        dir: path.join(remote.absDir, 'dist'),
        port: remote.port,
        bind: layout.bind,
        runtimeConfig: config,
      }),
    );
  }
  run.servers.push(
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
  // Ctrl-C stops the build's processes too: their end is no failure to report.
  if (run.stopping) return;
  run.releaseApiOutput();
  console.error(error.message ?? error);
  void run.stop(1);
});
