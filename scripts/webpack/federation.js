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
 */
function sharedSingletons() {
  const versions = rootPackage.dependencies;
  const singleton = (name, version) => ({ singleton: true, requiredVersion: version, eager: false });
  const shared = {};
  for (const name of ['react', 'react-dom', 'react-router', 'react-router-dom', 'zustand', 'styled-components']) {
    const version = versions[name] ?? false;
    shared[name] = singleton(name, version);
    shared[`${name}/`] = singleton(name, version);
  }
  shared['@portal/shared'] = { singleton: true, requiredVersion: sharedPackage.version, version: sharedPackage.version };
  shared['@portal/shared/'] = { singleton: true, requiredVersion: sharedPackage.version, version: sharedPackage.version };
  return shared;
}

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
          for (const chunk of compilation.namedChunkGroups.get('bootstrap')?.chunks ?? []) chunk.files.forEach((f) => files.add(f));
          // The shared packages the host provides, loaded by the federation runtime before bootstrap runs.
          for (const chunk of compilation.chunks) {
            const provides = [...compilation.chunkGraph.getChunkModulesIterable(chunk)].some((m) =>
              /[\\/]node_modules[\\/]|[\\/]shared[\\/]src[\\/]/.test(m.resource ?? ''),
            );
            if (provides && !chunk.hasRuntime()) chunk.files.forEach((f) => files.add(f));
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
    return {
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
        clean: true,
      },
      resolve: { extensions: ['.tsx', '.ts', '.js'] },
      module: {
        rules: [
          {
            test: /\.tsx?$/,
            exclude: /node_modules/,
            use: { loader: require.resolve('ts-loader'), options: { transpileOnly: true, configFile: path.join(dir, 'tsconfig.json') } },
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
          
        }),
        new HtmlWebpackPlugin({
          template: path.join(__dirname, 'index.html'),
          title,
          scriptLoading: 'defer',
          // Absolute script addresses: the page is served for deep paths too (/apps/3, /auth/google/callback).
          publicPath: '/',
          // The runtime config is a plain script served next to the page, read before any bundle.
          templateParameters: { title },
        }),
        ...(routeTable ? [new PreloadListPlugin(routeTable)] : []),
      ],
      performance: { hints: false },
      devServer: {
        port,
        host: '127.0.0.1',
        historyApiFallback: true,
        headers: { 'Access-Control-Allow-Origin': '*' },
        static: { directory: path.join(dir, 'public'), watch: false },
      },
    };
  };
}

module.exports = { federatedConfig, sharedSingletons, REMOTES };
