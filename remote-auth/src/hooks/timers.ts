import { useCallback, useEffect, useRef, useState } from 'react';
import { resendCooldownLeft, type ResendPurpose } from '@portal/shared';

/** /forgot-password and /reset-password (spec §4, §9): banners go after 5 s; after success each moves on after 2 s. */
export const BANNER_MS = 5000;
export const NEXT_STEP_MS = 2000;

/** Runs `action` once after `ms` while the component is on screen (the spec's delayed redirects). */
export function useDelayed(ms: number, action: (() => void) | null) {
  const latest = useRef(action);
  latest.current = action;
  const armed = action !== null;
  useEffect(() => {
    if (!armed) return undefined;
    const timer = setTimeout(() => latest.current?.(), ms);
    return () => clearTimeout(timer);
  }, [armed, ms]);
}

/**
 * Seconds left before 'Reenviar código' can mail again, read from the wait the server gave (kept in localStorage by
 * the shared calls, so a reload keeps counting); re-read every second and after each resend (`refresh`).
 */
export function useResendCooldown(purpose: ResendPurpose, email: string) {
  const [left, setLeft] = useState(() => resendCooldownLeft(purpose, email));
  const refresh = useCallback(() => setLeft(resendCooldownLeft(purpose, email)), [purpose, email]);
  useEffect(refresh, [refresh]);
  const running = left > 0;
  useEffect(() => {
    if (!running) return undefined;
    const tick = setInterval(refresh, 250);
    return () => clearInterval(tick);
  }, [running, refresh]);
  return [left, refresh] as const;
}
