import { FALLBACK } from '../messages/es';
import { request } from './client';
import { API_PATHS } from './paths';

/** Spec §7: the billing portal session; the browser is then sent to its url. */
export function createBillingPortalSession(userId: number): Promise<{ url: string }> {
  return request('post', API_PATHS.billing.portal, { json: { userId }, fallback: FALLBACK.billingPortal });
}
