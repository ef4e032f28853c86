/** The free plan, whatever the case or spaces of its stored name (spec §3: 'free'). */
export function isFreePlan(plan: { nombre: string }): boolean {
  return plan.nombre.trim().toLowerCase() === 'free';
}

/** The name a person reads for a plan: 'Gratis' for the free plan, 'PRO' for a PRO one, else the name as stored. */
export function planLabel(plan: { nombre: string }): string {
  if (isFreePlan(plan)) return 'Gratis';
  return plan.nombre.trim().toLowerCase() === 'pro' ? 'PRO' : plan.nombre;
}
