/** Spec §2: mobile devices are detected from the user agent. */
export function isMobileUserAgent(userAgent: string): boolean {
  return /Android|webOS|iPhone|iPad|iPod|BlackBerry|IEMobile|Opera Mini|Mobile/i.test(userAgent);
}

export function isIOSUserAgent(userAgent: string): boolean {
  return /iPhone|iPad|iPod/i.test(userAgent);
}

/** What a launch depends on: iOS, another phone or tablet ('android'), or a desktop browser. */
export type Device = 'ios' | 'android' | 'desktop';

export function deviceOf(userAgent: string): Device {
  if (isIOSUserAgent(userAgent)) return 'ios';
  return isMobileUserAgent(userAgent) ? 'android' : 'desktop';
}
