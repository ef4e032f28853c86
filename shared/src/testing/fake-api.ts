import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { resetApiClient } from '../api/client';
import { resetSessionForTests, useSession } from '../session/store';
import type { User } from '../types/entities';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface FakeReply {
  status: number;
  body?: unknown;
  /** Milliseconds to wait before answering. */
  delay?: number;
}

/** A real HTTP server on 127.0.0.1 that records what the client sent and answers from a route table. */
export async function startFakeApi(routes: Record<string, FakeReply | ((req: RecordedRequest) => FakeReply)>) {
  const requests: RecordedRequest[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const recorded = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body };
      const cors = {
        'Access-Control-Allow-Origin': '*',
        'Access-Control-Allow-Headers': 'authorization, content-type',
        'Access-Control-Allow-Methods': 'GET, POST, PUT, PATCH, DELETE',
      };
      if (req.method === 'OPTIONS') {
        res.writeHead(204, cors).end();
        return;
      }
      requests.push(recorded);
      const key = `${req.method} ${(req.url ?? '').split('?')[0]}`;
      const route = routes[key];
      const reply =
        typeof route === 'function'
          ? route(recorded)
          : (route ?? { status: 404, body: { message: 'Recurso no encontrado' } });
      const send = () => {
        if (reply.body === undefined) res.writeHead(reply.status, cors).end();
        else
          res.writeHead(reply.status, { ...cors, 'Content-Type': 'application/json' }).end(JSON.stringify(reply.body));
      };
      if (reply.delay) setTimeout(send, reply.delay);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A route that answers `first` to the first request and `then` to the others (a failure, then a retry that works). */
export function firstThen(first: FakeReply, then: FakeReply): () => FakeReply {
  let calls = 0;
  return () => (++calls === 1 ? first : then);
}

/** An unsigned JWT-shaped token: enough for the client, which only decodes it. */
export function fakeToken(claims: Record<string, unknown>): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'ES256', typ: 'JWT' })}.${part(claims)}.c2lnbmF0dXJl`;
}

export type FakeApi = Awaited<ReturnType<typeof startFakeApi>>;

export interface FakeApiOptions {
  /** The runtime config's redirect allow-list. */
  allowList?: string[];
  supportEmail?: string;
  /** Signed in from the start (token in storage, session initialised); anonymous when absent. */
  user?: User | null;
}

/**
 * Starts a fake API with these routes, points the shared client at it (runtime config, fresh client) and starts the
 * session again from empty storage: anonymous, or signed in as `user`.
 */
export async function useFakeApi(
  routes: Parameters<typeof startFakeApi>[0],
  { allowList = [], supportEmail = 'soporte@example.com', user = null }: FakeApiOptions = {},
): Promise<FakeApi> {
  const api = await startFakeApi(routes);
  window.__PORTAL_CONFIG__ = {
    apiBaseUrl: api.url,
    redirectAllowList: allowList,
    links: { campaignUrl: 'https://campaign.example.com', supportEmail },
  };
  resetApiClient();
  localStorage.clear();
  resetSessionForTests();
  if (user) {
    localStorage.setItem('token', 'token-de-prueba');
    useSession.setState({ user, token: 'token-de-prueba', isAuthenticated: true, isInitialized: true });
  }
  return api;
}
