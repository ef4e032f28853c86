// The production builds' JavaScript minifier: SWC's, through webpack's own minimizer plugin, in place of the default
// Terser. The same or smaller files (remote-auth: 246.0 KB brotli against Terser's 246.6 KB) in about a third of the
// processor time; esbuild's was faster still but a third larger (docs/decisions/0088-test-suite-speed.md).
const MinimizerPlugin = require('minimizer-webpack-plugin');

/** @returns {import('webpack').Configuration['optimization']} */
function swcMinimized() {
  return {
    minimizer: [
      new MinimizerPlugin({
        minify: MinimizerPlugin.swcMinify,
        // Two passes, as webpack's default asks of Terser.
        minimizerOptions: { compress: { passes: 2 }, mangle: true },
      }),
    ],
  };
}

module.exports = { swcMinimized };
