// Serves a built host or remote the way a CDN would: hashed files cached for a year, manifest, entry and
// runtime config always revalidated, the host's routes answered with index.html.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';

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
    return info.isFile() ? { file, size: info.size } : null;
  } catch {
    return null;
  }
}

/**
 * @param {{ dir: string, port: number, bind?: string, spa?: boolean, runtimeConfig?: object, headers?: Record<string,string> }} options
 * @returns {Promise<{ url: string, close(): Promise<void> }>}
 */
export function startStaticServer({ dir, port, bind = '127.0.0.1', spa = false, runtimeConfig, headers = {} }) {
  const root = path.resolve(dir);
  const server = http.createServer(async (req, res) => {
    const base = {
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
      // Remote files are loaded by the host from another origin.
      'Access-Control-Allow-Origin': '*',
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
      res.end(`window.__PORTAL_CONFIG__ = ${JSON.stringify(runtimeConfig)};\n`);
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
    res.writeHead(200, {
      ...base,
      'Content-Type': TYPES[ext] ?? 'application/octet-stream',
      'Content-Length': found.size,
      'Cache-Control': HASHED.test(found.file) ? 'public, max-age=31536000, immutable' : 'no-cache',
      ...(ext === '.html' ? { 'Content-Security-Policy': "frame-ancestors 'none'", 'X-Frame-Options': 'DENY' } : {}),
    });
    if (req.method === 'HEAD') res.end();
    else createReadStream(found.file).pipe(res);
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
