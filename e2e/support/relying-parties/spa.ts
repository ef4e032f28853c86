// The single-page app on its own origin: ./spa/page.ts bundled with esbuild when the app starts (kept in memory,
// never written to the repository), and one HTML page for every path, as a static host serves a single-page app.
import http from 'node:http';
import path from 'node:path';
import { build } from 'esbuild';

export interface SpaOptions {
  port: number;
  title: string;
  issuer: string;
  clientId: string;
  scope: string;
}

/** The addresses an administrator registers for the single-page app at `url`. */
export function spaUris(url: string) {
  return { redirectUri: `${url}/callback`, postLogoutRedirectUri: `${url}/` };
}

export async function startSpa(options: SpaOptions): Promise<{ url: string; close(): Promise<void> }> {
  const bundled = await build({
    entryPoints: [path.join(__dirname, 'spa', 'page.ts')],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  });
  const script = bundled.outputFiles[0]?.contents ?? new Uint8Array();
  const config = JSON.stringify({
    title: options.title,
    authority: options.issuer,
    clientId: options.clientId,
    scope: options.scope,
  }).replace(/</g, '\\u003c');
  const html =
    `<!doctype html><html lang="es"><head><meta charset="utf-8"><title>${options.title.replace(/[&<>]/g, '')}</title>` +
    `<script id="config" type="application/json">${config}</script>` +
    '<script type="module" src="/app.js"></script></head><body><main></main></body></html>';

  const server = http.createServer((request, response) => {
    if (request.url === '/app.js') {
      response.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-store' });
      response.end(script);
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    response.end(html);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => resolve());
  });
  return {
    url: `http://localhost:${options.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
