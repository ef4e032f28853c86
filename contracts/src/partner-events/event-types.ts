/**
 * The events a partner app may subscribe to (docs/decisions/0085-partner-events.md), one list for the API (its
 * schemas accept these and no other) and the admin panel (its subscription form offers each, in this order: a person's
 * account first, then plans, then consent).
 */
export const PARTNER_EVENT_TYPES = [
  'usuario.actualizado',
  'usuario.suspendido',
  'usuario.reactivado',
  'usuario.eliminado',
  'plan.asignado',
  'plan.cambiado',
  'plan.retirado',
  'plan.vencido',
  'consentimiento.revocado',
  'roles.cambiados',
] as const;

export type PartnerEventType = (typeof PARTNER_EVENT_TYPES)[number];
