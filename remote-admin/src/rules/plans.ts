import { isFreePlan } from '@portal/shared';

/** Rules of the 'Planes del Usuario' modal (spec §2, §5, §9). Dates are 'YYYY-MM-DD', as a date input holds them. */

/** Spec §9: app 4 (the suite entry) is not shown in the plans modal. */
export const HIDDEN_PLAN_APP_ID = 4;

/** Plan id 0 means "no plan" ('Sin plan asignado'); it cannot be saved. */
export const NO_PLAN_ID = 0;

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

/** A local calendar date as 'YYYY-MM-DD'. */
export function toDateInput(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** Spec §5: with no plan, the expiry starts at today plus one year (29 February becomes 28 February). */
export function defaultExpiry(today: Date): string {
  const year = today.getFullYear() + 1;
  const lastDay = new Date(year, today.getMonth() + 1, 0).getDate();
  return `${year}-${pad(today.getMonth() + 1)}-${pad(Math.min(today.getDate(), lastDay))}`;
}

/**
 * The expiry the input starts with: the current plan's (its UTC calendar day, which is how it was saved), else the
 * default one year ahead.
 */
export function initialExpiry(fechaVencimiento: string | null | undefined, today: Date): string {
  if (fechaVencimiento) {
    const date = new Date(fechaVencimiento);
    if (!Number.isNaN(date.getTime())) return date.toISOString().slice(0, 10);
  }
  return defaultExpiry(today);
}

/** Spec §5: the expiry is sent as midnight UTC of the chosen date. Answers null for an empty or impossible date. */
export function expiryToIso(dateInput: string): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(dateInput);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return date.toISOString();
}

/**
 * Whether plan `planId` of the app has an expiry worth showing: a free plan has none, since nothing ends it (only
 * paid plans count as subscriptions that lapse). 'Sin plan asignado' keeps the date a new plan starts with.
 */
export function planExpires(planId: number, planesApp: readonly { id: number; nombre: string }[]): boolean {
  const plan = planesApp.find((candidate) => candidate.id === planId);
  return !(plan && isFreePlan(plan));
}

/**
 * The `fechaVencimiento` the call sends: the chosen day at midnight UTC; for a free plan, whose date is never shown,
 * the default one (spec §7's call always carries a date). Null when the chosen day is empty or impossible.
 */
export function expiryToSend(expires: boolean, dateInput: string, today: Date): string | null {
  return expiryToIso(expires ? dateInput : defaultExpiry(today));
}

/** Spec §5: Guardar is disabled while saving, at plan 0, and (ours) without a valid date to send. */
export function canSavePlan(planId: number, fechaVencimiento: string | null, saving: boolean): boolean {
  return !saving && planId !== NO_PLAN_ID && fechaVencimiento !== null;
}

/** The apps the modal lists: every one but app 4. */
export function visiblePlanApps<T extends { app: { id: number } }>(infos: T[]): T[] {
  return infos.filter((info) => info.app.id !== HIDDEN_PLAN_APP_ID);
}
