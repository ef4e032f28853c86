// The product's own CDN-like static server (scripts/lib/static-server.mjs) and small servers that stand for a part in
// trouble, for the fault tests: a second shell of the same build, a remote that serves broken files, an API relay.
import http from 'node:http';
import path from 'node:path';
import { E2E, ROOT } from './env';

export interface StaticServer {
  url: string;
  close(): Promise<void>;
}

type StartStaticServer = (options: {
  dir: string;
  port: number;
  spa?: boolean;
  runtimeConfig?: object;
}) => Promise<StaticServer>;

export async function startStaticServer(options: Parameters<StartStaticServer>[0]): Promise<StaticServer> {
  const module = (await import(path.join(ROOT, 'scripts/lib/static-server.mjs'))) as {
    startStaticServer: StartStaticServer;
  };
  return module.startStaticServer(options);
}

/** A second shell of the same host build, on the spare port, deployed with the given API and remotes. */
export function startSpareShell(apiBaseUrl: string, remotes: Record<string, string>): Promise<StaticServer> {
  return startStaticServer({
    dir: path.join(ROOT, 'host/dist'),
    port: E2E.spareHostPort,
    spa: true,
    runtimeConfig: { apiBaseUrl, remotes, redirectAllowList: [] },
  });
}

function listen(server: http.Server, port: number): Promise<StaticServer> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${port}`,
        close: () =>
          new Promise((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      }),
    );
  });
}

/**
 * A remote whose manifest and entry are fine but whose other script files answer 500 with garbage, as a CDN with a
 * bad deployment would; `repair()` makes it serve the real files from then on.
 */
export async function startBrokenRemote(
  dir: string,
  port: number,
): Promise<StaticServer & { repair(): Promise<void> }> {
  const good = await startStaticServer({ dir, port: port + 1000 });
  let broken = true;
  const server = http.createServer((req, res) => {
    const url = req.url ?? '/';
    if (broken && url.endsWith('.js') && !url.includes('remoteEntry')) {
      res.writeHead(500, {
        'Content-Type': 'text/javascript',
        'Access-Control-Allow-Origin': '*',
        'Cache-Control': 'no-store',
      });
      res.end('<html>Internal Server Error');
      return;
    }
    const upstream = http.get(`${good.url}${url}`, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
  });
  const front = await listen(server, port);
  return {
    url: front.url,
    repair: async () => {
      broken = false;
    },
    close: async () => {
      await front.close();
      await good.close();
    },
  };
}

/** Relays every call to `target` (the real API), as if the API came back on this port. */
export function startRelay(target: string, port: number): Promise<StaticServer> {
  const server = http.createServer((req, res) => {
    const upstream = http.request(
      `${target}${req.url ?? '/'}`,
      { method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  return listen(server, port);
}
