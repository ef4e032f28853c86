import type { PartnerDelivery, PartnerSubscription } from '@portal/shared';
import {
  canResend,
  deliveryState,
  formToSubscriptionInput,
  subscriptionState,
  validateSubscriptionForm,
  withEvent,
} from './partner-events';

const subscription = (overrides: Partial<PartnerSubscription>): PartnerSubscription => ({
  id: 'a',
  url: 'https://app.example.com/eventos',
  eventos: ['plan.asignado'],
  estado: 'activa',
  motivoDesactivacion: null,
  secretoAnteriorHasta: null,
  creadaEn: '2026-11-27T00:00:00.000Z',
  ...overrides,
});

describe('the subscription form', () => {
  it('refuses in Spanish before sending: no address, not an address, no event', () => {
    expect(validateSubscriptionForm({ url: '  ', eventos: ['plan.asignado'] })).toBe('Escribe la URL del receptor');
    expect(validateSubscriptionForm({ url: 'app.example.com', eventos: ['plan.asignado'] })).toMatch(
      /^La URL del receptor debe ser una dirección completa/,
    );
    expect(validateSubscriptionForm({ url: 'https://app.example.com/e', eventos: [] })).toBe(
      'Marca al menos un evento',
    );
    expect(validateSubscriptionForm({ url: 'https://app.example.com/e', eventos: ['plan.vencido'] })).toBeNull();
  });

  it('sends the address trimmed and the events in the list order, each once', () => {
    let eventos = withEvent([], 'consentimiento.revocado', true);
    eventos = withEvent(eventos, 'usuario.actualizado', true);
    eventos = withEvent(eventos, 'usuario.actualizado', true);
    eventos = withEvent(eventos, 'plan.cambiado', true);
    eventos = withEvent(eventos, 'plan.cambiado', false);
    expect(formToSubscriptionInput({ url: ' https://app.example.com/e ', eventos })).toEqual({
      url: 'https://app.example.com/e',
      eventos: ['usuario.actualizado', 'consentimiento.revocado'],
    });
  });
});

describe('states', () => {
  it("says why a subscription is disabled, the reason's sentence going on after the colon", () => {
    expect(subscriptionState(subscription({}))).toEqual({ text: 'Activa', tone: 'ok' });
    expect(
      subscriptionState(subscription({ estado: 'desactivada', motivoDesactivacion: 'El receptor respondió 410' })),
    ).toEqual({ text: 'Desactivada: el receptor respondió 410', tone: 'danger' });
    expect(subscriptionState(subscription({ estado: 'desactivada' })).text).toBe('Desactivada');
  });

  it("names a delivery's state, and offers Reenviar only once the portal is done with it", () => {
    const states: PartnerDelivery['estado'][] = ['pendiente', 'reintentando', 'entregada', 'fallida', 'cancelada'];
    const delivery = (estado: PartnerDelivery['estado']) => ({ estado }) as PartnerDelivery;
    expect(states.map((estado) => deliveryState(delivery(estado)).text)).toEqual([
      'Pendiente',
      'Reintentando',
      'Entregada',
      'Fallida',
      'Cancelada',
    ]);
    expect(states.map((estado) => canResend(delivery(estado)))).toEqual([false, false, true, true, true]);
  });
});
