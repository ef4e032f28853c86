// Serves a built host or remote the way a CDN would: hashed files cached for a year, manifest, entry and
// runtime config always revalidated, the host's routes answered with index.html, text compressed (brotli or gzip),
// the page security headers on every answer, and the host's pages announcing with a Link header what they will load.
import { readFile, stat } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
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

const HASHED = /\.[0-9a-f]{10}\.[a-z0-9]+$/;
const COMPRESSIBLE = new Set(['.html', '.js', '.json', '.map', '.css', '.svg', '.txt']);
const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * The page security headers (README, Despliegue). Scripts only from files of the listed origins (no inline script:
 * the runtime config is a file too); styles also inline, because styled-components writes its rules into <style>
 * elements at run time. `origins` are the API and the remotes the pages talk to.
 */
export function securityHeaders({ origins = [], scriptOrigins = [], frameOrigins = [] } = {}) {
  const list = (items) => [...new Set(items)].join(' ');
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
  };
}

/** What each file compresses to, kept while the file is unchanged (hashed files never change). */
const compressedCache = new Map();

async function compressed(file, mtimeMs, encoding) {
  const key = `${encoding}:${file}`;
  const cached = compressedCache.get(key);
  if (cached?.mtimeMs === mtimeMs) return cached.body;
  const raw = await readFile(file);
  const body =
    encoding === 'br'
      ? await brotli(raw, {
          params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 9, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: raw.length },
        })
      : await gzip(raw, { level: 9 });
  compressedCache.set(key, { mtimeMs, body });
  return body;
}

function pickEncoding(req, ext) {
  if (!COMPRESSIBLE.has(ext)) return undefined;
  const accepted = String(req.headers['accept-encoding'] ?? '');
  if (/\bbr\b/.test(accepted)) return 'br';
  if (/\bgzip\b/.test(accepted)) return 'gzip';
  return undefined;
}

function routeMatches(pattern, pathname) {
  const regex = new RegExp(`^${pattern.replace(/:[^/]+/g, '[^/]+')}/?$`);
  return regex.test(pathname);
}

/**
 * The Link header of the host's pages: the runtime config, the host's start-up files, and for the route asked the
 * remote's manifest, entry and the chunks of the modules it shows (read from the remote's mf-manifest.json, fetched
 * by this server and kept for a few seconds, so a remote deployed on its own is picked up without a restart).
 */
export function hostPreloads({ dir, runtimeConfig, ttlMs = 10_000 }) {
  const manifests = new Map();
  let list;
  const manifest = async (url) => {
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
  return async (pathname) => {
    list ??= JSON.parse(
      await readFile(path.join(dir, 'preload.json'), 'utf8').catch(() => '{"scripts":[],"routes":[]}'),
    );
    const links = [
      '</runtime-config.js>; rel=preload; as=script',
      ...list.scripts.map((file) => `</${file}>; rel=preload; as=script`),
    ];
    const route = list.routes.find((r) => routeMatches(r.path, pathname));
    const manifestUrl = route && runtimeConfig?.remotes?.[route.remote];
    const remote = manifestUrl ? await manifest(manifestUrl) : null;
    if (remote) {
      const at = (file) => new URL(file, manifestUrl).href;
      links.push(`<${manifestUrl}>; rel=preload; as=fetch; crossorigin=anonymous`);
      const entry = remote.metaData?.remoteEntry;
      if (entry?.name) links.push(`<${at(path.posix.join(entry.path || '', entry.name))}>; rel=preload; as=script`);
      for (const module of route.modules) {
        const exposed = remote.exposes?.find((e) => e.path === module);
        for (const file of exposed?.assets?.js?.sync ?? []) links.push(`<${at(file)}>; rel=preload; as=script`);
      }
    }
    return links.join(', ');
  };
}

async function fileIn(dir, urlPath) {
  let decoded;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  const file = path.resolve(dir, `.${path.posix.normalize(decoded)}`);
  if (file !== dir && !file.startsWith(dir + path.sep)) return null;
  try {
    const info = await stat(file);
    return info.isFile() ? { file, size: info.size, mtimeMs: info.mtimeMs } : null;
  } catch {
    return null;
  }
}

/** The origins of the API and the remotes named in a runtime config: what the pages may load and call. */
export function configOrigins(runtimeConfig) {
  const urls = [runtimeConfig?.apiBaseUrl, ...Object.values(runtimeConfig?.remotes ?? {})].filter(Boolean);
  return urls.map((url) => new URL(url).origin);
}

/**
 * @param {{ dir: string, port: number, bind?: string, spa?: boolean, runtimeConfig?: object,
 *   headers?: Record<string,string>, preload?: (pathname: string) => Promise<string> }} options
 *   `preload` gives the Link header of the pages (hostPreloads); without it, a spa server computes it from
 *   dir/preload.json.
 * @returns {Promise<{ url: string, close(): Promise<void> }>}
 */
export function startStaticServer({
  dir,
  port,
  bind = '127.0.0.1',
  spa = false,
  runtimeConfig,
  headers = {},
  preload,
}) {
  const root = path.resolve(dir);
  const stripe = runtimeConfig?.billing?.publishableKey ? ['https://js.stripe.com'] : [];
  const security = securityHeaders({
    origins: configOrigins(runtimeConfig),
    scriptOrigins: stripe,
    frameOrigins: stripe,
  });
  const pageLinks = preload ?? (spa ? hostPreloads({ dir: root, runtimeConfig }) : undefined);
  const server = http.createServer(async (req, res) => {
    const base = {
      ...security,
      // Remote files are loaded by the host from another origin.
      'Access-Control-Allow-Origin': '*',
      Vary: 'Accept-Encoding',
      ...headers,
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { ...base, Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('Método no permitido');
      return;
    }
    const { pathname } = new URL(req.url ?? '/', 'http://localhost');
    if (runtimeConfig && pathname === '/runtime-config.js') {
      res.writeHead(200, { ...base, 'Content-Type': TYPES['.js'], 'Cache-Control': 'no-cache' });
      res.end(req.method === 'HEAD' ? undefined : `window.__PORTAL_CONFIG__ = ${JSON.stringify(runtimeConfig)};\n`);
      return;
    }
    let found = await fileIn(root, pathname === '/' ? '/index.html' : pathname);
    if (!found && spa && !path.extname(pathname)) found = await fileIn(root, '/index.html');
    if (!found) {
      res.writeHead(404, { ...base, 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('No encontrado');
      return;
    }
    const ext = path.extname(found.file);
    const encoding = pickEncoding(req, ext);
    const body = encoding ? await compressed(found.file, found.mtimeMs, encoding) : await readFile(found.file);
    const link = ext === '.html' && pageLinks ? await pageLinks(pathname) : '';
    res.writeHead(200, {
      ...base,
      'Content-Type': TYPES[ext] ?? 'application/octet-stream',
      'Content-Length': body.length,
      'Cache-Control': HASHED.test(found.file) ? 'public, max-age=31536000, immutable' : 'no-cache',
      ...(encoding ? { 'Content-Encoding': encoding } : {}),
      ...(link ? { Link: link } : {}),
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, bind, () => {
      server.off('error', reject);
      resolve({
        url: `http://${bind}:${port}`,
        close: () =>
          new Promise((done) => {
            server.closeAllConnections?.();
            server.close(() => done());
          }),
      });
    });
  });
}
