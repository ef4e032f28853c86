import { ADMIN_ROLE } from '@portal/shared';
import { TEXT_RULES } from './texts';

/** Spec §2: the registration date in es-ES short format, 'Sin fecha' when missing (or unreadable). */
export function formatRegistrationDate(createdAt: string | null | undefined): string {
  if (!createdAt) return TEXT_RULES.noDate;
  const date = new Date(createdAt);
  if (Number.isNaN(date.getTime())) return TEXT_RULES.noDate;
  return date.toLocaleDateString('es-ES');
}

/** Spec §2, §9: the administrators card shows the count minus 2, never below zero. */
export function administratorsShown(count: number): number {
  return Math.max(0, count - 2);
}

/** Spec §2: the revenue chart's amounts, in USD without decimals ('1.234 USD'). */
export function formatWholeUsd(amount: number): string {
  return `${new Intl.NumberFormat('es-ES', { maximumFractionDigits: 0, useGrouping: true }).format(Math.round(amount))} USD`;
}

/** A stat card's change against the previous month: '+12,5 % vs. mes anterior', or a plain note without a base. */
export function formatChange(changePercent: number | null): string {
  if (changePercent === null) return TEXT_RULES.noPreviousMonth;
  const sign = changePercent > 0 ? '+' : changePercent < 0 ? '−' : '';
  const value = new Intl.NumberFormat('es-ES', { maximumFractionDigits: 1 }).format(Math.abs(changePercent));
  return TEXT_RULES.vsPreviousMonth(`${sign}${value}`);
}

/** 'Ana Pérez', or the email when the user has no name yet. */
export function displayName(user: { name?: string | null; lastName?: string | null; email?: string }): string {
  const full = [user.name, user.lastName]
    .filter((part) => part?.trim())
    .join(' ')
    .trim();
  return full || user.email || '';
}

/** Who a dialog is about: 'Ana Pérez · ana@example.com', or the email alone when the user has no name yet. */
export function whoLine(user: { name?: string | null; lastName?: string | null; email: string }): string {
  const name = displayName(user);
  return name === user.email ? user.email : `${name} · ${user.email}`;
}

/** The role column: role 1 is the administrator (spec §6). */
export function roleLabel(role: number): string {
  return role === ADMIN_ROLE ? TEXT_RULES.roleAdmin : TEXT_RULES.roleUser;
}

/** An expiry is a calendar day saved as midnight UTC: shown as that day (es-ES), wherever the admin is. */
export function formatExpiryDate(fechaVencimiento: string | null | undefined): string {
  if (!fechaVencimiento) return TEXT_RULES.noDate;
  const date = new Date(fechaVencimiento);
  return Number.isNaN(date.getTime()) ? TEXT_RULES.noDate : date.toLocaleDateString('es-ES', { timeZone: 'UTC' });
}
