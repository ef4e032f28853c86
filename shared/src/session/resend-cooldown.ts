/**
 * When 'Reenviar código' can mail again, per purpose and email, kept in localStorage so that a reload (or another tab)
 * counts down the same wait. The figure always comes from the server: `resendAfter` of a registration or a resend,
 * `retryAfter` of a refused one (docs/decisions/0032-resend-countdown.md).
 */
export type ResendPurpose = 'verify_email';

const PREFIX = 'portal:reenvio:';

function key(purpose: ResendPurpose, email: string): string {
  return `${PREFIX}${purpose}:${email.trim().toLowerCase()}`;
}

/** Starts (or replaces) the wait: `seconds` from now; 0 or less clears it. */
export function startResendCooldown(purpose: ResendPurpose, email: string, seconds: number | undefined): void {
  try {
    if (!seconds || seconds <= 0) localStorage.removeItem(key(purpose, email));
    else localStorage.setItem(key(purpose, email), String(Date.now() + seconds * 1000));
  } catch {
    // Storage refused (private mode, quota): the server still answers 429 with its own wait.
  }
}

/** Whole seconds left of the wait (0 when none). */
export function resendCooldownLeft(purpose: ResendPurpose, email: string, now = Date.now()): number {
  try {
    const until = Number(localStorage.getItem(key(purpose, email)));
    return Number.isFinite(until) && until > now ? Math.ceil((until - now) / 1000) : 0;
  } catch {
    return 0;
  }
}
