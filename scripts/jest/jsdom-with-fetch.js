// jsdom has no fetch: the browser packages' API client is tested against a real local HTTP server with Node's own
// fetch, handed to the page together with the classes it checks its arguments against.
const { TestEnvironment } = require('jest-environment-jsdom');

const FROM_NODE = [
  'fetch',
  'Request',
  'Response',
  'Headers',
  'FormData',
  'AbortController',
  'AbortSignal',
  'ReadableStream',
  'TextEncoder',
  'TextDecoder',
  'structuredClone',
  'DOMException',
];

class JsdomWithFetch extends TestEnvironment {
  /** @override */
  async setup() {
    await super.setup();
    const node = /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (globalThis));
    for (const name of FROM_NODE) this.global[name] = node[name];
  }
}

module.exports = JsdomWithFetch;
