import type {
  PartnerDelivery,
  PartnerDeliveryPage,
  PartnerSubscription,
  PartnerSubscriptionCreated,
  PartnerSubscriptionInput,
  PartnerSubscriptionSecret,
} from '@portal/shared';
import { API_PATHS, request } from '@portal/shared';
import { EVENTS_FALLBACK as F } from './texts';

const P = API_PATHS.admin;

/** A client's event subscriptions: addresses, events and state, never a secret. */
export async function listSubscriptions(clientId: string): Promise<PartnerSubscription[]> {
  const { data } = await request<{ data: PartnerSubscription[] }>('get', P.oidcSubscriptions(clientId), {
    fallback: F.subscriptions,
  });
  return data;
}

/** The signing secret comes back here once (`whsec_…`), and never again. */
export function createSubscription(
  clientId: string,
  subscription: PartnerSubscriptionInput,
): Promise<PartnerSubscriptionCreated> {
  return request('post', P.oidcSubscriptions(clientId), { json: subscription, fallback: F.createSubscription });
}

/** A new secret, shown once; the previous one keeps signing beside it for a while. */
export function rotateSubscriptionSecret(clientId: string, id: string): Promise<PartnerSubscriptionSecret> {
  return request('post', P.oidcSubscriptionSecret(clientId, id), { fallback: F.rotateSecret });
}

export function deleteSubscription(clientId: string, id: string): Promise<void> {
  return request('delete', P.oidcSubscription(clientId, id), { fallback: F.deleteSubscription });
}

/** A page of a subscription's deliveries, the newest first. */
export function listDeliveries(clientId: string, id: string, cursor: string | null): Promise<PartnerDeliveryPage> {
  return request('get', P.oidcSubscriptionDeliveries(clientId, id), {
    searchParams: { cursor: cursor ?? undefined, limit: 10 },
    fallback: F.deliveries,
  });
}

/** 'Reenviar': the delivery as it is now queued again. */
export function resendDelivery(clientId: string, id: string, deliveryId: number): Promise<PartnerDelivery> {
  return request('post', P.oidcDeliveryResend(clientId, id, deliveryId), { fallback: F.resend });
}
