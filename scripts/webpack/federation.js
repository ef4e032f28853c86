// How the host and every remote are built: one federated webpack config, with the names, pages and titles of the
// portal's manifest (contracts/src/portal/manifest.ts). Its parts: what is shared (./sharing.js), the router shim's
// check (./router-shim-check.js), a remote's standalone runtime (./standalone.js), the host's page starter
// (./starter.js), the hashed entry name (./hashed-entry.js), the minifier (./minimizer.js), the host's preload list (./preload-list-plugin.js) and one
// notice of the manifest plugin left out of the log (./auto-public-path-notice.js); development serving is
// scripts/dev.mjs.
// docs/architecture.md and docs/decisions/0042-front-bundle-sharing.md.
const path = require('node:path');
const HtmlWebpackPlugin = require('html-webpack-plugin');
const { ProvideSharedPlugin } = require('@module-federation/enhanced');
const { ModuleFederationPlugin } = require('@module-federation/enhanced/webpack');
const { HOST, REMOTES } = require('@portal/contracts/manifest');
const { AutoPublicPathNotice } = require('./auto-public-path-notice');
const { hashedEntryFilename } = require('./hashed-entry');
const { swcMinimized } = require('./minimizer');
const { PreloadListPlugin } = require('./preload-list-plugin');
const { checkRouterShim } = require('./router-shim-check');
const { styledComponentIds } = require('./styled-component-ids');
const { providedSingletons, ROUTER_SHIM, sharedSingletons } = require('./sharing');
const { RUNTIME_CORE_FILE, STANDALONE_RUNTIME, standaloneRuntimeConfig } = require('./standalone');
const { STARTER, starterConfig } = require('./starter');

/** @type {{ name: string, chunks: 'async', test: RegExp, enforce: boolean }} */
const STARTUP_CHUNK = {
  name: 'startup',
  chunks: 'async',
  test: /[\\/](node_modules|shared[\\/]src|contracts[\\/]src|scripts[\\/]webpack)[\\/]/,
  enforce: true,
};

/**
 * TypeScript through ts-loader, with stable styled-components ids (./styled-component-ids.js): the browser builds and
 * the prerender's Node bundle (scripts/lib/prerender.mjs) name every rule alike.
 * @param {string} dir the package whose tsconfig.json applies @param {boolean} production
 * @returns {import('webpack').RuleSetRule}
 */
function tsLoaderRule(dir, production) {
  return {
    test: /\.tsx?$/,
    exclude: /node_modules/,
    use: {
      loader: require.resolve('ts-loader'),
      options: {
        transpileOnly: true,
        configFile: path.join(dir, 'tsconfig.json'),
        getCustomTransformers: () => ({ before: [styledComponentIds({ names: !production })] }),
      },
    },
  };
}

/**
 * A webpack config for the host or a remote (remoteConfig and hostConfig below give it the manifest's values).
 * @param {{ dir: string, name: string, exposes?: Record<string, string>, title?: string, routeTable?: string }} options
 * @returns {(env: unknown, argv: { mode?: string }) => import('webpack').Configuration | import('webpack').Configuration[]}
 */
function federatedConfig({ dir, name, exposes, title = 'Portal', routeTable }) {
  return (_env, argv) => {
    const production = argv.mode === 'production';
    checkRouterShim();
    const remote = Boolean(exposes);
    /** @type {import('webpack').Configuration} */
    const config = {
      // Built after the file built beside it (a remote's standalone runtime, the host's starter), which it keeps.
      dependencies: [remote ? STANDALONE_RUNTIME : STARTER],
      mode: production ? 'production' : 'development',
      context: dir,
      entry: './src/index.ts',
      // Production maps are written for debugging but named by no bundle, and the static server never serves them.
      devtool: production ? 'hidden-source-map' : 'eval-cheap-module-source-map',
      output: {
        path: path.join(dir, 'dist'),
        publicPath: 'auto',
        filename: production ? hashedEntryFilename : '[name].js',
        // Two chunks may carry one name (the shared router shim's provide and consume sides): the hash tells them apart.
        chunkFilename: production ? '[name].[contenthash:10].js' : '[name].[chunkhash:8].js',
        uniqueName: name,
        clean: { keep: remote ? STANDALONE_RUNTIME : STARTER },
      },
      resolve: {
        extensions: ['.tsx', '.ts', '.js'],
        // One copy of the federation runtime core whether a file imports or requires it (the host provides it).
        alias: {
          '@module-federation/runtime-core$': RUNTIME_CORE_FILE,
          // The shell imports the shared router file itself (it provides it, sharing.js `providedSingletons`).
          ...(remote ? {} : { 'react-router-dom$': ROUTER_SHIM }),
        },
      },
      module: {
        rules: [tsLoaderRule(dir, production), { test: /\.(png|jpe?g|svg|webp|mp4)$/, type: 'asset/resource' }],
      },
      plugins: [
        // First: the federation plugin logs that notice while it is applied.
        new AutoPublicPathNotice(),
        new ModuleFederationPlugin({
          name,
          filename: 'remoteEntry.js',
          exposes,
          // A remote consumes the singletons (its own copy only as a fallback); the shell provides them.
          shared: remote ? sharedSingletons() : {},
          shareStrategy: 'loaded-first',
          manifest: true,
          dts: false,
          // One federation runtime on a page: the host's (docs/decisions/0042-front-bundle-sharing.md).
          // `target: 'web'` leaves out the runtime's code for loading in Node.
          experiments: {
            ...(remote ? { externalRuntime: true } : { provideExternalRuntime: true }),
            optimization: { target: 'web' },
          },
        }),
        new HtmlWebpackPlugin({
          template: path.join(__dirname, 'index.html'),
          title,
          scriptLoading: 'defer',
          // A remote's page runs its entry deferred; the host's page runs only its starter, which runs the entry
          // once the page is painted (the template names the entry on the starter's tag).
          inject: remote,
          // Absolute script addresses: the page is served for deep paths too (/apps/3, /auth/google/callback).
          publicPath: '/',
          // The runtime config is a plain script served next to the page, read before any bundle.
          // A remote's own page loads the federation runtime first (standaloneRuntimeConfig).
          templateParameters: {
            title,
            standaloneRuntime: remote ? `/${STANDALONE_RUNTIME}` : '',
            starter: remote ? '' : `/${STARTER}`,
          },
        }),
        ...(remote ? [] : [new ProvideSharedPlugin({ provides: providedSingletons() })]),
        ...(routeTable ? [new PreloadListPlugin(routeTable)] : []),
      ],
      // The host needs every package it provides before its first render: one file instead of a dozen small ones
      // (a phone's browser opens 6 connections per origin; each extra round of requests costs a round trip).
      optimization: {
        ...swcMinimized(),
        ...(remote ? {} : { splitChunks: { cacheGroups: { startup: STARTUP_CHUNK } } }),
      },
      performance: { hints: false },
    };
    return [
      remote ? standaloneRuntimeConfig(dir, production) : starterConfig(dir, production, tsLoaderRule(dir, production)),
      config,
    ];
  };
}

/**
 * A remote's webpack config: its federation name, pages and title from the manifest.
 * @param {keyof typeof REMOTES} key the remote's key (`'auth'`, `'apps'`, …) @param {string} dir its folder
 */
function remoteConfig(key, dir) {
  const remote = REMOTES[key];
  return federatedConfig({ dir, name: remote.federationName, exposes: { ...remote.pages }, title: remote.title });
}

/**
 * The shell's webpack config; its route table also tells the static server which remote modules to preload.
 * @param {string} dir the host's folder
 */
function hostConfig(dir) {
  return federatedConfig({
    dir,
    name: 'host',
    title: HOST.title,
    routeTable: path.join(dir, 'src/routes/route-table.ts'),
  });
}

module.exports = { federatedConfig, remoteConfig, hostConfig, tsLoaderRule };
