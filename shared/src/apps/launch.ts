import type { App } from '../types/entities';

/** Spec §9: app id 5 is the calculator, an in-portal tool that opens in a new tab. */
export const CALCULATOR_APP_ID = 5;
export const CALCULATOR_PATH = '/calculadora-txi';

export type WebLaunch = { kind: 'new-tab'; url: string } | { kind: 'navigate'; path: string };

function isRelative(url: string): boolean {
  return url.startsWith('/') && !url.startsWith('//');
}

/**
 * Spec §2: a web launch opens webUrl in a new tab with the session token added for external URLs, or navigates
 * inside the portal for relative URLs. The calculator always opens in a new tab. Null when there is nothing to open.
 */
export function webLaunchTarget(app: Pick<App, 'id' | 'webUrl'>, token: string | null): WebLaunch | null {
  if (app.id === CALCULATOR_APP_ID) return { kind: 'new-tab', url: CALCULATOR_PATH };
  const webUrl = app.webUrl?.trim();
  if (!webUrl) return null;
  if (isRelative(webUrl)) return { kind: 'navigate', path: webUrl };
  let url: URL;
  try {
    url = new URL(webUrl);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  if (token) url.searchParams.set('token', token);
  return { kind: 'new-tab', url: url.toString() };
}

/** Spec §2: iOS devices open iosUrl, every other device androidUrl. */
export function mobileLaunchUrl(app: Pick<App, 'iosUrl' | 'androidUrl'>, isIOS: boolean): string | null {
  return (isIOS ? app.iosUrl : app.androidUrl) || null;
}
