import type { App } from '../types/entities';
import type { Device } from '../device/user-agent';
import { isAllowedRedirect } from '@portal/contracts/redirect/allow-list';
import { appLinkProblem } from '@portal/contracts/apps/links';
import { partnerRedirect } from '../redirect/partner-redirect';

/** Spec §9: app id 5 is the calculator, an in-portal tool that opens in a new tab. */
export const CALCULATOR_APP_ID = 5;
export const CALCULATOR_PATH = '/calculadora-txi';

export type WebLaunch =
  /** `partnerToken`: the target is on the redirect allow-list, so a signed-in person arrives with a partner token. */
  { kind: 'new-tab'; url: string; partnerToken: boolean } | { kind: 'navigate'; path: string };

function isRelative(url: string): boolean {
  return url.startsWith('/') && !url.startsWith('//') && !url.startsWith('/\\');
}

/** An absolute http(s) address, normalised; null for anything else (a script URL, a path, garbage). */
function httpAddress(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  return url.protocol === 'https:' || url.protocol === 'http:' ? url.toString() : null;
}

/**
 * Spec §2: a web launch opens webUrl in a new tab, or navigates inside the portal for relative URLs; the calculator
 * always opens in a new tab. A token goes only to a target the redirect allow-list accepts, and it is a partner-scoped
 * token (`openWebLaunch`; docs/decisions/0007-partner-tokens.md), never the portal's session. An app that signs in
 * with the portal's OpenID Connect provider opens its `inicioSesionUrl` instead, with no token: the app starts its own
 * sign-in with the portal there (third-party-initiated login; docs/decisions/0056-openid-connect-screens.md). Null
 * when there is nothing to open.
 */
export function webLaunchTarget(
  app: Pick<App, 'id' | 'webUrl' | 'inicioSesionUrl'>,
  allowList: readonly string[],
): WebLaunch | null {
  if (app.id === CALCULATOR_APP_ID) return { kind: 'new-tab', url: CALCULATOR_PATH, partnerToken: false };
  const signIn = app.inicioSesionUrl?.trim() ? httpAddress(app.inicioSesionUrl.trim()) : null;
  if (signIn) return { kind: 'new-tab', url: signIn, partnerToken: false };
  const webUrl = app.webUrl?.trim();
  if (!webUrl) return null;
  if (isRelative(webUrl)) return { kind: 'navigate', path: webUrl };
  const url = httpAddress(webUrl);
  return url ? { kind: 'new-tab', url, partnerToken: isAllowedRedirect(url, allowList) } : null;
}

/**
 * Opens a new-tab launch. With a session and an allowed target, the tab is opened at once (a tab opened after an
 * await could be blocked as a pop-up), cut from the portal (`opener = null`), and sent to the target with a token
 * minted for it; if none can be minted, to the target without one. Anything else opens as is.
 */
export async function openWebLaunch(
  target: { url: string; partnerToken: boolean },
  signedIn: boolean,
  allowList: readonly string[],
): Promise<void> {
  if (!target.partnerToken || !signedIn) {
    window.open(target.url, '_blank', 'noopener,noreferrer');
    return;
  }
  const tab = window.open('about:blank', '_blank');
  if (tab) tab.opener = null;
  const url = (await partnerRedirect(target.url, allowList)) ?? target.url;
  if (tab) tab.location.replace(url);
  else window.open(url, '_blank', 'noopener,noreferrer');
}

/**
 * Spec §2: iOS devices open iosUrl, the other phones and tablets androidUrl. A desktop gets neither (an Android link
 * means nothing there; the apps home offers the web app instead), and a stored link whose scheme is not https or a
 * registered app scheme (`links.ts`) is never opened, whatever the database holds.
 */
export function mobileLaunchUrl(app: Pick<App, 'iosUrl' | 'androidUrl'>, device: Device): string | null {
  if (device === 'desktop') return null;
  const field = device === 'ios' ? 'iosUrl' : 'androidUrl';
  const url = app[field]?.trim();
  return url && appLinkProblem(field, url) === null ? url : null;
}
