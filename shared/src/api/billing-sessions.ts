import { FALLBACK } from '../messages/es';
import { request } from './client';
import { API_PATHS } from './paths';

/** One price of the payment provider, as GET /facturacion/planes answers it (API.md). */
export interface BillingPrice {
  id: string;
  productId: string;
  nombre: string;
  descripcion: string | null;
  precio: number | null;
  moneda: string;
  intervalo: 'day' | 'week' | 'month' | 'year' | null;
}

/** Spec §7: the customer session that lets the pricing table know the signed-in customer. */
export function createCustomerSession(userId: number): Promise<{ clientSecret: string }> {
  return request('post', API_PATHS.billing.customerSession, {
    json: { userId },
    fallback: FALLBACK.billingCustomerSession,
  });
}

export function listBillingPrices(): Promise<BillingPrice[]> {
  return request('get', API_PATHS.billing.plans, { fallback: FALLBACK.billingProducts });
}

/** Spec §7: the response is returned as is ({ id, url }: the browser is then sent to url). */
export function createCheckoutSession(userId: number, priceId: string): Promise<{ id: string; url: string | null }> {
  return request('post', API_PATHS.billing.checkout, { json: { userId, priceId }, fallback: FALLBACK.billingProducts });
}
