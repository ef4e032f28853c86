import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { billingMessages } from '../../domain/billing/messages.js';
import { forbidden, HttpError } from '../../lib/errors.js';
import { signedIn } from '../../plugins/app/authentication.js';
import { commonErrors, ErrorRef } from '../../schemas/common.js';
import {
  BillingPrices,
  CheckoutBody,
  CheckoutSession,
  CustomerSession,
  PortalSession,
  UserIdBody,
} from '../../schemas/billing.js';
import { createStripe, customerFor, toBillingPrice, withProvider } from '../../domain/billing/stripe.js';

const bearerAuth = [{ bearerAuth: [] }];
const errors = { 401: ErrorRef, 403: ErrorRef, 502: ErrorRef, ...commonErrors };

/** An expected state of an installation without Stripe, answered directly (not logged as a server failure). */
export const billingUnavailable = {
  statusCode: 503,
  code: 'BILLING_UNAVAILABLE',
  message: billingMessages.unavailable,
};

/** API.md: a user acts only for their own userId (0, sent by a client without a user, is nobody's: 403). */
function ownUser(request: FastifyRequest, userId: number) {
  const { user } = signedIn(request);
  if (user.id !== userId) throw forbidden();
  return user;
}

const routes: FastifyPluginAsyncTypebox = async (app) => {
  const config = app.config.billing;
  const stripe = config ? createStripe(config) : undefined;
  const provider = () => {
    if (!stripe) throw new HttpError(503, billingUnavailable.message, billingUnavailable.code);
    return stripe;
  };

  /** Where Stripe sends the browser back: the calling portal when it is one of ours, else the first known origin. */
  const portalOrigin = (request: FastifyRequest) => {
    const origin = request.headers.origin;
    return origin && app.config.corsOrigins.includes(origin)
      ? origin
      : (app.config.corsOrigins[0] ?? 'http://127.0.0.1:8080');
  };

  /** The three customer calls' common steps: the caller's own user, the provider, their Stripe customer (made once). */
  const asCustomer = <T>(
    request: FastifyRequest,
    userId: number,
    call: (client: NonNullable<typeof stripe>, customer: string, user: ReturnType<typeof ownUser>) => Promise<T>,
  ) => {
    const user = ownUser(request, userId);
    const client = provider();
    return withProvider(request.log, async () => call(client, await customerFor(app.db, client, user), user));
  };

  // In this order: 401 without a session, 403 for someone else's userId, then 503 when billing is off.
  app.addHook('onRequest', app.authenticate);
  app.addHook('preHandler', async (request) => {
    const userId = (request.body as { userId?: unknown } | undefined)?.userId;
    if (typeof userId === 'number') ownUser(request, userId);
  });
  app.addHook('preHandler', async (_request, reply) => {
    if (!stripe) return reply.code(503).send(billingUnavailable);
  });

  app.post(
    '/checkout',
    {
      schema: {
        summary: 'Crea una sesión de pago de Stripe para suscribirse a un precio',
        tags: ['facturacion'],
        security: bearerAuth,
        body: CheckoutBody,
        response: { 200: CheckoutSession, ...errors },
      },
    },
    async (request) => {
      const origin = portalOrigin(request);
      return asCustomer(request, request.body.userId, async (client, customer, user) => {
        const session = await client.checkout.sessions.create({
          mode: 'subscription',
          customer,
          client_reference_id: String(user.id),
          line_items: [{ price: request.body.priceId, quantity: 1 }],
          success_url: `${origin}/success`,
          cancel_url: `${origin}/planes`,
        });
        return { id: session.id, url: session.url };
      });
    },
  );

  app.get(
    '/planes',
    {
      schema: {
        summary: 'Precios activos de Stripe con su producto',
        tags: ['facturacion'],
        security: bearerAuth,
        response: { 200: BillingPrices, ...errors },
      },
    },
    async (request) => {
      const client = provider();
      return withProvider(request.log, async () => {
        const prices = await client.prices.list({ active: true, limit: 100, expand: ['data.product'] });
        return prices.data.map(toBillingPrice);
      });
    },
  );

  app.post(
    '/portal',
    {
      schema: {
        summary: 'Crea una sesión del portal de facturación de Stripe para el usuario',
        tags: ['facturacion'],
        security: bearerAuth,
        body: UserIdBody,
        response: { 200: PortalSession, ...errors },
      },
    },
    async (request) => {
      const origin = portalOrigin(request);
      return asCustomer(request, request.body.userId, async (client, customer) => {
        const session = await client.billingPortal.sessions.create({ customer, return_url: `${origin}/apps` });
        return { url: session.url };
      });
    },
  );

  app.post(
    '/customer-session',
    {
      schema: {
        summary: 'Crea una sesión de cliente de Stripe para la tabla de precios',
        tags: ['facturacion'],
        security: bearerAuth,
        body: UserIdBody,
        response: { 200: CustomerSession, ...errors },
      },
    },
    async (request) =>
      asCustomer(request, request.body.userId, async (client, customer) => {
        const session = await client.customerSessions.create({
          customer,
          components: { pricing_table: { enabled: true } },
        });
        return { clientSecret: session.client_secret };
      }),
  );
};

export default routes;
