import { jwtDecode } from 'jwt-decode';

/** Local storage keys of spec §9. */
export const TOKEN_KEY = 'token';
export const AUTH_STORAGE_KEY = 'auth-storage';

function storage(): Storage | undefined {
  try {
    return typeof window === 'undefined' ? undefined : window.localStorage;
  } catch {
    return undefined; // storage disabled (private mode, sandboxed frame)
  }
}

export function readToken(): string | null {
  return storage()?.getItem(TOKEN_KEY) ?? null;
}

export function writeToken(token: string): void {
  storage()?.setItem(TOKEN_KEY, token);
}

export function removeToken(): void {
  storage()?.removeItem(TOKEN_KEY);
}

/**
 * Issue 13: a partner-scoped token (`typ: partner+jwt`, with an audience), what the API mints for a partner app. It
 * is never a portal session: the portal signs nobody in with one.
 */
export function isPartnerToken(token: string): boolean {
  try {
    const { typ } = jwtDecode<{ typ?: string }>(token, { header: true });
    const { aud } = jwtDecode<{ aud?: unknown }>(token);
    return typ === 'partner+jwt' || aud !== undefined;
  } catch {
    return false;
  }
}

/** Spec §5: a token is valid when it exists, decodes, and its `exp` (seconds) is in the future; a partner token never is. */
export function isTokenValid(token: string | null | undefined, nowMs: number = Date.now()): boolean {
  if (!token || isPartnerToken(token)) return false;
  try {
    const { exp } = jwtDecode<{ exp?: number }>(token);
    return typeof exp === 'number' && exp * 1000 > nowMs;
  } catch {
    return false;
  }
}
