import Stripe from 'stripe';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { billingCustomers, type User } from '../../db/schema.js';
import { HttpError } from '../../lib/errors.js';
import type { BillingConfig } from '../../config.js';
import type { BillingPrice } from '../../schemas/billing.js';
import { billingMessages } from './messages.js';

export function createStripe(config: BillingConfig): Stripe {
  return new Stripe(config.secretKey, {
    maxNetworkRetries: 1,
    timeout: 8000,
    telemetry: false,
    ...(config.apiBase ?? {}),
  });
}

/** The user's Stripe customer, created on first use and remembered in billing_customers. */
export async function customerFor(db: Db, stripe: Stripe, user: User): Promise<string> {
  const [known] = await db
    .select({ id: billingCustomers.stripeCustomerId })
    .from(billingCustomers)
    .where(eq(billingCustomers.userId, user.id));
  if (known) return known.id;
  // The idempotency key makes two concurrent first calls get the same customer from Stripe.
  const customer = await stripe.customers.create(
    {
      email: user.email,
      name: [user.name, user.lastName].filter(Boolean).join(' ') || undefined,
      metadata: { userId: String(user.id) },
    },
    { idempotencyKey: `portal-customer-${user.id}` },
  );
  await db.insert(billingCustomers).values({ userId: user.id, stripeCustomerId: customer.id }).onConflictDoNothing();
  const [stored] = await db
    .select({ id: billingCustomers.stripeCustomerId })
    .from(billingCustomers)
    .where(eq(billingCustomers.userId, user.id));
  return stored?.id ?? customer.id;
}

const intervals = ['day', 'week', 'month', 'year'] as const;

export function toBillingPrice(price: Stripe.Price): BillingPrice {
  const product =
    typeof price.product === 'object' &&
    price.product !== null &&
    !('deleted' in price.product && price.product.deleted)
      ? (price.product as Stripe.Product)
      : undefined;
  return {
    id: price.id,
    productId: typeof price.product === 'string' ? price.product : price.product.id,
    nombre: product?.name ?? price.nickname ?? price.id,
    descripcion: product?.description ?? null,
    precio: price.unit_amount === null ? null : price.unit_amount / 100,
    moneda: price.currency,
    intervalo: intervals.find((interval) => interval === price.recurring?.interval) ?? null,
  };
}

/** Runs a Stripe call; its failures become Spanish answers, and what Stripe said goes to the log. */
export async function withProvider<T>(
  log: { warn(obj: object, msg: string): void },
  work: () => Promise<T>,
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof Stripe.errors.StripeError)) throw error;
    log.warn(
      { stripe: { type: error.type, code: error.code, status: error.statusCode, message: error.message } },
      'stripe call failed',
    );
    if (
      error instanceof Stripe.errors.StripeInvalidRequestError &&
      error.code === 'resource_missing' &&
      error.param?.includes('price')
    ) {
      throw new HttpError(400, billingMessages.priceNotFound, 'PRICE_NOT_FOUND');
    }
    throw new HttpError(502, billingMessages.providerError, 'BILLING_PROVIDER_ERROR');
  }
}

/**
 * The subscription charges Stripe has been paid since a moment (Unix seconds), in USD: the dashboard's revenue.
 * Invoices of other currencies are left out (the portal's prices are in USD).
 */
export async function paidSubscriptionCharges(
  stripe: Stripe,
  sinceSeconds: number,
): Promise<Array<{ month: string; amount: number }>> {
  const charges: Array<{ month: string; amount: number }> = [];
  for await (const invoice of stripe.invoices.list({ status: 'paid', created: { gte: sinceSeconds }, limit: 100 })) {
    if (invoice.currency !== 'usd' || invoice.amount_paid <= 0) continue;
    const paidAt = invoice.status_transitions?.paid_at ?? invoice.created;
    charges.push({ month: new Date(paidAt * 1000).toISOString().slice(0, 7), amount: invoice.amount_paid / 100 });
  }
  return charges;
}
