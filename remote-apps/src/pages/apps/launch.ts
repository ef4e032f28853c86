import { appLinkProblem, deviceOf, mobileLaunchUrl, webLaunchTarget, type App, type WebLaunch } from '@portal/shared';
import type { Platform } from './AppCard';

/** Where a phone gets an app: the store of one mobile system and the https address a phone opens for it. */
export interface StoreLink {
  field: 'androidUrl' | 'iosUrl';
  store: 'Google Play' | 'App Store';
  /** Who the store is for, as a person reads it. */
  devices: string;
  url: string;
}

/**
 * `get-app`: nothing opens; a dialog says where to get the app (a mobile-only app chosen on a desktop).
 * `notice`: nothing opens; the page says why (the same, for an app with no https link a phone could open).
 */
export type Launch =
  | WebLaunch
  | { kind: 'get-app'; app: App; stores: StoreLink[] }
  | { kind: 'notice'; text: string }
  | null;

const STORES: readonly Omit<StoreLink, 'url'>[] = [
  { field: 'androidUrl', store: 'Google Play', devices: 'Android' },
  { field: 'iosUrl', store: 'App Store', devices: 'iPhone y iPad' },
];

/**
 * The app's mobile links a desktop can hand to a phone: the https ones (a store page, a download page, a universal
 * link), never a custom-scheme deep link, which opens nothing on a phone that does not have the app yet
 * (docs/decisions/0051-where-to-get-a-mobile-app.md). A link the app-links rule refuses is left out.
 */
export function storeLinks(app: Pick<App, 'androidUrl' | 'iosUrl'>): StoreLink[] {
  return STORES.flatMap((store) => {
    const url = app[store.field]?.trim();
    if (!url || appLinkProblem(store.field, url) !== null || !/^https:\/\//i.test(url)) return [];
    return [{ ...store, url }];
  });
}

/**
 * Spec §2 through the shared launch rules: what opening an app on a platform does on this device. Mobile links open
 * as they are, without a token, on phones and tablets only. A desktop browser gets the web app when there is one;
 * else, for an app a phone can get, where to get it (store links and their QR codes); else a short message. Never
 * the Android link on a desktop, and never a tab that has nothing to show.
 */
export function launchFor(app: App, platform: Platform, allowList: readonly string[], userAgent: string): Launch {
  const web = webLaunchTarget(app, allowList);
  if (platform === 'web' && web) return web;
  const device = deviceOf(userAgent);
  if (device === 'desktop') {
    if (web) return web;
    const stores = storeLinks(app);
    if (stores.length > 0) return { kind: 'get-app', app, stores };
    return platform === 'mobile'
      ? {
          kind: 'notice',
          text: `${app.nombre} se abre desde un teléfono o una tableta: entra al portal desde uno de ellos.`,
        }
      : null;
  }
  const url = mobileLaunchUrl(app, device);
  return url ? { kind: 'new-tab', url, partnerToken: false } : null;
}
