import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { IntrospectionAnswer } from '../../domain/identity-provider/oidc/kept-introspection.js';
import type { UserinfoAnswer } from '../../domain/identity-provider/oidc/kept-userinfo.js';
import { createBrowserOrigins } from '../../domain/identity-provider/browser-origins.js';
import { oidcRoutes } from '../../domain/identity-provider/oidc/endpoints.js';
import { documentHeaders } from '../../plugins/external/helmet.js';
import deviceRoutes from './device.js';
import interactionRoutes from './interactions.js';
import { answerPreflight, answersPreflight } from './preflight.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** `false`: @fastify/cors leaves the route alone (the route answers CORS itself). */
    cors?: false;
    /** The identity provider's route may answer a page (`providerEndpoints`). */
    page?: boolean;
  }
}

/**
 * The policy of the provider's own answers: JSON for the apps, and three small pages (the form that carries a
 * response to an app, the logout question, its automatic form) whose inline script the library allows by its hash.
 * Forms post to the apps' registered addresses, so no `form-action` is set.
 */
export const providerContentSecurityPolicy =
  "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'";

type Method = 'GET' | 'POST' | 'OPTIONS';

/** A form in UTF-8 (what fetch sends with URLSearchParams), read the same by the library and by Fastify. */
const formType = /^application\/x-www-form-urlencoded(; ?charset=utf-8)?$/i;

/** A bearer token as the library reads one from the header: the scheme, one space, the token (no spaces). */
const bearerToken = /^bearer ([^ ]+)$/i;

/**
 * The provider's endpoints, the methods it answers on each (OPTIONS: its own CORS, per client), and whether a browser
 * is sent there, so that its answer may be a page (the logout question, an error page, form_post's form): those get a
 * document's headers besides every answer's. Anything else under /oidc is the API's Spanish 404, not the library's.
 */
const providerEndpoints: [string, Method[], { page?: true }?][] = [
  ['/.well-known/openid-configuration', ['GET', 'OPTIONS']],
  ['/.well-known/oauth-authorization-server', ['GET', 'OPTIONS']],
  // GET only (the library's default): a cross-site form POST would arrive without the provider's Lax cookies.
  [oidcRoutes.authorization, ['GET'], { page: true }],
  [`${oidcRoutes.authorization}/:uid`, ['GET'], { page: true }],
  [oidcRoutes.token, ['POST', 'OPTIONS']],
  [oidcRoutes.userinfo, ['GET', 'POST', 'OPTIONS']],
  [oidcRoutes.introspection, ['POST', 'OPTIONS']],
  [oidcRoutes.revocation, ['POST', 'OPTIONS']],
  [oidcRoutes.end_session, ['GET'], { page: true }],
  [`${oidcRoutes.end_session}/confirm`, ['POST'], { page: true }],
  [`${oidcRoutes.end_session}/success`, ['GET'], { page: true }],
  // The device asks from no browser; the person answers at the portal's /dispositivo (routes/oidc/device.ts).
  [oidcRoutes.device_authorization, ['POST']],
];

/**
 * Mounts oidc-provider (a Koa app) at its endpoints (docs/decisions/0055). The request is handed over untouched (its
 * body unread: the library parses it), with the headers the API's hooks already set (request id, security headers),
 * the provider's own policy instead of the API's JSON-only one. The API's CORS stays out of it: the provider answers
 * CORS itself, per client.
 */
const providerRoutes: FastifyPluginAsync = async (app) => {
  const handle = app.identityProvider.provider.callback();
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));

  const origins = createBrowserOrigins(app.db, app.hasDecorator('sessionState') ? app.sessionState : undefined);
  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    // An OPTIONS without Origin is no browser's preflight: 204 without any CORS grant, as on the API's other routes;
    // the client endpoints' preflights are the portal's (preflight.ts).
    if (request.method === 'OPTIONS' && (!request.headers.origin || answersPreflight(request.routeOptions.url ?? ''))) {
      return answerPreflight(origins, request, reply);
    }
    for (const [name, value] of Object.entries(reply.getHeaders())) {
      if (value !== undefined) reply.raw.setHeader(name, value);
    }
    if (request.routeOptions.config.page) {
      for (const [name, value] of Object.entries(documentHeaders)) reply.raw.setHeader(name, value);
    }
    reply.raw.setHeader('content-security-policy', providerContentSecurityPolicy);
    reply.hijack();
    await handle(request.raw, reply.raw);
  };
  // GET userinfo is answered from the session memory when everything it needs is kept there (kept-userinfo.ts); a
  // request that carries anything else (a query, a body, DPoP, another scheme) is the library's, as is any token the
  // memory cannot vouch for.
  const keptAnswer = (request: FastifyRequest) => {
    const { headers } = request;
    if (request.method !== 'GET' || request.url !== oidcRoutes.userinfo) return undefined;
    if (headers.dpop !== undefined || headers['content-type'] !== undefined) return undefined;
    if (headers['content-length'] !== undefined || headers['transfer-encoding'] !== undefined) return undefined;
    const token = bearerToken.exec(headers.authorization ?? '')?.[1];
    return token ? app.identityProvider.keptUserinfo(token, headers.origin) : undefined;
  };
  const send = (reply: FastifyReply, answer: UserinfoAnswer | IntrospectionAnswer) => {
    reply.headers(answer.headers).header('content-security-policy', providerContentSecurityPolicy).send(answer.body);
  };
  const userinfo = (request: FastifyRequest, reply: FastifyReply): Promise<void> | undefined => {
    const answer = keptAnswer(request);
    if (answer === undefined) return handler(request, reply);
    if (answer instanceof Promise) return answer.then((made) => (made ? send(reply, made) : handler(request, reply)));
    send(reply, answer);
    return undefined;
  };

  // Introspection is answered from the session memory too (kept-introspection.ts), from the form the resource server
  // posts: read here (up to the API's body limit, whose 413 is the API's Spanish one), and handed to the library as
  // read when it must answer (its body parser takes a body already read). A request from a browser (Origin: the
  // library's CORS per client), with DPoP or a client attestation, a query or any other form is the library's, as is
  // any client or token the memory cannot vouch for.
  const keptIntrospection = (request: FastifyRequest) => {
    const { headers } = request;
    if (typeof request.body !== 'string' || request.url !== oidcRoutes.introspection) return undefined;
    if (!formType.test(headers['content-type'] ?? '')) return undefined;
    if (headers.origin !== undefined || headers.dpop !== undefined) return undefined;
    if (headers['oauth-client-attestation'] !== undefined || headers['oauth-client-attestation-pop'] !== undefined)
      return undefined;
    return app.identityProvider.keptIntrospection(headers.authorization, request.body);
  };
  const introspection = (request: FastifyRequest, reply: FastifyReply): Promise<void> | undefined => {
    const answer = request.method === 'POST' ? keptIntrospection(request) : undefined;
    if (answer !== undefined) {
      send(reply, answer);
      return undefined;
    }
    if (typeof request.body === 'string') (request.raw as { body?: string }).body = request.body;
    return handler(request, reply);
  };

  for (const [url, method, { page = false } = {}] of providerEndpoints) {
    const route = { url, method, config: { cors: false as const, page }, schema: { hide: true } };
    if (url !== oidcRoutes.introspection) {
      app.route({ ...route, handler: url === oidcRoutes.userinfo ? userinfo : handler });
      continue;
    }
    // Its own scope: the form parser serves this route alone; every other one hands the library its body unread.
    await app.register(async (form) => {
      form.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) =>
        done(null, body),
      );
      // Nothing it answers itself changes anything: no write barrier (the library's answers are hijacked, past it).
      form.route({ ...route, config: { ...route.config, readOnly: true }, handler: introspection });
    });
  }
};

const routes: FastifyPluginAsync = async (app) => {
  await app.register(providerRoutes);
  await app.register(interactionRoutes, { prefix: '/oidc/interaccion' });
  await app.register(deviceRoutes, { prefix: '/oidc/dispositivo' });
};

export default routes;
