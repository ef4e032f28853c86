// A remote's standalone page: the federation runtime it needs when no host provides one.
const path = require('node:path');
const { swcMinimized } = require('./minimizer');

/**
 * One federation runtime on a page: the host provides its runtime core (`provideExternalRuntime`) and the remotes'
 * bundles read it from a global (`externalRuntime`) instead of carrying their own. A remote's standalone page has no
 * host: a second, plain build of standalone-runtime.js (no federation, so nothing external) sets that global, and the
 * page loads it before the remote's `main`. Both sides resolve the runtime core to one file (ES module), so the host
 * does not bundle it twice (imported by one file, required by another).
 */
const STANDALONE_RUNTIME = 'standalone-runtime.js';
const RUNTIME_CORE_FILE = path.join(path.dirname(require.resolve('@module-federation/runtime-core')), 'index.js');

/** @param {string} dir @param {boolean} production @returns {import('webpack').Configuration} */
function standaloneRuntimeConfig(dir, production) {
  return {
    name: STANDALONE_RUNTIME,
    mode: production ? 'production' : 'development',
    context: dir,
    entry: path.join(__dirname, STANDALONE_RUNTIME),
    devtool: false,
    output: {
      path: path.join(dir, 'dist'),
      filename: STANDALONE_RUNTIME,
      uniqueName: `${path.basename(dir)}-standalone-runtime`,
    },
    resolve: { alias: { '@module-federation/runtime-core$': RUNTIME_CORE_FILE } },
    optimization: swcMinimized(),
    performance: { hints: false },
  };
}

module.exports = { STANDALONE_RUNTIME, RUNTIME_CORE_FILE, standaloneRuntimeConfig };
