// npm run dev: the whole product for development, on the same ports and runtime config as `npm start`. The API runs
// from its TypeScript sources and restarts when one changes (node --watch with tsx); the host and every remote are
// served from memory by webpack-dev-server, rebuilt on each save, with hot module replacement where a module accepts
// it and a reload of the page otherwise. No production build is made or needed. Ctrl-C stops everything.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildTargets } from './lib/build.mjs';
import { checkRedirectAllowList, loadDotEnv, readLayout, ROOT, runtimeConfig } from './lib/parts.mjs';
import { portalRun } from './lib/portal-run.mjs';
import { checkPorts, listenFailureMessage, listeningParts } from './lib/ports.mjs';

const require = createRequire(import.meta.url);
loadDotEnv();
const layout = readLayout();
const parts = listeningParts(layout);
const run = portalRun(layout);

/** Builds one webpack config into a folder of the system's temporary files; resolves to the file it wrote. */
/** @param {import('webpack').Configuration & { output: { filename: string } }} config @param {string} name @returns {Promise<string>} */
function buildOnce(config, name) {
  const webpack = require('webpack');
  const outDir = path.join(tmpdir(), 'portal-dev', name);
  const compiler = webpack({ ...config, output: { ...config.output, path: outDir } });
  return new Promise((resolve, reject) => {
    compiler.run((error, stats) => {
      compiler.close(() => {});
      if (error || stats?.hasErrors()) return reject(error ?? new Error(stats?.toString('errors-only')));
      resolve(path.join(outDir, config.output.filename));
    });
  });
}

/** One part (the host or a remote) on webpack-dev-server, with the runtime config `npm start` serves. */
/** @param {import('./lib/types.js').BuildTarget} target @param {number} port @param {string} label */
async function startDevServer(target, port, label) {
  const webpack = require('webpack');
  /** @type {typeof import('webpack-dev-server').default} the CommonJS export is the class itself */
  const WebpackDevServer = require('webpack-dev-server');
  const factory = require(path.join(target.absDir, 'webpack.config.js'));
  const configs = [typeof factory === 'function' ? factory({}, { mode: 'development' }) : factory].flat();
  // A part's config is [the file its page runs first, the part]: a remote's standalone runtime (the federation core)
  // or the host's starter. That file (which seldom changes while one works) is built once beside and served as a
  // file: one compiler per server keeps each page's update client and its server agreeing on one build hash.
  const config = configs.at(-1);
  delete config.dependencies;
  config.stats = 'errors-warnings';
  // The servers' own lines ('Project is running at…') repeat what the summary prints; their warnings stay.
  config.infrastructureLogging = { level: 'warn' };
  const beside = configs.length > 1 ? await buildOnce(configs[0], target.name) : undefined;
  const compiler = webpack(config);
  const script = `window.__PORTAL_CONFIG__ = ${JSON.stringify(runtimeConfig(layout))};\n`;
  const server = new WebpackDevServer(
    {
      port,
      host: layout.bind,
      hot: true,
      liveReload: true,
      // Ctrl-C is the portal's (scripts/lib/portal-run.mjs): the server's own handler would exit the process before
      // the API child is stopped, leaving it running.
      setupExitSignals: false,
      historyApiFallback: target.name === 'host',
      // The host loads every remote's files from another origin.
      headers: { 'Access-Control-Allow-Origin': '*' },
      // Each bundle's update client talks to its own server: a remote's code runs on the host's page, and asking the
      // host's server about the remote's build would reload the page forever.
      client: {
        logging: 'warn',
        overlay: { errors: true, warnings: false },
        webSocketURL: { protocol: 'ws', hostname: layout.bind, port },
      },
      /** @param {import('webpack-dev-server').Middleware[]} middlewares */
      setupMiddlewares: (middlewares) => [
        {
          name: 'runtime-config',
          path: '/runtime-config.js',
          middleware: (/** @type {unknown} */ _req, /** @type {import('node:http').ServerResponse} */ res) => {
            res.setHeader('Content-Type', 'text/javascript; charset=utf-8');
            res.setHeader('Cache-Control', 'no-cache');
            res.end(script);
          },
        },
        ...(beside
          ? [
              {
                name: path.basename(beside),
                path: `/${path.basename(beside)}`,
                middleware: (/** @type {unknown} */ _req, /** @type {import('node:http').ServerResponse} */ res) => {
                  res.setHeader('Content-Type', 'text/javascript; charset=utf-8');
                  res.end(readFileSync(beside));
                },
              },
            ]
          : []),
        ...middlewares,
      ],
    },
    compiler,
  );
  try {
    await server.start();
  } catch (error) {
    const message = listenFailureMessage(
      parts.find((part) => part.label === label),
      error,
    );
    throw message ? new Error(message) : error;
  }
  return server;
}

async function main() {
  await checkRedirectAllowList(runtimeConfig(layout).redirectAllowList);
  const problem = await checkPorts(parts);
  if (problem) throw new Error(problem);
  console.log('Modo desarrollo: compilando en memoria (la primera vez tarda algo más)...');
  // The API from its sources, restarted by node on every change of a file it imports.
  run.startApi(['--watch', '--watch-preserve-output', '--import', 'tsx', path.join(ROOT, 'api/src/server.ts')]);
  for (const target of buildTargets()) {
    const remote = layout.remotes.find((candidate) => candidate.name === target.name);
    const port = remote ? remote.port : layout.host.port;
    const server = await startDevServer(target, port, remote ? `remoto ${remote.name}` : 'portal (host)');
    run.servers.push({ close: () => server.stop() });
  }
  console.log('');
  for (const remote of layout.remotes) console.log(`  Remoto ${remote.name.padEnd(10)} ${remote.origin}`);
  console.log(`  API               ${layout.api.url}  (se reinicia al guardar un archivo de api/src)`);
  console.log('');
  console.log(`Portal (desarrollo) listo: abre ${layout.host.url}`);
}

main().catch((error) => {
  console.error(error.message ?? error);
  void run.stop(1);
});
