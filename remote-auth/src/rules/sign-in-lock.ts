/**
 * What /login says while a sign-in lock holds (docs/decisions/0010-sign-in-locks-per-address.md). The API answers a
 * locked address with the wrong-password message plus `retryAfter`, the same for a known email or an unknown one; the
 * page turns those seconds into the time the person may try again, in their own clock.
 */

const twoDigits = (value: number) => String(value).padStart(2, '0');

/** `en 15 minutos`, `en 1 minuto`, `en 40 segundos`: how long is left, rounded up. */
export function remainingText(seconds: number): string {
  if (seconds < 60) return `en ${seconds} ${seconds === 1 ? 'segundo' : 'segundos'}`;
  const minutes = Math.ceil(seconds / 60);
  return `en ${minutes} ${minutes === 1 ? 'minuto' : 'minutos'}`;
}

/**
 * 'Por seguridad, los intentos desde este dispositivo están en pausa. Podrás intentarlo de nuevo a las 14:35
 * (en 15 minutos).' The date is named when the lock ends on another day.
 */
export function signInLockText(retryAfterSeconds: number, now: Date = new Date()): string {
  const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
  const until = new Date(now.getTime() + seconds * 1000);
  const time = `${twoDigits(until.getHours())}:${twoDigits(until.getMinutes())}`;
  const sameDay = until.toDateString() === now.toDateString();
  const when = sameDay
    ? `a las ${time}`
    : `el ${twoDigits(until.getDate())}/${twoDigits(until.getMonth() + 1)}/${until.getFullYear()} a las ${time}`;
  return `Por seguridad, los intentos desde este dispositivo están en pausa. Podrás intentarlo de nuevo ${when} (${remainingText(seconds)}).`;
}

/** A pause the API gave an address: its key as the API keys it (trimmed, lower case) and when it ends (ms). */
export interface SignInPause {
  email: string;
  until: number;
}

export const normalizedEmail = (email: string) => email.trim().toLowerCase();

/** Whole seconds left of the pause for the address typed now: 0 when there is none, or it is another address's. */
export function pauseLeft(pause: SignInPause | null, email: string, now: number = Date.now()): number {
  if (!pause || pause.email !== normalizedEmail(email) || pause.until <= now) return 0;
  return Math.ceil((pause.until - now) / 1000);
}

/** 'Inténtalo de nuevo en 14:59': the sign-in button while a pause holds, its time left counting down. */
export function pauseButtonText(seconds: number): string {
  const whole = Math.max(1, Math.ceil(seconds));
  return `Inténtalo de nuevo en ${Math.floor(whole / 60)}:${twoDigits(whole % 60)}`;
}
