import { getRuntimeConfig } from '../config/runtime-config';
import { isAllowedRedirect } from '@portal/contracts/redirect/allow-list';
import { partnerRedirect } from './partner-redirect';
import { takePendingRedirect } from './pending-redirect';

/**
 * Where a signed-in person goes next (spec §4; docs/decisions/0029-where-a-sign-in-lands.md): the one decision, taken
 * after every sign-in (password, verification, the Google or Apple return redeemed by the tab that started it) and at
 * start-up of a kept session.
 *
 * 1. the address's `redirect_url`, if the allow-list accepts it;
 * 2. else the stored pending redirect, if still allowed; it is consumed here, read once whatever the outcome;
 * 3. else nothing: the person stays in the portal (/apps after a sign-in).
 *
 * A target that is not allowed is dropped silently. The partner receives a token minted for it, never the
 * session token itself; when none can be minted the person stays in the portal.
 */
export function chooseRedirect(redirectUrl: string | null | undefined, allowList: readonly string[]): string | null {
  const pending = takePendingRedirect(allowList);
  return redirectUrl && isAllowedRedirect(redirectUrl, allowList) ? redirectUrl : pending;
}

/** The partner URL (with its partner token) to leave to after a sign-in, or null to stay in the portal. */
export function partnerLanding(redirectUrl: string | null | undefined): Promise<string | null> {
  const allowList = getRuntimeConfig().redirectAllowList;
  return partnerRedirect(chooseRedirect(redirectUrl, allowList), allowList);
}

/** Where a token that is not a valid portal session sends the browser (spec §2, the OAuth return). */
export const TOKEN_INVALID_PATH = '/login?error=token_invalid';

/**
 * Start-up, run once before the router reads the address: a `?token=` is never a session (a link could put anyone into
 * another person's account: docs/decisions/0001-session-from-bound-sign-in-return.md). It is taken out of the address
 * at once, without being stored, so it stays neither in the bar nor in the history; the page and every other parameter
 * stay. Answers whether there was one.
 */
export function dropTokenFromAddress(
  location: Pick<Location, 'pathname' | 'search' | 'hash'> = window.location,
  history: Pick<History, 'replaceState' | 'state'> = window.history,
): boolean {
  const params = new URLSearchParams(location.search);
  if (!params.has('token')) return false;
  params.delete('token');
  const kept = params.toString();
  history.replaceState(history.state, '', `${location.pathname}${kept ? `?${kept}` : ''}${location.hash}`);
  return true;
}

/** Where this tab keeps the secret of the Google/Apple sign-in it started (this tab only, gone with it). */
export const SIGN_IN_SECRET_KEY = 'portal-sign-in-secret';

const base64url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');

/**
 * Before 'Continuar con Google/Apple' leaves for the API: a new random secret for this tab, kept in sessionStorage,
 * and its SHA-256 (base64url), the `binding` the start carries. The return's one-time code is redeemed only with the
 * secret, so only this tab can turn it into a session. Null where the browser offers no digest (a page not served
 * over https or localhost): the API then refuses the start with its sign-in error.
 */
export async function beginSignInBinding(): Promise<string | null> {
  if (!globalThis.crypto?.subtle) return null;
  const secret = base64url(crypto.getRandomValues(new Uint8Array(32)));
  const binding = base64url(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(secret))));
  try {
    sessionStorage.setItem(SIGN_IN_SECRET_KEY, secret);
  } catch {
    return null;
  }
  return binding;
}

/** The secret of the sign-in this tab started, removed as it is read (a return is redeemed once); null if none. */
export function takeSignInSecret(): string | null {
  try {
    const secret = sessionStorage.getItem(SIGN_IN_SECRET_KEY);
    sessionStorage.removeItem(SIGN_IN_SECRET_KEY);
    return secret;
  } catch {
    return null;
  }
}
