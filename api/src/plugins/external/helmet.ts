import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import helmet from 'helmet';

const securityPolicy = {
  // The API only answers JSON: nothing it returns may load resources or be framed. /docs sets its own policy.
  contentSecurityPolicy: {
    useDefaults: false,
    directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] },
  },
  // Tokens travel in headers and, on the portal's pages, in URLs: no answer may leak them through a Referer.
  referrerPolicy: { policy: 'no-referrer' as const },
  // The legacy twin of `frame-ancestors 'none'`, for browsers that ignore CSP.
  frameguard: { action: 'deny' as const },
};

/**
 * helmet's headers for this policy, asked of helmet once at start: with no nonce and nothing read from the request
 * they are the same on every answer, and helmet (or @fastify/helmet) would otherwise build the policy strings again
 * per request, a visible share of a cheap request's processor time (docs/benchmarks.md).
 */
function policyHeaders(): Readonly<Record<string, string>> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader(name: string, value: string | number) {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  helmet(securityPolicy)({} as IncomingMessage, response as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
  });
  return Object.freeze(headers);
}

/**
 * What helmet sends that a browser reads only on a document it shows or a window it opens (the opener policy, the
 * origin-keyed agent cluster, DNS prefetching from its links, IE's download prompt and XSS filter). On a JSON answer
 * they protect nothing and cost each request their writing and checking: only the API's pages carry them.
 */
const documentOnly: ReadonlySet<string> = new Set([
  'cross-origin-opener-policy',
  'origin-agent-cluster',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-xss-protection',
]);

const helmetHeaders = policyHeaders();

/**
 * Every answer's: the policy that nothing loads from it nor frames it, no sniffing, no Referer (a redirect's too), no
 * cross-origin reads without CORS, HSTS, and no Adobe cross-domain policy anywhere on the host.
 */
export const securityHeaders: Readonly<Record<string, string>> = Object.freeze(
  Object.fromEntries(Object.entries(helmetHeaders).filter(([name]) => !documentOnly.has(name))),
);
export const securityHeaderEntries = Object.entries(securityHeaders);

/** What the API's pages (the identity provider's, /docs) add to every answer's headers: helmet's whole set. */
export const documentHeaders: Readonly<Record<string, string>> = Object.freeze(
  Object.fromEntries(Object.entries(helmetHeaders).filter(([name]) => documentOnly.has(name))),
);

/**
 * The same headers on answers Fastify gives before any hook runs (an undecodable URL, a path parameter past its
 * length limit: `frameworkErrors`).
 */
export function setSecurityHeaders(reply: FastifyReply): void {
  for (const [name, value] of securityHeaderEntries) reply.raw.setHeader(name, value);
}

export default fp(
  async (app) => {
    // First of the request's hooks, as @fastify/helmet's was: a route that needs another policy (/docs) sets its own.
    app.addHook('onRequest', (request, reply, done) => {
      reply.headers(securityHeaders);
      // An answer read with a bearer (a session's token, a directory's, a setup link's secret) is its caller's alone
      // and may change at the next call: no cache keeps it, or a browser shows a revoked link's answer for the new
      // link. Set first, so a route that sets its own Cache-Control keeps it (docs/decisions/0120-no-store-with-a-bearer.md).
      if (request.headers.authorization !== undefined) reply.header('cache-control', 'no-store');
      done();
    });
  },
  { name: 'helmet' },
);
