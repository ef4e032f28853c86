// The CORS preflight of the provider's client endpoints, answered by the portal: the library's grants any Origin (it
// checks the client only on the request that follows), which tells every site that a browser may send it there.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { BrowserOrigins, ClientOrigins } from '../../domain/identity-provider/browser-origins.js';
import { oidcRoutes } from '../../domain/identity-provider/oidc/endpoints.js';

const nobody: ReadonlySet<string> = new Set();

/**
 * Per endpoint, the methods the library allows there and whose redirect origins may call it from a browser: a public
 * client's for the token and revocation endpoints (a confidential client keeps its secret off the browser), any
 * client's for userinfo (a resource call with an access token), and nobody's for introspection (confidential only).
 */
const browserEndpoints: Record<string, { methods: string; origins: (known: ClientOrigins) => ReadonlySet<string> }> = {
  [oidcRoutes.token]: { methods: 'POST', origins: (known) => known.publicClients },
  [oidcRoutes.revocation]: { methods: 'POST', origins: (known) => known.publicClients },
  [oidcRoutes.userinfo]: { methods: 'GET,POST', origins: (known) => known.anyClient },
  [oidcRoutes.introspection]: { methods: 'POST', origins: () => nobody },
};

/** How long a browser may keep a granted preflight (seconds), as the library answers. */
const maxAge = '3600';

/** Whether the portal answers this endpoint's preflight (the discovery documents stay open to every origin). */
export const answersPreflight = (url: string) => Object.hasOwn(browserEndpoints, url);

/**
 * 204 to every preflight; the grant (Access-Control-Allow-*) only to an origin of a client allowed there, and only
 * for a real preflight (with Access-Control-Request-Method).
 */
export async function answerPreflight(origins: BrowserOrigins, request: FastifyRequest, reply: FastifyReply) {
  const endpoint = browserEndpoints[request.routeOptions.url ?? ''];
  const origin = request.headers.origin;
  reply.header('vary', 'Origin');
  if (endpoint && origin && request.headers['access-control-request-method']) {
    if (endpoint.origins(await origins.current()).has(origin)) {
      reply
        .header('access-control-allow-origin', origin)
        .header('access-control-allow-methods', endpoint.methods)
        .header('access-control-max-age', maxAge);
      const asked = request.headers['access-control-request-headers'];
      if (asked) reply.header('access-control-allow-headers', asked);
    }
  }
  return reply.code(204).send();
}
