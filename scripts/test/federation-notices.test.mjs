// What a federated build prints (scripts/webpack/auto-public-path-notice.js): not @module-federation/manifest's notice,
// on every build, that the manifest's files will be found from the manifest's own address at run time (the portal
// builds every part with `publicPath: 'auto'` so that it can be served from any address), but every other warning.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, it } from 'node:test';

const require = createRequire(import.meta.url);
const webpack = require('webpack');
const { ModuleFederationPlugin } = require('@module-federation/enhanced/webpack');
const { AutoPublicPathNotice } = require('../webpack/auto-public-path-notice.js');

const dir = mkdtempSync(path.join(tmpdir(), 'portal-federation-notices-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/**
 * Builds a remote of one exposed module and returns what webpack's log received, one line per message.
 * @param {import('webpack').WebpackPluginInstance[]} plugins
 * @returns {Promise<string[]>}
 */
function federatedBuild(plugins) {
  writeFileSync(path.join(dir, 'pagina.js'), 'export default "Página";\n');
  writeFileSync(path.join(dir, 'index.js'), 'import("./pagina.js");\n');
  /** @type {string[]} */
  const logged = [];
  const record =
    (/** @type {string} */ type) =>
    (/** @type {unknown[]} */ ...args) =>
      logged.push(`${type} ${args.join(' ')}`);
  const compiler = webpack({
    mode: 'development',
    context: dir,
    entry: './index.js',
    devtool: false,
    output: { path: path.join(dir, 'dist'), publicPath: 'auto', uniqueName: 'prueba' },
    infrastructureLogging: {
      level: 'info',
      console: /** @type {Console} */ (
        /** @type {unknown} */ ({
          error: record('error'),
          warn: record('warn'),
          info: record('info'),
          log: record('log'),
        })
      ),
    },
    // The notice is logged while the federation plugin is applied: what leaves it out comes first.
    plugins: [
      ...plugins,
      new ModuleFederationPlugin({
        name: 'prueba',
        filename: 'remoteEntry.js',
        exposes: { './Pagina': './pagina.js' },
        manifest: true,
        dts: false,
      }),
      // Another plugin's warning, which must still be printed.
      {
        apply: (compiler) =>
          compiler.hooks.done.tap('otro', () =>
            compiler.getInfrastructureLogger('otro').warn('Un aviso de otro plugin'),
          ),
      },
    ],
  });
  return new Promise((resolve, reject) => {
    compiler.run((error, stats) => {
      compiler.close(() => {});
      if (error || stats?.hasErrors()) return reject(error ?? new Error(stats?.toString('errors-only')));
      resolve(logged);
    });
  });
}

it("a federated build with publicPath 'auto' prints no notice about it, and other warnings still", async () => {
  const unfiltered = await federatedBuild([]);
  // Without it, the notice this leaves out is there (if the plugin stops printing it, this test says so).
  assert.ok(
    unfiltered.some((line) => line.includes("publicPath='auto'")),
    unfiltered.join('\n'),
  );

  const logged = await federatedBuild([new AutoPublicPathNotice()]);
  assert.equal(
    logged.some((line) => line.includes("publicPath='auto'")),
    false,
    logged.join('\n'),
  );
  assert.ok(
    logged.some((line) => line.startsWith('warn') && line.includes('Un aviso de otro plugin')),
    logged.join('\n'),
  );
});
