// Generated hostile requests (fast-check) to every route of the OpenAPI document, as each kind of caller: every answer
// a Spanish error or a success, never a 500, and nothing written by a refused request. One to two minutes per backend
// on a busy two-core machine (PostgreSQL the longer): hundreds of routes, each with ten generated requests a caller
// (HOSTILE_RUNS), each checked against a snapshot of the other accounts read from the database.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { loadBillingConfig } from '../src/config.js';
import { accountCodes, billingCustomers, roles, userIdentities, users } from '../src/db/schema.js';
import { activateUser } from '../src/domain/registration/activation.js';
import { capturingTransport } from './helpers/accounts.js';
import { adminEmail, buildTestApp, createUser, forEachBackend, type TestApp, sessionToken } from './helpers/app.js';
import {
  accountsSnapshot,
  hostileAuthorization,
  hostileRequest,
  listRoutes,
  operationOf,
  securityHeaderProblem,
  spanishErrorProblem,
  type HostileRequest,
  type Schema,
  type RouteKey,
} from './helpers/hostile.js';
import { scimErrorProblem } from './helpers/scim-fixtures.js';
import { startStripeStandIn } from './helpers/stripe-stand-in.js';

/**
 * Generated requests per route and caller: more where a body, query or path parameter can be shaped, few where there
 * is nothing to shape. Ten find what a backend refuses (NUL in text, numbers past a column's range) and the shapes
 * every run; fast-check's seed changes each run, so CI's runs add up. HOSTILE_RUNS=500 for a deeper local run.
 */
const shapedRuns = Number(process.env.HOSTILE_RUNS) || 10;
const plainRuns = Math.ceil(shapedRuns / 5);

/**
 * Routes the OpenAPI document does not describe, on purpose: Swagger UI's own pages and files, the HEAD twins of GET
 * routes and the CORS preflight. They still get hostile paths, queries and bodies, just without schema guidance.
 */
const undocumented = (route: RouteKey) =>
  route.url === '/docs' ||
  route.url.startsWith('/docs/') ||
  route.method === 'HEAD' ||
  route.method === 'OPTIONS' ||
  oidcProviderRoute(route) ||
  scimRoute(route);

/**
 * SCIM 2.0 (docs/decisions/0081): described by RFC 7643/7644, not by the OpenAPI document, and its refusals are
 * SCIM's error body with a Spanish detail (a directory reads them), not the API's usual one.
 */
const scimRoute = (route: RouteKey) => route.url.startsWith('/scim/v2/');

/**
 * Whether a request is the directory's by where it lands: its path with dot segments resolved as the request is
 * routed (`/scim/v2/Groups/../..` is `/scim/`, outside SCIM, and answered as any unknown address is).
 */
const reachesScim = (url: string) => new URL(url, 'http://api.test').pathname.startsWith('/scim/v2/');

/**
 * The OpenID Connect provider's own endpoints (docs/decisions/0055): described by its discovery document and the
 * RFCs, not by the OpenAPI document. They get the same hostile requests, and must refuse them the same way.
 */
const oidcProviderRoute = (route: RouteKey) =>
  /^\/(\.well-known\/(openid-configuration|oauth-authorization-server)|oidc\/(auth|token|me|session|device)\b)/.test(
    route.url,
  );

/**
 * The SAML identity provider's browser endpoints (docs/decisions/0100): a request they refuse is answered with the
 * API's Spanish page, not JSON, since a browser shows it.
 */
const reachesSamlPage = (url: string) =>
  /^\/saml\/idp\/(sso|slo|enviar)$/.test(new URL(url, 'http://api.test').pathname);

/** Why a SAML page's refusal is not the API's Spanish page (undefined: it is). */
function samlPageProblem(response: LightMyRequestResponse): string | undefined {
  if (!String(response.headers['content-type']).startsWith('text/html')) return undefined;
  if (response.statusCode !== 400) return `status ${response.statusCode}`;
  if (!response.body.includes('<html lang="es">')) return 'not a Spanish page';
  return undefined;
}

type Caller = 'anonymous' | 'user' | 'admin';

forEachBackend((backend) => {
  let t: TestApp;
  let standIn: Awaited<ReturnType<typeof startStripeStandIn>>;
  let routes: RouteKey[];
  let spec: Schema;
  const account = { user: 0, victim: 0, admin: 0 };
  const emails = { user: 'usuaria@hostil.test', victim: 'victima@hostil.test', admin: adminEmail };

  before(async () => {
    standIn = await startStripeStandIn();
    // Per-IP limits would turn most requests into 429 before any handler runs; the limits have their own tests.
    // Billing on (against the stand-in), so its handlers run instead of answering 503.
    t = await buildTestApp(
      backend,
      {
        loginRateLimitPerMinute: 100_000,
        authRateLimitPerMinute: 100_000,
        billing: loadBillingConfig({ STRIPE_SECRET_KEY: 'sk_test_hostil', STRIPE_API_BASE: standIn.url }),
      },
      { mailTransport: capturingTransport() },
    );
    routes = listRoutes(t.app);
    spec = t.app.swagger() as Schema;

    const [admin] = await t.app.db.select({ id: users.id }).from(users).where(eq(users.email, adminEmail));
    account.admin = admin!.id;
    for (const who of ['user', 'victim'] as const) {
      account[who] = await createUser(t.app, {
        email: emails[who],
        password: 'clave-de-prueba',
        status: 'pending_verification',
      });
      await activateUser(t.app.db, account[who]);
    }
    // The victim has something of every kind: free plans, a used code, a Google identity and a Stripe customer.
    await t.app.codes.issue(t.app.db, account.victim, 'verify_email');
    await t.app.db.update(accountCodes).set({ usedAt: new Date() }).where(eq(accountCodes.userId, account.victim));
    await t.app.db
      .insert(userIdentities)
      .values({ provider: 'google', subject: 'victima-sub', userId: account.victim, email: emails.victim });
    await t.app.db.insert(billingCustomers).values({ userId: account.victim, stripeCustomerId: 'cus_victima' });
  });
  after(async () => {
    await t?.close();
    await standIn?.close();
  });

  const targets = () => ({ ids: Object.values(account), emails: Object.values(emails) });

  const bearers = new Map<number, string>();
  /** A valid token of the account, signed again after any request that may have ended its sessions. */
  async function bearerOf(id: number): Promise<string> {
    let bearer = bearers.get(id);
    if (!bearer) {
      const [row] = await t.app.db.select().from(users).where(eq(users.id, id));
      bearer = `Bearer ${await sessionToken(t.app, row!)}`;
      bearers.set(id, bearer);
    }
    return bearer;
  }

  /** An administrator may legitimately suspend or demote the test accounts; put them back for the next runs. */
  async function restoreCallers() {
    await t.app.db.update(users).set({ status: 'active', role: roles.user }).where(eq(users.id, account.user));
    await t.app.db.update(users).set({ status: 'active', role: roles.admin }).where(eq(users.id, account.admin));
    bearers.clear();
  }

  function describeCall(caller: Caller, request: HostileRequest, response: LightMyRequestResponse) {
    const payload = request.payload === undefined ? '' : ` ${request.payload.slice(0, 300)}`;
    return `${caller} ${request.method} ${request.url.slice(0, 300)}${payload} → ${response.statusCode} ${response.body.slice(0, 300)}`;
  }

  it('lists every route, and each one it cannot read from the OpenAPI document is a known exception', () => {
    assert.ok(routes.length >= 30, `only ${routes.length} routes read from printRoutes`);
    for (const must of [
      'GET /health',
      'POST /auth/login',
      'PUT /auth/editar/:id',
      'POST /facturacion/portal',
      'OPTIONS *',
    ]) {
      assert.ok(
        routes.some((route) => `${route.method} ${route.url}` === must),
        `${must} not listed`,
      );
    }
    const unexplained = routes.filter((route) => !operationOf(spec, route) && !undocumented(route));
    assert.deepEqual(unexplained, [], 'routes the generator knows nothing about');
    for (const route of routes) {
      const operation = operationOf(spec, route);
      for (const [, name] of route.url.matchAll(/:([A-Za-z0-9_]+)/g)) {
        if (operation)
          assert.ok(operation.path[name!], `${route.method} ${route.url}: path param ${name} has no schema`);
      }
    }
  });

  for (const caller of ['anonymous', 'user', 'admin'] as const) {
    it(
      `answers hostile input from ${caller === 'anonymous' ? 'an anonymous caller' : `a signed-in ${caller}`} on every route` +
        ' with a Spanish 4xx or a correct answer, never a 500, and changes no other account',
      async (context) => {
        // Accounts this caller must not change at all; an administrator may change others, but not with a refused request.
        const others =
          caller === 'anonymous'
            ? [account.victim, account.user, account.admin]
            : caller === 'user'
              ? [account.victim, account.admin]
              : [account.victim, account.user];
        for (const route of routes) {
          await context.test(`${route.method} ${route.url}`, async () => {
            let reached = 0;
            let before = await accountsSnapshot(t.app, others);
            const writes = !['GET', 'HEAD', 'OPTIONS'].includes(route.method);
            const operation = operationOf(spec, route);
            const shaped = writes || /[:*]/.test(route.url) || Object.keys(operation?.query ?? {}).length > 0;
            const authorization = caller === 'anonymous' ? hostileAuthorization : fc.constant(caller);
            await fc.assert(
              fc.asyncProperty(hostileRequest(route, operation, targets()), authorization, async (request, auth) => {
                const headers = { ...request.headers };
                if (auth === 'user' || auth === 'admin') headers.authorization = await bearerOf(account[auth]);
                else if (auth) headers.authorization = auth;
                const response = await t.app.inject({
                  method: request.method as 'GET',
                  url: request.url,
                  headers,
                  payload: request.payload,
                });
                const call = describeCall(caller, request, response);

                assert.ok(response.statusCode < 500, call);
                assert.equal(securityHeaderProblem(response), undefined, call);
                if (response.statusCode >= 400 && request.method !== 'HEAD')
                  assert.equal(
                    (reachesScim(request.url)
                      ? scimErrorProblem
                      : reachesSamlPage(request.url) && String(response.headers['content-type']).startsWith('text/html')
                        ? samlPageProblem
                        : spanishErrorProblem)(response),
                    undefined,
                    call,
                  );
                // Reads are compared once after all their runs, below: the snapshot costs more than most requests.
                if (writes && caller === 'admin' && response.statusCode < 400) {
                  await restoreCallers();
                  before = await accountsSnapshot(t.app, others);
                } else if (writes) {
                  // The next runs (and shrinking) compare with the state as it is now, so the report names this input.
                  const [previous, now] = [before, await accountsSnapshot(t.app, others)];
                  before = now;
                  assert.deepEqual(now, previous, `another account changed: ${call}`);
                }
                if (caller !== 'anonymous' && response.statusCode < 400) bearers.delete(account[caller]);
                const notFound =
                  response.statusCode === 404 &&
                  (request.method === 'HEAD' || response.json().message === 'Recurso no encontrado');
                if (!notFound) reached += 1;
              }),
              { numRuns: shaped ? shapedRuns : plainRuns, includeErrorInReport: true },
            );
            if (!writes) {
              const changed = `another account changed by ${caller} ${route.method} ${route.url}`;
              assert.deepEqual(await accountsSnapshot(t.app, others), before, changed);
            }
            // Only the wildcards may answer "not found" every time (Swagger UI's files, the preflight on unknown paths).
            if (!route.url.includes('*'))
              assert.ok(reached > 0, `${route.method} ${route.url}: no generated request reached the route`);
          });
        }
      },
    );
  }

  it('answers the hostile inputs that once got past it with a Spanish 4xx and the security headers', async () => {
    const admin = { authorization: await bearerOf(account.admin) };
    const cases: [InjectOptions, number, string][] = [
      // Ajv coerces "Infinity" into a number that skips minimum/maximum; PostgreSQL refused it with a 500.
      [{ method: 'GET', url: '/apps/listar?page=Infinity' }, 400, "Datos inválidos: 'page' debe ser un número"],
      [{ method: 'GET', url: '/apps/obtener-por-id/1e400' }, 400, "Datos inválidos: 'id' debe ser un número"],
      // PostgreSQL refuses NUL in text, and the Stripe SDK throws on half a surrogate pair: 500s where schemas had no pattern.
      [
        { method: 'POST', url: '/apps/register', headers: admin, payload: { nombre: 'App', descripcion: 'a\u0000b' } },
        400,
        "Datos inválidos: 'descripcion' contiene un carácter no admitido",
      ],
      [
        { method: 'GET', url: '/user/listar?name=a%00b', headers: admin },
        400,
        "Datos inválidos: 'name' contiene un carácter no admitido",
      ],
      [
        {
          method: 'POST',
          url: '/facturacion/checkout',
          headers: admin,
          payload: { userId: account.admin, priceId: 'price_\ud800' },
        },
        400,
        "Datos inválidos: 'priceId' contiene un carácter no admitido",
      ],
      // Refused by Fastify before routing: English JSON without security headers.
      [{ method: 'GET', url: '/apps/obtener-por-id/%zz' }, 400, 'La dirección de la petición no es válida'],
      [
        { method: 'PUT', url: `/apps/update/${'9'.repeat(150)}`, payload: {} },
        414,
        'La dirección de la petición es demasiado larga',
      ],
    ];
    for (const [options, status, message] of cases) {
      const response = await t.app.inject(options);
      assert.equal(response.statusCode, status, options.url as string);
      assert.equal(response.json().message, message);
      assert.equal(securityHeaderProblem(response), undefined, options.url as string);
    }
    // An OPTIONS without Origin is no preflight: answered 204 with no CORS grant, not 400 with English text.
    const options = await t.app.inject({ method: 'OPTIONS', url: '/auth/login' });
    assert.equal(options.statusCode, 204);
    assert.equal(options.headers['access-control-allow-origin'], undefined);
  });

  it("sends nosniff, no-referrer and a CSP with frame-ancestors 'none' and no inline scripts on every kind of answer", async () => {
    // Each route once with a plain request: path params 1, wildcards a Swagger UI file, an empty JSON body.
    const answers: [string, InjectOptions][] = [
      ...routes.map((route): [string, InjectOptions] => [
        `${route.method} ${route.url}`,
        {
          method: route.method as InjectOptions['method'],
          url:
            route.url === '*'
              ? '/health'
              : route.url.replace(/:[A-Za-z0-9_]+/g, '1').replace('*', 'static/swagger-ui.css'),
          ...(['POST', 'PUT'].includes(route.method) ? { payload: {} } : {}),
        },
      ]),
      [
        'signed-in GET /auth/user',
        { method: 'GET', url: '/auth/user', headers: { authorization: await bearerOf(account.user) } },
      ],
      ['unknown route', { method: 'GET', url: '/no-existe' }],
      ['unknown method', { method: 'DELETE', url: '/auth/login' }],
      [
        'invalid JSON',
        { method: 'POST', url: '/auth/login', headers: { 'content-type': 'application/json' }, payload: '{' },
      ],
      [
        'body over 100 KB',
        { method: 'POST', url: '/auth/login', payload: { email: 'a@b.c', password: 'x'.repeat(101 * 1024) } },
      ],
      [
        'CORS preflight',
        {
          method: 'OPTIONS',
          url: '/auth/user',
          headers: {
            origin: 'http://127.0.0.1:8080',
            'access-control-request-method': 'GET',
            'access-control-request-headers': 'authorization',
          },
        },
      ],
      ['Swagger UI page', { method: 'GET', url: '/docs' }],
    ];
    for (const [name, options] of answers) {
      const response = await t.app.inject(options);
      assert.equal(securityHeaderProblem(response), undefined, `${name}: ${response.statusCode}`);
    }
    // The error handler's 429 with Retry-After: a second reset code for the same email within the minute.
    const reset = () =>
      t.app.inject({ method: 'POST', url: '/auth/forgot-password', payload: { email: 'cabeceras@hostil.test' } });
    assert.equal((await reset()).statusCode, 200);
    const limited = await reset();
    assert.equal(limited.statusCode, 429);
    assert.equal(securityHeaderProblem(limited), undefined);
    // The Swagger UI page loads its scripts from files, which its own policy allows, and may not be framed either.
    const docs = await t.app.inject({ method: 'GET', url: '/docs/' });
    assert.equal(docs.statusCode, 200);
    assert.doesNotMatch(docs.body, /<script>(?!\s*<\/script>)|<script[^>]*>[^<\s]/, 'inline script on /docs');
    assert.match(String(docs.headers['content-security-policy']), /script-src 'self'/);
    assert.equal(docs.headers['x-frame-options'], 'DENY');
  });
});
