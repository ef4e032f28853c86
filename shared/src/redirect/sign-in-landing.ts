import { getRuntimeConfig } from '../config/runtime-config';
import { isAllowedRedirect } from '@portal/contracts/redirect/allow-list';
import { portalLanding } from '../api/security';
import type { User } from '../types/entities';
import { partnerRedirect } from './partner-redirect';
import { redeemPendingCompanyLink } from './pending-company-link';
import { authorizePath, takePendingInteraction } from './pending-interaction';
import { invitationPath, takePendingInvitation } from './pending-invitation';
import { devicePath, takePendingDevice } from './pending-device';
import { takePendingPage } from './pending-page';
import { takePendingRedirect } from './pending-redirect';

/**
 * The partner target of spec §4's order (docs/decisions/0029-where-a-sign-in-lands.md):
 *
 * 1. the address's `redirect_url`, if the allow-list accepts it;
 * 2. else the stored pending redirect, if still allowed; it is consumed here, read once whatever the outcome;
 * 3. else nothing: the person stays in the portal.
 *
 * A target that is not allowed is dropped silently.
 */
export function chooseRedirect(redirectUrl: string | null | undefined, allowList: readonly string[]): string | null {
  const pending = takePendingRedirect(allowList);
  return redirectUrl && isAllowedRedirect(redirectUrl, allowList) ? redirectUrl : pending;
}

/**
 * The partner URL (with its partner token) a kept session leaves to at start-up, or null to stay in the portal. The
 * partner receives a token minted for it, never the session token itself; when none can be minted the person stays.
 */
export function partnerLanding(redirectUrl: string | null | undefined): Promise<string | null> {
  const allowList = getRuntimeConfig().redirectAllowList;
  return partnerRedirect(chooseRedirect(redirectUrl, allowList), allowList);
}

/** Where a sign-in lands: a partner's address, left for with a full load, or a page of the portal. */
export type Landing = { kind: 'leave'; url: string } | { kind: 'page'; path: string };

/**
 * Where a signed-in person goes next: the one decision, taken after every sign-in (password, verification, the
 * Google or Apple return, a passkey, the second step) by the shell's guest guard and by the sign-in screens.
 *
 * 1. the address's allowed `redirect_url`: a partner, with a token minted for it;
 * 2. else the OpenID Connect interaction this tab was in the middle of (docs/decisions/0056-openid-connect-screens.md):
 *    back to /autorizar, which finishes it and sends the browser back to the app;
 * 3. else the stored pending redirect (a partner), else the company invitation whose link the tab was following
 *    (back to /invitacion, to accept it), else the device code the tab was about to answer (back to /dispositivo,
 *    docs/decisions/0086-device-sign-in.md), else the portal: 'Seguridad' for an administrator who must still set up
 *    a second factor (`portalLanding`), else the page a signed-out visitor asked for (pending-page.ts), else /apps.
 *
 * The pending ones are consumed whatever the outcome, so each is followed once at most. A link to a company's own
 * sign-in this tab was proving (pending-company-link.ts) is sent before the landing, once, whatever the way in; its outcome waits for
 * the landing page and never stops the landing.
 */
export async function signInLanding(
  redirectUrl: string | null | undefined,
  user: Pick<User, 'role'> | null,
): Promise<Landing> {
  const allowList = getRuntimeConfig().redirectAllowList;
  const asked = Boolean(redirectUrl && isAllowedRedirect(redirectUrl, allowList));
  const interaction = takePendingInteraction();
  const invitation = takePendingInvitation();
  const device = takePendingDevice();
  const page = takePendingPage();
  const partner = chooseRedirect(redirectUrl, allowList);
  await redeemPendingCompanyLink();
  if (interaction && !asked) return { kind: 'page', path: authorizePath(interaction) };
  const url = await partnerRedirect(partner, allowList);
  if (url) return { kind: 'leave', url };
  if (invitation) return { kind: 'page', path: invitationPath(invitation) };
  if (device) return { kind: 'page', path: devicePath(device.codigo) };
  const portal = await portalLanding(user);
  return { kind: 'page', path: page && portal === '/apps' ? page : portal };
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
