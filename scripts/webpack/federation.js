// The one place that says how the host and every remote are built and what they share (DESIGN.md).
const path = require('node:path');
const HtmlWebpackPlugin = require('html-webpack-plugin');
const { ModuleFederationPlugin } = require('@module-federation/enhanced/webpack');
const rootPackage = require('../../package.json');
const sharedPackage = require('../../shared/package.json');

/** The federation names of the remotes, keyed like the runtime config's `remotes`. */
const REMOTES = {
  auth: 'remoteAuth',
  apps: 'remoteApps',
  admin: 'remoteAdmin',
  calculator: 'remoteCalculator',
};

/**
 * Singletons: two Reacts break hooks, two zustand or @portal/shared copies give two session stores. Each package
 * is also shared under its name with a trailing slash so that subpath imports (react/jsx-runtime) are shared too.
 * `react-router-dom` is shared as ./react-router-dom.js, the part of react-router the portal uses (tree-shaken),
 * instead of the whole package; `react-router` itself is not shared (only that file imports it).
 */
function sharedSingletons() {
  const versions = rootPackage.dependencies;
  const singleton = (version) => ({ singleton: true, requiredVersion: version, eager: false });
  const shared = {};
  for (const name of ['react', 'react-dom', 'zustand', 'styled-components']) {
    shared[name] = singleton(versions[name] ?? false);
    shared[`${name}/`] = singleton(versions[name] ?? false);
  }
  shared['react-router-dom'] = {
    ...singleton(versions['react-router-dom']),
    import: ROUTER_SHIM,
    version: require('react-router/package.json').version,
  };
  shared['@portal/shared'] = {
    singleton: true,
    requiredVersion: sharedPackage.version,
    version: sharedPackage.version,
  };
  shared['@portal/shared/'] = {
    singleton: true,
    requiredVersion: sharedPackage.version,
    version: sharedPackage.version,
  };
  return shared;
}

const ROUTER_SHIM = path.join(__dirname, 'react-router-dom.js');

/**
 * Every name a browser package's source (tests aside) imports from react-router(-dom) must be exported by
 * ./react-router-dom.js, or the page would get `undefined`: the build stops and says which names to add.
 */
function checkRouterShim() {
  const fs = require('node:fs');
  const root = path.join(__dirname, '../..');
  const exported = new Set(
    fs
      .readFileSync(ROUTER_SHIM, 'utf8')
      .match(/export \{([^}]*)\}/)[1]
      .match(/\w+/g),
  );
  const missing = new Set();
  const visit = (entry) => {
    if (fs.statSync(entry).isDirectory()) {
      if (!/(^|[\\/])(node_modules|dist|__tests__|testing)$/.test(entry))
        fs.readdirSync(entry).forEach((child) => visit(path.join(entry, child)));
    } else if (/\.tsx?$/.test(entry) && !/\.test\.tsx?$/.test(entry)) {
      const source = fs.readFileSync(entry, 'utf8');
      for (const [, names] of source.matchAll(/import\s+\{([^}]*)\}\s+from\s+'react-router(?:-dom)?'/g)) {
        for (const item of names
          .split(',')
          .map((n) => n.trim())
          .filter((n) => n && !n.startsWith('type '))) {
          if (!exported.has(item.split(/\s+as\s+/)[0])) missing.add(item.split(/\s+as\s+/)[0]);
        }
      }
    }
  };
  const packages = fs.readdirSync(root).filter((d) => d === 'host' || d === 'shared' || d.startsWith('remote-'));
  packages.forEach((dir) => fs.existsSync(path.join(root, dir, 'src')) && visit(path.join(root, dir, 'src')));
  if (missing.size > 0) {
    throw new Error(`scripts/webpack/react-router-dom.js no exporta ${[...missing].join(', ')}: añádelo a su lista.`);
  }
}

/**
 * One federation runtime on a page: the host provides its runtime core (`provideExternalRuntime`) and the remotes'
 * bundles read it from a global (`externalRuntime`) instead of carrying their own. A remote's standalone page has no
 * host: a second, plain build of standalone-runtime.js (no federation, so nothing external) sets that global, and the
 * page loads it before the remote's `main`. Both sides resolve the runtime core to one file (ES module), so the host
 * does not bundle it twice (imported by one file, required by another).
 */
const STANDALONE_RUNTIME = 'standalone-runtime.js';
const RUNTIME_CORE_FILE = path.join(path.dirname(require.resolve('@module-federation/runtime-core')), 'index.js');

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
    performance: { hints: false },
  };
}

const STARTUP_CHUNK = {
  name: 'startup',
  chunks: 'async',
  test: /[\\/](node_modules|shared[\\/]src|scripts[\\/]webpack)[\\/]/,
  enforce: true,
};

/**
 * Entry files are content-hashed for long caching. The federation runtime of @module-federation/enhanced 2.9 asks for
 * the entry's file name while webpack is still hashing (module-federation/core#5077), before the content hash
 * exists: it only needs the folder, so it gets the unhashed name then.
 */
function hashedEntryFilename(pathData) {
  return pathData.chunk?.contentHash?.javascript ? '[name].[contenthash:10].js' : '[name].js';
}

/**
 * The host's `preload.json`, read by the static server to announce with a Link header what a page needs before
 * any script asks for it (README, Rendimiento del front): the files of the host's start-up (`bootstrap` chunk group
 * and the shared packages it provides) and, per route of host/src/routes/route-table.ts, the remote modules it shows.
 */
class PreloadListPlugin {
  constructor(routeTable) {
    this.routeTable = routeTable;
  }

  routes() {
    const ts = require('typescript');
    const source = require('node:fs').readFileSync(this.routeTable, 'utf8');
    const { outputText } = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.CommonJS } });
    const table = { exports: {} };
    new Function('module', 'exports', 'require', outputText)(table, table.exports, require);
    const { ROUTES, ADMIN_LAYOUT } = table.exports;
    return ROUTES.map((route) => ({
      path: route.path,
      remote: route.remote,
      modules: route.layout === 'admin' ? [ADMIN_LAYOUT.module, route.module] : [route.module],
    }));
  }

  apply(compiler) {
    compiler.hooks.thisCompilation.tap('PreloadListPlugin', (compilation) => {
      compilation.hooks.processAssets.tap(
        { name: 'PreloadListPlugin', stage: compiler.webpack.Compilation.PROCESS_ASSETS_STAGE_REPORT },
        () => {
          const files = new Set();
          for (const chunk of compilation.namedChunkGroups.get('bootstrap')?.chunks ?? [])
            chunk.files.forEach((f) => files.add(f));
          // The shared packages the host provides, loaded by the federation runtime before bootstrap runs: the
          // chunks its provide modules load, not the consume fallbacks (same code in other chunks, used only when
          // nobody provides a package).
          for (const module of compilation.modules) {
            if (module.constructor.name !== 'ProvideSharedModule') continue;
            for (const block of module.blocks) {
              for (const chunk of compilation.chunkGraph.getBlockChunkGroup(block)?.chunks ?? [])
                chunk.files.forEach((f) => files.add(f));
            }
          }
          const scripts = [...files].filter((f) => f.endsWith('.js'));
          const body = JSON.stringify({ scripts, routes: this.routes() }, null, 2);
          compilation.emitAsset('preload.json', new compiler.webpack.sources.RawSource(body));
        },
      );
    });
  }
}

/**
 * A webpack config for the host or a remote.
 * @param {{ dir: string, name: string, port: number, exposes?: Record<string, string>, title?: string }} options
 */
function federatedConfig({ dir, name, port, exposes, title = 'Portal', routeTable }) {
  return (_env, argv) => {
    const production = argv.mode === 'production';
    checkRouterShim();
    const remote = Boolean(exposes);
    const config = {
      ...(remote ? { dependencies: [STANDALONE_RUNTIME] } : {}),
      mode: production ? 'production' : 'development',
      context: dir,
      entry: './src/index.ts',
      devtool: production ? 'source-map' : 'eval-cheap-module-source-map',
      output: {
        path: path.join(dir, 'dist'),
        publicPath: 'auto',
        filename: production ? hashedEntryFilename : '[name].js',
        chunkFilename: production ? '[name].[contenthash:10].js' : '[name].js',
        uniqueName: name,
        clean: remote ? { keep: STANDALONE_RUNTIME } : true,
      },
      resolve: {
        extensions: ['.tsx', '.ts', '.js'],
        // One copy of the federation runtime core whether a file imports or requires it (the host provides it).
        alias: { '@module-federation/runtime-core$': RUNTIME_CORE_FILE },
      },
      module: {
        rules: [
          {
            test: /\.tsx?$/,
            exclude: /node_modules/,
            use: {
              loader: require.resolve('ts-loader'),
              options: { transpileOnly: true, configFile: path.join(dir, 'tsconfig.json') },
            },
          },
          { test: /\.(png|jpe?g|svg|webp|mp4)$/, type: 'asset/resource' },
        ],
      },
      plugins: [
        new ModuleFederationPlugin({
          name,
          filename: 'remoteEntry.js',
          exposes,
          shared: sharedSingletons(),
          shareStrategy: 'loaded-first',
          manifest: true,
          dts: false,
          // One federation runtime on a page: the host's (README, Rendimiento del front).
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
          // Absolute script addresses: the page is served for deep paths too (/apps/3, /auth/google/callback).
          publicPath: '/',
          // The runtime config is a plain script served next to the page, read before any bundle.
          // A remote's own page loads the federation runtime first (standaloneRuntimeConfig).
          templateParameters: { title, standaloneRuntime: remote ? `/${STANDALONE_RUNTIME}` : '' },
        }),
        ...(routeTable ? [new PreloadListPlugin(routeTable)] : []),
      ],
      // The host needs every package it provides before its first render: one file instead of a dozen small ones
      // (a phone's browser opens 6 connections per origin; each extra round of requests costs a round trip).
      ...(remote ? {} : { optimization: { splitChunks: { cacheGroups: { startup: STARTUP_CHUNK } } } }),
      performance: { hints: false },
      devServer: {
        port,
        host: '127.0.0.1',
        historyApiFallback: true,
        headers: { 'Access-Control-Allow-Origin': '*' },
        static: { directory: path.join(dir, 'public'), watch: false },
      },
    };
    return remote ? [standaloneRuntimeConfig(dir, production), config] : config;
  };
}

module.exports = { federatedConfig, sharedSingletons, REMOTES };
