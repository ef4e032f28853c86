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
  writeSessionHint(token);
}

export function removeToken(): void {
  storage()?.removeItem(TOKEN_KEY);
  writeSessionHint(null);
}

/**
 * A cookie of the portal's own origin that only says "a session is kept here"
 * (docs/decisions/0027-session-hint-cookie.md). It carries no secret and signs nobody in: the static server reads it to
 * answer a page of the user area with the top bar already painted, and a sign-in page with the plain shell instead of a
 * form this person will not use (scripts/lib/static-server.mjs; the build learns its name from here,
 * host/prerender/render.tsx). It lives as long as the token and goes with it.
 */
export const SESSION_HINT_COOKIE = 'portal_sesion';

function writeSessionHint(token: string | null): void {
  if (typeof document === 'undefined') return;
  const expiresMs = token ? tokenExpiryMs(token) : null;
  const seconds = expiresMs === null ? 0 : Math.floor((expiresMs - Date.now()) / 1000);
  const secure = window.location.protocol === 'https:' ? '; Secure' : '';
  // biome-ignore lint/suspicious/noDocumentCookie: written before the next page is asked for, which the asynchronous Cookie Store API (missing in Firefox) cannot promise
  document.cookie =
    seconds > 0
      ? `${SESSION_HINT_COOKIE}=1; Path=/; Max-Age=${seconds}; SameSite=Lax${secure}`
      : `${SESSION_HINT_COOKIE}=; Path=/; Max-Age=0; SameSite=Lax${secure}`;
}

/**
 * Brings the hint in line with the token kept in this browser (the shell's start-up): one kept before the hint
 * existed gets it, and a hint whose token is gone, expired or no session (another tab, storage cleared) is dropped.
 */
export function syncSessionHint(): void {
  const token = readToken();
  writeSessionHint(isTokenValid(token) ? token : null);
}

/**
 * A partner-scoped token (`typ: partner+jwt`, with an audience), what the API mints for a partner app. It
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

/** When a token stops being valid (its `exp`, in ms), null when it has none or does not decode. */
function tokenExpiryMs(token: string): number | null {
  try {
    const { exp } = jwtDecode<{ exp?: number }>(token);
    return typeof exp === 'number' ? exp * 1000 : null;
  } catch {
    return null;
  }
}

/** Spec §5: a token is valid when it exists, decodes, and its `exp` (seconds) is in the future; a partner token never is. */
export function isTokenValid(token: string | null | undefined, nowMs: number = Date.now()): boolean {
  if (!token || isPartnerToken(token)) return false;
  const expiresMs = tokenExpiryMs(token);
  return expiresMs !== null && expiresMs > nowMs;
}
