import type { AppWithPlans, Plan, UserPlan } from '@portal/shared';
import { isFreePlan, planLabel } from '@portal/shared';

export type PlanBadges =
  | { kind: 'free' }
  | { kind: 'list'; items: { id: number; label: string; origin: string | null }[] };

/**
 * Where a plan comes from, in words: 'Puesto de Minera Andina S.A.' for a seat of a company's licence; null for the
 * person's own plan (and for an older answer that does not say).
 */
export function planOrigin(entry: Partial<Pick<UserPlan, 'origen' | 'empresa'>> | undefined): string | null {
  return entry?.origen === 'empresa' && entry.empresa ? `Puesto de ${entry.empresa.nombre}` : null;
}

/**
 * On the upgrade page, under a plan a seat gives: buying one's own is still offered, and this says why it is worth
 * it (a seat is the company's, and goes back when it takes it back).
 */
export function seatNote(entry: Partial<Pick<UserPlan, 'origen' | 'empresa'>> | undefined): string | null {
  if (entry?.origen !== 'empresa' || !entry.empresa) return null;
  return `Este plan te lo da un puesto de ${entry.empresa.nombre}: si compras tu propio plan, lo conservas aunque la empresa retire el puesto.`;
}

/**
 * On an app's card, in place of 'Mejorar Plan': the plan a company's seat gives the person in that app, which their
 * company pays for (docs/decisions/0131-minors-from-a-browser-walk.md); null for the person's own plan, or none.
 */
export function seatPlanNote(appId: number, planesUsuarios: readonly UserPlan[]): string | null {
  const entry = heldEntryOf(appId, planesUsuarios);
  if (entry?.origen !== 'empresa' || !entry.empresa) return null;
  return `Tu plan ${planLabel(entry.plan)} te lo da un puesto de ${entry.empresa.nombre}`;
}

/** Spec §2: 'Plan gratuito' when every plan of the user is free, else each plan listed under 'Tus Aplicaciones'. */
export function planBadges(planesUsuarios: readonly UserPlan[]): PlanBadges {
  if (planesUsuarios.every((entry) => isFreePlan(entry.plan))) return { kind: 'free' };
  return {
    kind: 'list',
    items: planesUsuarios.map((entry) => ({
      id: entry.id,
      label: entry.app ? `${entry.app.nombre}: ${planLabel(entry.plan)}` : planLabel(entry.plan),
      origin: planOrigin(entry),
    })),
  };
}

/** Spec §9: the complete suite costs 39 USD a month and 299 USD a year. */
export const SUITE_PRICES = { monthly: 39, annual: 299, currency: 'USD' } as const;

/** Spec §9: the plans page shows the apps with ids 2, 3, 1, in that order. */
export const PLANS_PAGE_APP_ORDER: readonly number[] = [2, 3, 1];

export function plansPageApps(apps: readonly AppWithPlans[]): AppWithPlans[] {
  return PLANS_PAGE_APP_ORDER.map((id) => apps.find((app) => app.id === id)).filter(
    (app): app is AppWithPlans => app !== undefined,
  );
}

export function freePlanOf(app: Pick<AppWithPlans, 'planes'>): Plan | undefined {
  return app.planes.find(isFreePlan);
}

export function proPlanOf(app: Pick<AppWithPlans, 'planes'>): Plan | undefined {
  return app.planes.find((plan) => !isFreePlan(plan));
}

/** The plan the person has in an app: `planesUsuarios` names it by the app's id and the plan's name (spec §3). */
export function heldPlanOf(appId: number, planesUsuarios: readonly UserPlan[]): UserPlan['plan'] | undefined {
  return heldEntryOf(appId, planesUsuarios)?.plan;
}

/** The person's entry for an app: its plan and where it comes from (their own, or a company's seat). */
export function heldEntryOf(appId: number, planesUsuarios: readonly UserPlan[]): UserPlan | undefined {
  return planesUsuarios.find((entry) => entry.app?.id === appId);
}

/** Whether one of an app's plans is the one held: the same name, whatever its case or spaces. */
export function isHeld(plan: { nombre: string }, held: { nombre: string } | undefined): boolean {
  const name = (value: { nombre: string }) => value.nombre.trim().toLowerCase();
  return held !== undefined && name(plan) === name(held);
}

/** Spec §9: app id 4 (the suite entry) has no upgrade button. */
export const NO_UPGRADE_APP_ID = 4;

/** Spec §2: a card's 'Mejorar Plan' goes to /apps/{id} (or /apps/ without an id); null when the app has none. */
export function upgradePath(app: { id?: number | null }): string | null {
  if (app.id === NO_UPGRADE_APP_ID) return null;
  return app.id ? `/apps/${app.id}` : '/apps/';
}

/** '39 USD' and '12.50 USD': whole amounts without decimals. */
export function formatUsd(amount: number | null | undefined): string {
  const value = Number(amount ?? 0);
  return `${Number.isInteger(value) ? value : value.toFixed(2)} USD`;
}
