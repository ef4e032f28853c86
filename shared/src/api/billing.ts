import { FALLBACK } from '../messages/es';
import type { BillingPrice } from '../types/entities';
import { request } from './client';
import { API_PATHS } from '@portal/contracts/api/paths';

/** Spec §7: the billing portal session; the browser is then sent to its url. */
export function createBillingPortalSession(userId: number): Promise<{ url: string }> {
  return request('post', API_PATHS.billing.portal, { json: { userId }, fallback: FALLBACK.billingPortal });
}

/** Spec §7: the customer session that lets the pricing table know the signed-in customer. */
export function createCustomerSession(userId: number): Promise<{ clientSecret: string }> {
  return request('post', API_PATHS.billing.customerSession, {
    json: { userId },
    fallback: FALLBACK.billingCustomerSession,
  });
}

/** Spec §7: the plans (prices) the payment provider sells. */
export function listBillingPrices(): Promise<BillingPrice[]> {
  return request('get', API_PATHS.billing.plans, { fallback: FALLBACK.billingProducts });
}

/** Spec §7: the response is returned as is ({ id, url }: the browser is then sent to url). */
export function createCheckoutSession(userId: number, priceId: string): Promise<{ id: string; url: string | null }> {
  return request('post', API_PATHS.billing.checkout, { json: { userId, priceId }, fallback: FALLBACK.billingProducts });
}
