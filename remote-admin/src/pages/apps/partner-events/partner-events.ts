import { PARTNER_EVENT_TYPES, type PartnerEventType } from '@portal/contracts/partner-events/event-types';
import type { PartnerDelivery, PartnerSubscription } from '@portal/shared';
import type { PillTone } from '../../../components/StatusPill';
import { TEXT_EVENTS } from './texts';

/**
 * Each event's Spanish name in the subscription form: an event the API adds and the panel does not name fails the
 * type check.
 */
export const EVENT_LABELS: Readonly<Record<PartnerEventType, string>> = TEXT_EVENTS.eventLabels;

/** 'Nueva suscripción': the receiver's address and the events checked. */
export interface SubscriptionForm {
  url: string;
  eventos: PartnerEventType[];
}

export const emptySubscriptionForm: SubscriptionForm = { url: '', eventos: [] };

/** The form's own refusals before anything is sent; the server checks the address's host and scheme again. */
export function validateSubscriptionForm(form: SubscriptionForm): string | null {
  const url = form.url.trim();
  if (!url) return TEXT_EVENTS.urlRequired;
  if (!URL.canParse(url)) return TEXT_EVENTS.urlInvalid;
  if (form.eventos.length === 0) return TEXT_EVENTS.eventsRequired;
  return null;
}

/** The body of `POST .../suscripciones`: the address trimmed, the events in the form's order. */
export function formToSubscriptionInput(form: SubscriptionForm): SubscriptionForm {
  return { url: form.url.trim(), eventos: PARTNER_EVENT_TYPES.filter((type) => form.eventos.includes(type)) };
}

/** The checked events with `type` added or taken out. */
export function withEvent(eventos: readonly PartnerEventType[], type: PartnerEventType, on: boolean) {
  return on ? [...new Set([...eventos, type])] : eventos.filter((event) => event !== type);
}

/** 'Activa', or why the portal stopped sending to it ('Desactivada: el receptor respondió 410'). */
export function subscriptionState(subscription: PartnerSubscription): { text: string; tone: PillTone } {
  if (subscription.estado === 'activa') return { text: TEXT_EVENTS.active, tone: 'ok' };
  // The reason is a sentence of its own ('El receptor respondió 410'): after the colon it goes on in lower case.
  const reason = subscription.motivoDesactivacion;
  return { text: TEXT_EVENTS.disabled(reason && reason.charAt(0).toLowerCase() + reason.slice(1)), tone: 'danger' };
}

const DELIVERY_TONES: Record<PartnerDelivery['estado'], PillTone> = {
  pendiente: 'neutral',
  reintentando: 'warning',
  entregada: 'ok',
  fallida: 'danger',
  cancelada: 'neutral',
};

/** A delivery's state as the table shows it. */
export function deliveryState(delivery: PartnerDelivery): { text: string; tone: PillTone } {
  return { text: TEXT_EVENTS.deliveryStates[delivery.estado], tone: DELIVERY_TONES[delivery.estado] };
}

/** 'Reenviar' is offered once the portal is done with a delivery: delivered, given up, or cancelled. */
export function canResend(delivery: PartnerDelivery): boolean {
  return delivery.estado !== 'pendiente' && delivery.estado !== 'reintentando';
}

/** A delivery's moment, day and time in the administrator's zone ('27/11/26, 3:05'). */
export function formatDeliveryDate(iso: string): string {
  return new Date(iso).toLocaleString('es-ES', { dateStyle: 'short', timeStyle: 'short' });
}
