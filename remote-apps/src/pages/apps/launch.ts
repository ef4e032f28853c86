import { isIOSUserAgent, mobileLaunchUrl, webLaunchTarget, type App } from '@portal/shared';
import type { Platform } from './AppCard';

export type Launch = { kind: 'new-tab'; url: string } | { kind: 'navigate'; path: string } | null;

/** Spec §2 through the shared launch rules: what opening an app on a platform does for this session and device. */
export function launchFor(app: App, platform: Platform, token: string | null, userAgent: string): Launch {
  if (platform === 'web') return webLaunchTarget(app, token);
  const url = mobileLaunchUrl(app, isIOSUserAgent(userAgent));
  return url ? { kind: 'new-tab', url } : null;
}
