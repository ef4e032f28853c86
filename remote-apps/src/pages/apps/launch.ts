import { isIOSUserAgent, mobileLaunchUrl, webLaunchTarget, type App, type WebLaunch } from '@portal/shared';
import type { Platform } from './AppCard';

export type Launch = WebLaunch | null;

/**
 * Spec §2 through the shared launch rules: what opening an app on a platform does on this device. Mobile links open
 * as they are, without a token.
 */
export function launchFor(app: App, platform: Platform, allowList: readonly string[], userAgent: string): Launch {
  if (platform === 'web') return webLaunchTarget(app, allowList);
  const url = mobileLaunchUrl(app, isIOSUserAgent(userAgent));
  return url ? { kind: 'new-tab', url, partnerToken: false } : null;
}
