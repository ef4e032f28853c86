import { deviceOf, mobileLaunchUrl, webLaunchTarget, type App, type WebLaunch } from '@portal/shared';
import type { Platform } from './AppCard';

/** `notice`: nothing opens; the page says why (a mobile-only app chosen on a desktop). */
export type Launch = WebLaunch | { kind: 'notice'; text: string } | null;

/**
 * Spec §2 through the shared launch rules: what opening an app on a platform does on this device. Mobile links open
 * as they are, without a token, on phones and tablets only: a desktop browser gets the web app when there is one,
 * else a short message (never the Android link).
 */
export function launchFor(app: App, platform: Platform, allowList: readonly string[], userAgent: string): Launch {
  if (platform === 'web') return webLaunchTarget(app, allowList);
  const device = deviceOf(userAgent);
  if (device === 'desktop') {
    return (
      webLaunchTarget(app, allowList) ?? {
        kind: 'notice',
        text: `${app.nombre} se abre desde un teléfono o una tableta: abre el portal en tu móvil.`,
      }
    );
  }
  const url = mobileLaunchUrl(app, device);
  return url ? { kind: 'new-tab', url, partnerToken: false } : null;
}
