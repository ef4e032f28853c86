// The host's page starter: the only script of the shell its pages run before their first frame.
const path = require('node:path');
const { swcMinimized } = require('./minimizer');

/**
 * `start.js`, a plain build of host/src/start/start.ts (no federation runtime, about 1.5 KB): the page runs it
 * deferred, and it runs the shell's entry once the page is painted
 * (docs/decisions/0063-scripts-after-the-first-paint.md). Not content-hashed: the page names it, and it is revalidated
 * with the runtime config, in parallel.
 */
const STARTER = 'start.js';

/**
 * @param {string} dir the host's folder @param {boolean} production
 * @param {import('webpack').RuleSetRule} tsRule how TypeScript is compiled (federation.js)
 * @returns {import('webpack').Configuration}
 */
function starterConfig(dir, production, tsRule) {
  return {
    name: STARTER,
    mode: production ? 'production' : 'development',
    context: dir,
    entry: './src/start/start.ts',
    // A little of the host's own code: no map, like a remote's standalone runtime.
    devtool: false,
    output: { path: path.join(dir, 'dist'), filename: STARTER, uniqueName: 'host-start' },
    resolve: { extensions: ['.ts', '.js'] },
    module: { rules: [tsRule] },
    optimization: swcMinimized(),
    performance: { hints: false },
  };
}

module.exports = { STARTER, starterConfig };
