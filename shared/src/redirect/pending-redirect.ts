import { isAllowedRedirect } from '@portal/contracts/redirect/allow-list';

/** Local storage key of the redirect URL kept across registration, verification and social sign-in. */
export const PENDING_REDIRECT_KEY = 'redirect_url';

export function storePendingRedirect(url: string, allowList: readonly string[]): void {
  if (isAllowedRedirect(url, allowList)) localStorage.setItem(PENDING_REDIRECT_KEY, url);
}

/** Spec §3-§4: read once and removed on reading; used only if still allowed. */
export function takePendingRedirect(allowList: readonly string[]): string | null {
  const url = localStorage.getItem(PENDING_REDIRECT_KEY);
  localStorage.removeItem(PENDING_REDIRECT_KEY);
  return url && isAllowedRedirect(url, allowList) ? url : null;
}
