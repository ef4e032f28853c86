/**
 * A device's code this tab is on the way to answer: the person opened /dispositivo (typed on the phone, or the
 * device's link with `?codigo=…`) signed out. The tab keeps the page while they sign in (however they do it), and the
 * one landing decision (sign-in-landing.ts) brings them back to /dispositivo with the code, still to be confirmed.
 */

import { keepInTab, takeFromTab } from './kept-in-tab';

export const DEVICE_PATH = '/dispositivo';

/** Where this tab keeps the page (sessionStorage: this tab only, gone with it). */
export const PENDING_DEVICE_KEY = 'portal-device';

/** A device's code lives minutes: an older kept one is not worth coming back to. */
export const PENDING_DEVICE_TTL_MS = 15 * 60 * 1000;

/** What may be a code as typed (letters, a dash or spaces), or nothing yet: anything else is never kept. */
const TYPED = /^[A-Za-z -]{0,16}$/;

/** /dispositivo, with the code when there is one. */
export function devicePath(codigo: string): string {
  return codigo ? `${DEVICE_PATH}?codigo=${encodeURIComponent(codigo)}` : DEVICE_PATH;
}

/** Keeps the page (and its code) for this tab's next sign-in. */
export function storePendingDevice(codigo: string, now: number = Date.now()): void {
  if (TYPED.test(codigo)) keepInTab(PENDING_DEVICE_KEY, { codigo }, now);
}

/** The page this tab kept, removed as it is read (its code, maybe empty); null if none or too old. */
export function takePendingDevice(now: number = Date.now()): { codigo: string } | null {
  return takeFromTab(
    PENDING_DEVICE_KEY,
    PENDING_DEVICE_TTL_MS,
    ({ codigo }) => (typeof codigo === 'string' && TYPED.test(codigo) ? { codigo } : null),
    now,
  );
}
