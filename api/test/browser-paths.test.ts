// The browser's API paths (@portal/contracts/api/paths) against the routes this API really answers: a path renamed or
// removed on one side fails here, before a screen calls a URL that answers 404 (one source for the API's shapes,
// docs/decisions/0049-one-manifest-and-contracts.md; the types are imported from @portal/api/types, the paths are
// checked for drift in both directions).
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { API_PATHS } from '@portal/contracts/api/paths';
import { backends, buildTestApp, type TestApp } from './helpers/app.js';
import { listRoutes, type RouteKey } from './helpers/hostile.js';

/** Every leaf of API_PATHS as the URL the browser sends, a function leaf called with sample arguments. */
function browserPaths(tree: object, trail: string[] = []): { name: string; url: string }[] {
  return Object.entries(tree).flatMap(([key, value]) => {
    const name = [...trail, key].join('.');
    if (typeof value === 'string') return [{ name, url: `/${value}` }];
    if (typeof value === 'function') return [{ name, url: `/${(value as (...args: unknown[]) => string)(7, 'abc')}` }];
    return browserPaths(value as object, [...trail, key]);
  });
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Whether a Fastify route pattern (`:name` params, `*` wildcard) matches a concrete URL. */
function matches(route: RouteKey, url: string): boolean {
  const parts = route.url.split('/').map((part) => {
    if (part.startsWith(':')) return '[^/]+';
    return part === '*' ? '.*' : escapeRegExp(part);
  });
  return new RegExp(`^${parts.join('/')}$`).test(url);
}

/**
 * Routes the portal's browser code never calls, each with why: anything else the API answers must have its path in
 * API_PATHS, so a new endpoint for the screens is added there (and this list stays short and reasoned).
 */
const NOT_FOR_THE_BROWSER: { pattern: RegExp; why: string }[] = [
  { pattern: /^\/health(\/live|\/ready)?$/, why: 'supervisors, load balancers and orchestrators' },
  { pattern: /^\/docs(\/|$)/, why: 'the OpenAPI document and its viewer' },
  { pattern: /^\/\.well-known\/jwks\.json$/, why: 'partner apps read the public keys of the tokens they receive' },
  {
    pattern: /^\/auth\/google\/callback$/,
    why: "Google's redirect address: it sends the browser there, which the API sends on to the portal (decision 0001)",
  },
  { pattern: /^\/auth\/apple\/callback$/, why: 'Apple posts the browser there (a form post), not a fetch of ours' },
  {
    pattern: /^\/auth\/empresa\/callback$/,
    why: "a company's own provider sends the browser there, which the API sends on to the portal (decision 0080)",
  },
  {
    pattern: /^\/auth\/empresa\/prueba$/,
    why: "'Probar conexión' sends the browser to the address POST /configuracion-empresa/prueba answered, which starts the company's sign-in in test mode (decision 0111)",
  },
  {
    pattern:
      /^\/(\.well-known\/(openid-configuration|oauth-authorization-server)|oidc\/(auth(\/:uid)?|device\/auth|token(\/introspection|\/revocation)?|me|session\/end(\/confirm|\/success)?))$/,
    why: 'the OpenID Connect provider: partner apps and the browser going to and from them',
  },
  {
    pattern: /^\/auth\/empresa\/saml\/:id\/(acs|metadata)$/,
    why: "a company's SAML provider posts the browser to the ACS; its IT imports the metadata (decision 0099)",
  },
  {
    pattern: /^\/saml\/idp\/(sso|slo|enviar|cierre)$/,
    why: "the SAML identity provider: partner apps send the browser there, the one-time page posts to them (decision 0100), and a sign-out's logout chain takes the browser through them (decision 0113)",
  },
  {
    pattern: /^\/admin\/users\/:id\/roles-app\/:idApp$/,
    why: "the roles of people with their own plan are given by the platform's scripts through the API; the panel defines an app's roles and gives a company's (decision 0134)",
  },
  {
    pattern: /^\/admin\/clientes-oidc\/:clientId\/suscripciones(\/|$)/,
    why: "a client's event subscriptions by its client_id, kept for partner teams' scripts; the panel reads every app's under /admin/aplicaciones-conectadas (decision 0126)",
  },
  { pattern: /^\/oidc\/interaccion\/:uid$/, why: 'the browser arrives there from an app and is sent on to /autorizar' },
  {
    pattern: /^\/scim\/v2\//,
    why: "a company's directory (Entra ID, Okta) provisions its people there over SCIM 2.0 with its token (decision 0081)",
  },
];

for (const backend of backends.slice(0, 1)) {
  let api: TestApp;
  before(async () => {
    api = await buildTestApp(backend);
  });
  after(() => api?.close());

  // HEAD follows GET and OPTIONS `*` is the CORS preflight, which answers any URL.
  const answered = () => listRoutes(api.app).filter(({ method }) => method !== 'HEAD' && method !== 'OPTIONS');

  it('every path the browser calls is a route of the API', () => {
    const routes = answered();
    assert.ok(routes.length >= 30, `only ${routes.length} routes read`);
    const missing = browserPaths(API_PATHS).filter(({ url }) => !routes.some((route) => matches(route, url)));
    assert.deepEqual(missing, [], 'API_PATHS names URLs the API does not answer');
  });

  it('every route of the API is in API_PATHS or listed as not for the browser, with why', () => {
    const routes = answered();
    const paths = browserPaths(API_PATHS);
    const unlisted = routes
      .filter((route) => !paths.some(({ url }) => matches(route, url)))
      .filter((route) => !NOT_FOR_THE_BROWSER.some(({ pattern }) => pattern.test(route.url)))
      .map(({ method, url }) => `${method} ${url}`);
    assert.deepEqual(unlisted, [], 'routes the screens cannot reach through API_PATHS');
    const stale = NOT_FOR_THE_BROWSER.filter(({ pattern }) => !routes.some(({ url }) => pattern.test(url)));
    assert.deepEqual(stale, [], 'entries of NOT_FOR_THE_BROWSER that name no route');
  });
}
