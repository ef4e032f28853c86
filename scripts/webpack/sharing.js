// What the host and every remote share at run time, and how (module federation's `shared`).
const path = require('node:path');
const rootPackage = require('../../package.json');
const sharedPackage = require('../../shared/package.json');

/**
 * Singletons: two Reacts break hooks, two zustand or @portal/shared copies give two session stores. Each package
 * is also shared under its name with a trailing slash so that subpath imports (react/jsx-runtime) are shared too.
 * `react-router-dom` is shared as ./react-router-dom.js, the part of react-router the portal uses (tree-shaken),
 * instead of the whole package; `react-router` itself is not shared (only that file imports it).
 */
function sharedSingletons() {
  /** @type {Record<string, string | undefined>} */
  const versions = rootPackage.dependencies;
  const singleton = (/** @type {string | false} */ version) => ({
    singleton: true,
    requiredVersion: version,
    eager: false,
  });
  /** @type {Record<string, import('@module-federation/enhanced').moduleFederationPlugin.SharedConfig>} */
  const shared = {};
  for (const name of ['react', 'react-dom', 'zustand', 'styled-components']) {
    shared[name] = singleton(versions[name] ?? false);
  }
  // zustand's subpaths are not shared: they hold no state of their own (the stores live in @portal/shared), and a
  // shared module is carried whole, not tree-shaken: `zustand/middleware` shared put its five middlewares (10 KB
  // minified) in /login's start-up chunk, where bundled with the session store only `persist` remains.
  for (const name of ['react', 'react-dom', 'styled-components']) {
    shared[`${name}/`] = singleton(versions[name] ?? false);
  }
  shared['react-router-dom'] = {
    ...singleton(versions['react-router-dom'] ?? false),
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
  // @portal/contracts is not shared: its rules hold no state, so the copy bundled into @portal/shared (which the
  // browser packages import) is the one the page runs, and a second copy would only cost bytes, never correctness.
  return shared;
}

/**
 * What the shell puts in the share scope without taking it back out (webpack's ProvideSharedPlugin options): the
 * same singletons, the same versions. The shell is the first part on every page, so the copy it provides is the one
 * every remote gets; consuming its own copy through the federation runtime only cost the page's start-up a version
 * negotiation per package and a round of chunk requests (docs/decisions/0061-apps-blocking-time.md). The shell's
 * code imports the packages directly: the module it runs is the module it provides.
 */
function providedSingletons() {
  /** @type {Record<string, object>} */
  const provides = {};
  for (const [key, config] of Object.entries(sharedSingletons())) {
    const { import: request, version, requiredVersion, singleton } = /** @type {any} */ (config);
    provides[request ?? key] = {
      shareKey: key,
      requiredVersion,
      singleton,
      eager: false,
      ...(version ? { version } : {}),
    };
  }
  return provides;
}

const ROUTER_SHIM = path.join(__dirname, 'react-router-dom.js');

module.exports = { sharedSingletons, providedSingletons, ROUTER_SHIM };
