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

/** A connected app's event subscriptions (by its registry id): addresses, events and state, never a secret. */
export async function listSubscriptions(appId: number): Promise<PartnerSubscription[]> {
  const { data } = await request<{ data: PartnerSubscription[] }>('get', P.appSubscriptions(appId), {
    fallback: F.subscriptions,
  });
  return data;
}

/** The signing secret comes back here once (`whsec_…`), and never again. */
export function createSubscription(
  appId: number,
  subscription: PartnerSubscriptionInput,
): Promise<PartnerSubscriptionCreated> {
  return request('post', P.appSubscriptions(appId), { json: subscription, fallback: F.createSubscription });
}

/** A new secret, shown once; the previous one keeps signing beside it for a while. */
export function rotateSubscriptionSecret(appId: number, id: string): Promise<PartnerSubscriptionSecret> {
  return request('post', P.appSubscriptionSecret(appId, id), { fallback: F.rotateSecret });
}

export function deleteSubscription(appId: number, id: string): Promise<void> {
  return request('delete', P.appSubscription(appId, id), { fallback: F.deleteSubscription });
}

/** A page of a subscription's deliveries, the newest first. */
export function listDeliveries(appId: number, id: string, cursor: string | null): Promise<PartnerDeliveryPage> {
  return request('get', P.appSubscriptionDeliveries(appId, id), {
    searchParams: { cursor: cursor ?? undefined, limit: 10 },
    fallback: F.deliveries,
  });
}

/** 'Reenviar': the delivery as it is now queued again. */
export function resendDelivery(appId: number, id: string, deliveryId: number): Promise<PartnerDelivery> {
  return request('post', P.appDeliveryResend(appId, id, deliveryId), { fallback: F.resend });
}
