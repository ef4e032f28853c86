/** Spanish texts of the admin panel: the spec's strings (§2, §8) and, where the spec is silent, the README's. */

/** Fallbacks shown when an admin call fails without a server message (spec §8, and the README for the new calls). */
export const ADMIN_FALLBACK = {
  loadPlans: 'Error al obtener planes de usuario',
  /** What the plan dialog shows when the failure carries no message at all (spec §8, 'Plan save'). */
  savePlan: 'Error al actualizar el plan. Por favor, intenta de nuevo.',
  /** The plan update call's own fallback, when the server sends no message (spec §8, 'update store fallback'). */
  updateUserPlan: 'Error al actualizar plan de usuario',
  verifyUsers: 'Error al verificar usuarios. Por favor, intenta de nuevo.',
  dashboard: 'No se pudieron obtener las cifras del dashboard',
  auditLog: 'No se pudo obtener el registro de auditoría',
} as const;

/** Spec §8: '{n} usuario(s) verificado(s) exitosamente'. */
export function verifiedMessage(count: number): string {
  return `${count} usuario(s) verificado(s) exitosamente`;
}

export const PLAN_SAVED = 'Plan actualizado exitosamente!';

/** Spec §9: success and failure alerts of the admin screens disappear after 5000 ms. */
export const ADMIN_ALERT_MS = 5000;
