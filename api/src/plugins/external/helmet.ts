import helmet from '@fastify/helmet';
import type { FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import helmetMiddleware from 'helmet';

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

// helmet itself (the same version @fastify/helmet wraps), for the answers given before any hook runs.
const applyPolicy = helmetMiddleware(securityPolicy);

/**
 * The same headers on answers Fastify gives before any hook runs (an undecodable URL, a path parameter past its
 * length limit: `frameworkErrors`).
 */
export function setSecurityHeaders(reply: FastifyReply): void {
  applyPolicy(reply.request.raw, reply.raw, (error) => {
    if (error) throw error;
  });
}

export default fp(
  async (app) => {
    await app.register(helmet, securityPolicy);
  },
  { name: 'helmet' },
);
