// Serves a built host or remote the way a CDN would: hashed files cached for a year, manifest, entry and
// runtime config always revalidated (ETag, 304 Not Modified), byte ranges (206), the host's routes answered with
// index.html (or the page prerendered for that path: login.html for /login, or the shell's frame of a user page for a
// browser that keeps a session), text in the brotli or gzip copy the
// build wrote beside it (scripts/lib/precompress.mjs), the page security headers on every answer (those only a
// document reads left off the files a page loads), and the host's
// pages announcing with a Link header what they will load.
// The files themselves are served by sirv (maintained, small, no dependencies of note) under these headers.
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import sirv from 'sirv';
import { compressedCopies } from './precompress.mjs';

/** @type {Record<string, string>} */
const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.mp4': 'video/mp4',
  '.txt': 'text/plain; charset=utf-8',
  '.ico': 'image/x-icon',
};

/** @typedef {import('./types.js').RuntimeConfig} RuntimeConfig */

const HASHED = /\.[0-9a-f]{10}\.[a-z0-9]+$/;

/**
 * The page security headers (README, Despliegue). Scripts only from files of the listed origins (no inline script:
 * the runtime config is a file too); styles also inline, because styled-components writes its rules into <style>
 * elements at run time. `origins` are the API and the remotes the pages talk to.
 * @param {{ origins?: string[], scriptOrigins?: string[], frameOrigins?: string[] }} [options]
 */
export function securityHeaders({ origins = [], scriptOrigins = [], frameOrigins = [] } = {}) {
  const list = (/** @type {string[]} */ items) => [...new Set(items)].join(' ');
  const csp = [
    "default-src 'self'",
    `script-src 'self' ${list([...origins, ...scriptOrigins])}`,
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' data: blob: https: ${list(origins)}`,
    "font-src 'self' data:",
    `connect-src 'self' ${list(origins)}`,
    `frame-src 'self' ${list(frameOrigins)}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
  return {
    'Content-Security-Policy': csp,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'X-Frame-Options': 'DENY',
    // The API's value (helmet's default, api/src/plugins/external/helmet.ts): once a browser has seen the portal over
    // https, it never asks for a page over plain http again. Browsers ignore it on an http answer (npm start).
    'Strict-Transport-Security': 'max-age=31536000; includeSubDomains',
  };
}

/**
 * Source maps the build keeps for debugging (devtool 'hidden-source-map', scripts/webpack/federation.js) are never
 * published: they hold the sources, comments included. Any letter case, so a case-insensitive disk hides none.
 */
const SOURCE_MAP = /\.map$/i;

/** The headers of securityHeaders that only a document reads: a browser ignores them on a script or a style. */
const DOCUMENT_ONLY = ['Content-Security-Policy', 'X-Frame-Options'];

/**
 * Files a page loads, that the browser never opens as a document that could run script (an SVG can: it is not here).
 * They go without DOCUMENT_ONLY: on /login that is about 0.7 KB less of each of its seven scripts' answers.
 */
const SUBRESOURCE = /\.(js|mjs|css|json|woff2?|png|jpe?g|gif|webp|ico|mp4)$/;

/**
 * securityHeaders' without those only a document reads: what a file a page loads (a script, a style, an image, the
 * manifest) is sent with. Pages, and anything a browser could open as one, get them all.
 * @param {Record<string, string>} security
 */
function fileHeaders(security) {
  return Object.fromEntries(Object.entries(security).filter(([name]) => !DOCUMENT_ONLY.includes(name)));
}

/**
 * The compression an Accept-Encoding header takes, brotli first (what sirv answers for the build's files); null when
 * it takes neither (or refuses both with q=0).
 * @param {string | undefined} header @returns {'br' | 'gzip' | null}
 */
export function acceptedEncoding(header) {
  const taken = new Set();
  for (const part of (header ?? '').toLowerCase().split(',')) {
    const [name, ...params] = part.split(';').map((piece) => piece.trim());
    const q = params.find((param) => param.startsWith('q='));
    if (name && !(q && Number(q.slice(2)) === 0)) taken.add(name);
  }
  if (taken.has('br')) return 'br';
  return taken.has('gzip') ? 'gzip' : null;
}

/** @param {string} pattern @param {string} pathname */
function routeMatches(pattern, pathname) {
  const regex = new RegExp(`^${pattern.replace(/:[^/]+/g, '[^/]+')}/?$`);
  return regex.test(pathname);
}

/**
 * A script the page will run, fetched from the first byte of the answer but at low priority: a high-priority script
 * counts as blocking the first paint (Lighthouse's simulation, and Chromium's own scheduling), and the page paints
 * first, then runs its scripts (host/src/start; docs/decisions/0060-paint-before-scripts.md).
 */
const SCRIPT_PRELOAD = 'rel=preload; as=script; fetchpriority=low';

/**
 * A route of the host's preload.json (scripts/webpack/preload-list-plugin.js).
 * @typedef {{ path: string, prerendered?: boolean, remote: string, modules: string[] }} PreloadRoute
 */

/**
 * What a page of the host loads: the host's entry and start-up files and, for a route whose remote answers, the
 * remote's manifest, its entry and the chunks of the modules the route shows.
 * @typedef {{ scripts: string[], manifest?: string }} PageFiles
 */

/**
 * What the host's pages load (read from the host's preload.json and the remotes' mf-manifest.json, fetched by this
 * server and kept for a few seconds, so a remote deployed on its own is picked up without a restart), given two ways:
 * - `link(pathname)`: the page's Link header. The runtime config and every file the route needs, for a page whose
 *   largest paint is the remote's page (a frame, the plain shell): they are on their way while the document is
 *   parsed. A prerendered sign-in page only connects to its remote's origin: its largest paint is in the document,
 *   and anything fetched before that paint may hold it up (Lighthouse's simulation counts every request that ended
 *   before the observed paint and is not a script evaluated after it).
 * - `afterPaint()`: for each prerendered page, the same files, which the page's starter asks for once the page is
 *   painted (host/src/start/start.ts), all at once: the runtime config's `preload` (decision 0063).
 * @param {{ dir: string, runtimeConfig?: RuntimeConfig, ttlMs?: number }} options
 */
export function hostPreloads({ dir, runtimeConfig, ttlMs = 10_000 }) {
  /** @type {Map<string, { at: number, value: any }>} a remote's mf-manifest.json, as fetched */
  const manifests = new Map();
  /** @type {{ scripts: string[], routes: PreloadRoute[] } | undefined} */
  let list;
  const manifest = async (/** @type {string} */ url) => {
    const cached = manifests.get(url);
    if (cached && Date.now() - cached.at < ttlMs) return cached.value;
    let value = null;
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(1000) });
      if (response.ok) value = await response.json();
    } catch {
      value = null; // a remote that is down gets no preload: the page shows its fallback
    }
    manifests.set(url, { at: Date.now(), value });
    return value;
  };
  const preloadList = async () => {
    list ??= /** @type {NonNullable<typeof list>} */ (
      JSON.parse(await readFile(path.join(dir, 'preload.json'), 'utf8').catch(() => '{"scripts":[],"routes":[]}'))
    );
    return list;
  };
  /** @param {PreloadRoute | undefined} route @returns {Promise<PageFiles>} */
  const filesOf = async (route) => {
    const preloads = await preloadList();
    /** @type {PageFiles} */
    const files = { scripts: preloads.scripts.map((file) => `/${file}`) };
    const manifestUrl = route && runtimeConfig?.remotes?.[route.remote];
    const remote = manifestUrl ? await manifest(manifestUrl) : null;
    if (!route || !manifestUrl || !remote) return files;
    const at = (/** @type {string} */ file) => new URL(file, manifestUrl).href;
    // Fetched uncredentialed, as the federation runtime fetches it.
    files.manifest = manifestUrl;
    const entry = remote.metaData?.remoteEntry;
    if (entry?.name) files.scripts.push(at(path.posix.join(entry.path || '', entry.name)));
    for (const module of route.modules) {
      const exposed = remote.exposes?.find((/** @type {{ path: string }} */ e) => e.path === module);
      for (const file of exposed?.assets?.js?.sync ?? []) files.scripts.push(at(file));
    }
    return files;
  };
  return {
    /** @param {string} pathname @returns {Promise<string>} */
    async link(pathname) {
      const route = (await preloadList()).routes.find((r) => routeMatches(r.path, pathname));
      const files = await filesOf(route);
      if (route?.prerendered) {
        return files.manifest ? `<${new URL(files.manifest).origin}>; rel=preconnect; crossorigin=anonymous` : '';
      }
      return [
        `</runtime-config.js>; ${SCRIPT_PRELOAD}`,
        ...(files.manifest ? [`<${files.manifest}>; rel=preload; as=fetch; crossorigin=anonymous`] : []),
        ...files.scripts.map((file) => `<${file}>; ${SCRIPT_PRELOAD}`),
      ].join(', ');
    },
    /** @returns {Promise<Record<string, PageFiles>>} */
    async afterPaint() {
      /** @type {Record<string, PageFiles>} */
      const pages = {};
      for (const route of (await preloadList()).routes) if (route.prerendered) pages[route.path] = await filesOf(route);
      return pages;
    },
  };
}

/** @typedef {import('./prerender.mjs').PrerenderedList} PrerenderedList */

/**
 * The host build's list of prerendered pages and frames (`prerendered.json`), read again after a few seconds, so a
 * host deployed into the folder is picked up without a restart; an empty list where there is none (a remote, a
 * development build).
 * @param {string} dir @param {number} [ttlMs] @returns {() => Promise<PrerenderedList>}
 */
function prerenderedPages(dir, ttlMs = 5_000) {
  /** @type {PrerenderedList} */
  const none = { sessionHint: '', signIn: [], frames: [] };
  /** @type {{ at: number, value: PrerenderedList } | undefined} */
  let cached;
  return async () => {
    if (cached && Date.now() - cached.at < ttlMs) return cached.value;
    const text = await readFile(path.join(dir, 'prerendered.json'), 'utf8').catch(() => null);
    let value = none;
    try {
      value = text ? { ...none, ...JSON.parse(text) } : none;
    } catch {
      value = none; // a list being written: the plain pages until the next read
    }
    cached = { at: Date.now(), value };
    return value;
  };
}

/** Whether the request's Cookie header holds `name=value`. */
/** @param {string | undefined} header @param {string} name @param {string} value */
function hasCookie(header, name, value) {
  return (header ?? '').split(';').some((pair) => pair.trim() === `${name}=${value}`);
}

/** Whether a path names a file inside the folder (the SPA answers index.html for the rest). */
/** @param {string} dir @param {string} urlPath */
async function isFileIn(dir, urlPath) {
  let decoded;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return false;
  }
  const file = path.resolve(dir, `.${path.posix.normalize(decoded)}`);
  if (file !== dir && !file.startsWith(dir + path.sep)) return false;
  return stat(file).then(
    (info) => info.isFile(),
    () => false,
  );
}

/** The origins of the API and the remotes named in a runtime config: what the pages may load and call. */
/** @param {RuntimeConfig | undefined} runtimeConfig */
export function configOrigins(runtimeConfig) {
  const urls = [runtimeConfig?.apiBaseUrl, ...Object.values(runtimeConfig?.remotes ?? {})].filter(Boolean);
  return urls.map((url) => new URL(/** @type {string} */ (url)).origin);
}

/**
 * @param {{ dir: string, port: number, bind?: string, spa?: boolean, runtimeConfig?: RuntimeConfig,
 *   headers?: Record<string,string> }} options
 *   A spa server (the host) gives its pages a Link header and its runtime config the files of each prerendered page
 *   (hostPreloads, from dir/preload.json).
 * @returns {Promise<{ url: string, close(): Promise<void> }>}
 */
export function startStaticServer({ dir, port, bind = '127.0.0.1', spa = false, runtimeConfig, headers = {} }) {
  const root = path.resolve(dir);
  const stripe = runtimeConfig?.billing?.publishableKey ? ['https://js.stripe.com'] : [];
  const security = securityHeaders({
    origins: configOrigins(runtimeConfig),
    scriptOrigins: stripe,
    frameOrigins: stripe,
  });
  const forFiles = fileHeaders(security);
  const preloads = spa ? hostPreloads({ dir: root, runtimeConfig }) : undefined;
  /** @type {{ script: string, tag: string, copies: ReturnType<typeof compressedCopies> } | undefined} */
  let served;
  /** The runtime config as served, with the host's `preload` list; compressed again only when it changed. */
  const configAnswer = async () => {
    const preload = preloads ? await preloads.afterPaint() : undefined;
    const config = preload && Object.keys(preload).length > 0 ? { ...runtimeConfig, preload } : runtimeConfig;
    const script = `window.__PORTAL_CONFIG__ = ${JSON.stringify(config)};\n`;
    if (served?.script !== script) {
      const tag = createHash('sha256').update(script).digest('base64url').slice(0, 22);
      served = { script, tag, copies: compressedCopies(script) };
    }
    return served;
  };
  const files = sirv(root, {
    // Looked up at each request, so a part redeployed into the folder is served without a restart.
    dev: true,
    etag: true,
    brotli: true,
    gzip: true,
    extensions: [],
    setHeaders: (res, pathname) => {
      res.setHeader('Cache-Control', HASHED.test(pathname) ? 'public, max-age=31536000, immutable' : 'no-cache');
      const type = TYPES[path.extname(pathname)];
      if (type) res.setHeader('Content-Type', type);
      // Which page answers a route depends on the session hint (pageFile): a cache in front keeps one per cookie.
      if (spa && path.extname(pathname) === '.html') res.setHeader('Vary', 'Accept-Encoding, Cookie');
    },
  });
  const prerendered = prerenderedPages(root);
  /**
   * The page that answers a route of the host (scripts/lib/prerender.mjs): for a browser that keeps a session (the
   * session hint cookie), the shell's frame of that route, and for a sign-in page the plain shell (the scripts send
   * this person on: the sign-in form would only flash); for anyone else the page prerendered for the path
   * (/login → login.html); else index.html. The cookie changes only which static file answers: it opens nothing.
   * @param {string} pathname @param {string | undefined} cookie
   */
  const pageFile = async (pathname, cookie) => {
    const list = await prerendered();
    const route = pathname.replace(/\/+$/, '') || '/';
    if (list.sessionHint && hasCookie(cookie, list.sessionHint, '1')) {
      const frame = list.frames.find((candidate) => routeMatches(candidate.path, pathname));
      if (frame && (await isFileIn(root, frame.file))) return frame.file;
      if (list.signIn.includes(route)) return '/index.html';
    }
    const page = `${route}.html`;
    return route !== '/' && (await isFileIn(root, page)) ? page : '/index.html';
  };
  const notFound = (/** @type {http.IncomingMessage} */ _req, /** @type {http.ServerResponse} */ res) => {
    res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-cache' });
    res.end('No encontrado');
  };
  const server = http.createServer(async (req, res) => {
    const requested = new URL(req.url ?? '/', 'http://localhost').pathname;
    const base = {
      ...(SUBRESOURCE.test(requested) ? forFiles : security),
      // Remote files are loaded by the host from another origin.
      'Access-Control-Allow-Origin': '*',
      Vary: 'Accept-Encoding',
      ...headers,
    };
    for (const [name, value] of Object.entries(base)) res.setHeader(name, value);
    const posted = req.method === 'POST' && spa ? new URL(req.url ?? '/', 'http://localhost') : undefined;
    if (posted && !path.extname(posted.pathname)) {
      // A form of a prerendered page sent before its scripts ran (method="post", remote-auth's Form): back to the
      // page, the body (a password) dropped unread. One leading slash: '//host' would send the browser elsewhere.
      req.resume();
      const back = `/${posted.pathname.replace(/^\/+/, '')}${posted.search}`;
      res.writeHead(303, { Location: back, 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('Vuelve a intentarlo cuando la página termine de cargar');
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('Método no permitido');
      return;
    }
    const pathname = requested;
    if (SOURCE_MAP.test(pathname)) {
      notFound(req, res);
      return;
    }
    if (runtimeConfig && pathname === '/runtime-config.js') {
      // Compressed as the build's files are (the brotli or gzip copy), each copy with its own ETag.
      const encoding = acceptedEncoding(req.headers['accept-encoding']);
      const config = await configAnswer();
      const body = encoding ? config.copies[encoding] : Buffer.from(config.script);
      const tag = `"${config.tag}${encoding ? `-${encoding}` : ''}"`;
      res.setHeader('ETag', tag);
      res.setHeader('Cache-Control', 'no-cache');
      if (req.headers['if-none-match'] === tag) {
        res.writeHead(304);
        res.end();
        return;
      }
      res.writeHead(200, {
        'Content-Type': TYPES['.js'],
        'Content-Length': body.length,
        ...(encoding ? { 'Content-Encoding': encoding } : {}),
      });
      res.end(req.method === 'HEAD' ? undefined : body);
      return;
    }
    let target = pathname === '/' ? '/index.html' : pathname;
    if (spa && (pathname === '/' || (!path.extname(pathname) && !(await isFileIn(root, pathname))))) {
      target = await pageFile(pathname, req.headers.cookie);
    }
    if (target !== pathname) req.url = target;
    if (path.extname(target) === '.html' && preloads) {
      const link = await preloads.link(pathname);
      if (link) res.setHeader('Link', link);
    }
    files(req, res, () => notFound(req, res));
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, bind, () => {
      server.off('error', reject);
      resolve({
        url: `http://${bind}:${/** @type {import('node:net').AddressInfo} */ (server.address()).port}`,
        close: () =>
          new Promise((done) => {
            server.closeAllConnections?.();
            server.close(() => done());
          }),
      });
    });
  });
}
