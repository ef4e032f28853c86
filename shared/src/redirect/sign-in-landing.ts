import { getRuntimeConfig } from '../config/runtime-config';
import { isAllowedRedirect } from './allow-list';
import { partnerRedirect } from './partner-redirect';
import { takePendingRedirect } from './pending-redirect';

/**
 * Where a signed-in person goes next (spec §4, issue 17): the one decision, taken after every sign-in (password,
 * verification, Google or Apple, a `?token=` arriving at any page) and at start-up of a kept session.
 *
 * 1. the address's `redirect_url`, if the allow-list accepts it;
 * 2. else the stored pending redirect, if still allowed; it is consumed here, read once whatever the outcome;
 * 3. else nothing: the person stays in the portal (/apps after a sign-in).
 *
 * A target that is not allowed is dropped silently. The partner receives a token minted for it (issue 13), never the
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

/** A token that arrived in the address (the Google/Apple return, or any link that carries one) and its target. */
export interface ArrivingToken {
  token: string;
  /** The `redirect_url` that came with it: the partner this very sign-in is for. */
  redirectUrl: string | null;
}

/**
 * Start-up, run once before the router reads the address: takes `?token=` (and the `redirect_url` beside it) out of
 * the address, so neither stays in the bar or in the history, and answers them. `landing` says which path the page
 * keeps (a sign-in page is no place to land once signed in); null when no token arrived and nothing was changed.
 */
export function takeArrivingToken(
  landing: (pathname: string) => string,
  location: Pick<Location, 'pathname' | 'search' | 'hash'> = window.location,
  history: Pick<History, 'replaceState' | 'state'> = window.history,
): ArrivingToken | null {
  const params = new URLSearchParams(location.search);
  const token = params.get('token');
  if (token === null) return null;
  const redirectUrl = params.get('redirect_url');
  params.delete('token');
  params.delete('redirect_url');
  const pathname = landing(location.pathname);
  const kept = pathname === location.pathname ? params.toString() : '';
  const hash = pathname === location.pathname ? location.hash : '';
  history.replaceState(history.state, '', `${pathname}${kept ? `?${kept}` : ''}${hash}`);
  return { token, redirectUrl };
}
