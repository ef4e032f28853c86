import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { loadBillingConfig } from '../src/config.js';
import { billingCustomers, users } from '../src/db/schema.js';
import { adminEmail, buildTestApp, createUser, forEachBackend, login, type TestApp } from './helpers/app.js';
import { knownPriceId, startStripeStandIn } from './helpers/stripe-stand-in.js';

const unavailable = { statusCode: 503, code: 'BILLING_UNAVAILABLE', message: 'La facturación no está disponible' };
const forbiddenBody = { statusCode: 403, code: 'FORBIDDEN', message: 'No tienes permisos para realizar esta acción' };
const portalOrigin = 'http://127.0.0.1:8080';

type Call = { method: 'GET' | 'POST'; url: string; payload?: Record<string, unknown> };

/** Builds an app with STRIPE_* as given, read the way the server reads its environment. */
function buildWithEnv(backend: Parameters<typeof buildTestApp>[0], env: Record<string, string | undefined>) {
  return buildTestApp(backend, { billing: loadBillingConfig(env) });
}

forEachBackend((backend) => {
  let plain: TestApp;
  let stripeApp: TestApp;
  let standIn: Awaited<ReturnType<typeof startStripeStandIn>>;

  before(async () => {
    standIn = await startStripeStandIn();
    plain = await buildWithEnv(backend, { STRIPE_SECRET_KEY: undefined, STRIPE_API_BASE: undefined });
    stripeApp = await buildWithEnv(backend, { STRIPE_SECRET_KEY: 'sk_test_standin', STRIPE_API_BASE: standIn.url });
  });
  after(async () => {
    await plain?.close();
    await stripeApp?.close();
    await standIn?.close();
  });

  async function userOf(t: TestApp, email: string) {
    const id = await createUser(t.app, { email, password: 'clave-de-prueba', status: 'active' });
    return { id, token: await login(t.app, email, 'clave-de-prueba') };
  }
  async function adminId(t: TestApp) {
    const [admin] = await t.app.db.select({ id: users.id }).from(users).where(eq(users.email, adminEmail));
    assert.ok(admin);
    return admin.id;
  }
  const send = (t: TestApp, call: Call, token?: string) =>
    t.app.inject({
      method: call.method,
      url: call.url,
      payload: call.payload,
      headers: { origin: portalOrigin, ...(token ? { authorization: `Bearer ${token}` } : {}) },
    });
  const calls = (userId: number): Call[] => [
    { method: 'POST', url: '/facturacion/checkout', payload: { userId, priceId: knownPriceId } },
    { method: 'POST', url: '/facturacion/portal', payload: { userId } },
    { method: 'POST', url: '/facturacion/customer-session', payload: { userId } },
  ];

  describe('dashboard revenue', () => {
    it("counts what billing was paid, in USD, this month; an administrator's grant is not revenue", async () => {
      const admin = await login(stripeApp.app);
      const before = standIn.requests.length;
      const response = await stripeApp.app.inject({
        method: 'GET',
        url: '/admin/dashboard',
        headers: { authorization: `Bearer ${admin}` },
      });
      assert.equal(response.statusCode, 200);
      const body = response.json();
      assert.equal(body.revenueSource, 'billing');
      assert.deepEqual(body.monthlyRevenue.at(-1), { month: new Date().toISOString().slice(0, 7), amount: 51.5 });
      assert.ok(body.monthlyRevenue.slice(0, -1).every((month: { amount: number }) => month.amount === 0));
      const asked = standIn.requests.slice(before).find((request) => request.path === '/v1/invoices');
      assert.equal(asked?.query.get('status'), 'paid');
      assert.ok(Number(asked?.query.get('created[gte]')) > 0);
    });
  });

  describe('without Stripe configured', () => {
    it('answers every billing call of a signed-in user with 503 La facturación no está disponible', async () => {
      const ana = await userOf(plain, 'ana.sin-stripe@portal.test');
      for (const call of [...calls(ana.id), { method: 'GET', url: '/facturacion/planes' } as Call]) {
        const response = await send(plain, call, ana.token);
        assert.equal(response.statusCode, 503, call.url);
        assert.deepEqual(response.json(), unavailable, call.url);
      }
    });

    it('still refuses calls without a token (401) and for another user (403)', async () => {
      const ana = await userOf(plain, 'ana.sin-stripe-2@portal.test');
      const other = await adminId(plain);
      for (const call of calls(other)) {
        assert.equal((await send(plain, call)).statusCode, 401, call.url);
        assert.deepEqual((await send(plain, call, ana.token)).json(), forbiddenBody, call.url);
      }
    });
  });

  describe('with Stripe (a local stand-in)', () => {
    it('gives a signed-in user a customer session for the pricing table, creating their customer once', async () => {
      const ana = await userOf(stripeApp, 'ana.cliente@portal.test');
      const first = await send(stripeApp, calls(ana.id)[2]!, ana.token);
      assert.equal(first.statusCode, 200);
      const { clientSecret } = first.json();
      assert.match(clientSecret, /^cuss_secret_for_cus_standin_\d+$/);

      const created = standIn.requests.filter((r) => r.path === '/v1/customers');
      assert.equal(created.length, 1);
      assert.equal(created[0]!.form.get('email'), 'ana.cliente@portal.test');
      assert.equal(created[0]!.form.get('metadata[userId]'), String(ana.id));
      assert.equal(created[0]!.headers.authorization, 'Bearer sk_test_standin');
      const session = standIn.requests.find((r) => r.path === '/v1/customer_sessions');
      assert.equal(session?.form.get('components[pricing_table][enabled]'), 'true');

      const second = await send(stripeApp, calls(ana.id)[2]!, ana.token);
      assert.equal(second.json().clientSecret, clientSecret);
      assert.equal(standIn.requests.filter((r) => r.path === '/v1/customers').length, 1, 'the customer is reused');
      const [row] = await stripeApp.app.db.select().from(billingCustomers).where(eq(billingCustomers.userId, ana.id));
      assert.equal(`cuss_secret_for_${row?.stripeCustomerId}`, clientSecret);
    });

    it('opens the billing portal for the user with a return to the portal apps page', async () => {
      const bea = await userOf(stripeApp, 'bea.portal@portal.test');
      const response = await send(stripeApp, calls(bea.id)[1]!, bea.token);
      assert.equal(response.statusCode, 200);
      assert.deepEqual(Object.keys(response.json()), ['url']);
      assert.match(response.json().url, /^https:\/\/billing\.stand-in\.test\/p\/session\/cus_standin_\d+$/);
      const portal = standIn.requests.filter((r) => r.path === '/v1/billing_portal/sessions').at(-1);
      assert.equal(portal?.form.get('return_url'), `${portalOrigin}/apps`);
    });

    it('creates a subscription checkout for a known price and answers 400 for an unknown one', async () => {
      const caro = await userOf(stripeApp, 'caro.checkout@portal.test');
      const response = await send(stripeApp, calls(caro.id)[0]!, caro.token);
      assert.equal(response.statusCode, 200);
      assert.deepEqual(response.json(), {
        id: 'cs_test_standin',
        url: 'https://checkout.stand-in.test/c/pay/cs_test_standin',
      });
      const checkout = standIn.requests.filter((r) => r.path === '/v1/checkout/sessions').at(-1);
      assert.equal(checkout?.form.get('mode'), 'subscription');
      assert.equal(checkout?.form.get('client_reference_id'), String(caro.id));
      assert.equal(checkout?.form.get('success_url'), `${portalOrigin}/success`);
      assert.equal(checkout?.form.get('cancel_url'), `${portalOrigin}/planes`);

      const unknown = await send(
        stripeApp,
        { method: 'POST', url: '/facturacion/checkout', payload: { userId: caro.id, priceId: 'price_nada' } },
        caro.token,
      );
      assert.equal(unknown.statusCode, 400);
      assert.deepEqual(unknown.json(), {
        statusCode: 400,
        code: 'PRICE_NOT_FOUND',
        message: 'El precio indicado no existe',
      });
    });

    it('lists the active prices with their product names', async () => {
      const dani = await userOf(stripeApp, 'dani.precios@portal.test');
      const response = await send(stripeApp, { method: 'GET', url: '/facturacion/planes' }, dani.token);
      assert.equal(response.statusCode, 200);
      assert.deepEqual(response.json(), [
        {
          id: knownPriceId,
          productId: 'prod_suite',
          nombre: 'C+Suite Completa',
          descripcion: 'Las tres apps PRO',
          precio: 39,
          moneda: 'usd',
          intervalo: 'month',
        },
        {
          id: 'price_suite_anual',
          productId: 'prod_suite',
          nombre: 'C+Suite Completa',
          descripcion: null,
          precio: 299,
          moneda: 'usd',
          intervalo: 'year',
        },
      ]);
      const list = standIn.requests.filter((r) => r.path === '/v1/prices').at(-1);
      assert.equal(list?.query.get('active'), 'true');
    });

    it('refuses another user id (403), user id 0 (403) and no token (401) before calling Stripe', async () => {
      const eva = await userOf(stripeApp, 'eva.ajena@portal.test');
      const before = standIn.requests.length;
      for (const call of [...calls(await adminId(stripeApp)), ...calls(0)]) {
        const response = await send(stripeApp, call, eva.token);
        assert.equal(response.statusCode, 403, call.url);
        assert.deepEqual(response.json(), forbiddenBody);
      }
      for (const call of calls(eva.id)) {
        const response = await send(stripeApp, call);
        assert.equal(response.statusCode, 401, call.url);
      }
      assert.equal((await send(stripeApp, { method: 'GET', url: '/facturacion/planes' })).statusCode, 401);
      assert.equal(standIn.requests.length, before, 'Stripe was not called');
    });

    it('refuses malformed bodies with 400 in Spanish', async () => {
      const fede = await userOf(stripeApp, 'fede.cuerpos@portal.test');
      const bad: Array<[Call, string]> = [
        [{ method: 'POST', url: '/facturacion/portal', payload: {} }, "Datos inválidos: falta el campo 'userId'"],
        [
          { method: 'POST', url: '/facturacion/portal', payload: { userId: 'uno' } },
          "Datos inválidos: 'userId' debe ser un número entero",
        ],
        [
          { method: 'POST', url: '/facturacion/checkout', payload: { userId: fede.id } },
          "Datos inválidos: falta el campo 'priceId'",
        ],
      ];
      for (const [call, message] of bad) {
        const response = await send(stripeApp, call, fede.token);
        assert.equal(response.statusCode, 400, JSON.stringify(call.payload));
        assert.deepEqual(response.json(), { statusCode: 400, code: 'VALIDATION_ERROR', message });
      }
    });
  });
});
