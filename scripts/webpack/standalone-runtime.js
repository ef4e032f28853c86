// A remote's own page (served alone for its team) has no host to give it the federation runtime its bundles read
// from a global (`experiments.externalRuntime`, federation.js): this file, built on its own and loaded before the
// remote's `main`, sets the global the way the host's runtime does.
import * as runtimeCore from '@module-federation/runtime-core';

const global = /** @type {{ _FEDERATION_RUNTIME_CORE?: unknown }} */ (globalThis);
global._FEDERATION_RUNTIME_CORE ??= runtimeCore;
