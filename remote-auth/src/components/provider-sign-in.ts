import { beginSignInBinding, getRuntimeConfig, leaveTo, storePendingRedirect } from '@portal/shared';

/**
 * Hands the browser to the API to sign in elsewhere (Google, Apple, the company's own access): the partner target is
 * kept in storage for the return, a new secret is kept by this tab and only its SHA-256 (`binding`) goes in the
 * address, so only this tab can redeem the one-time code the API comes back with (docs/decisions/0001).
 */
export async function leaveForProviderSignIn(
  redirectUrl: string | null,
  addressFor: (apiBaseUrl: string, binding: string | null) => string,
): Promise<void> {
  const { apiBaseUrl, redirectAllowList } = getRuntimeConfig();
  if (redirectUrl) storePendingRedirect(redirectUrl, redirectAllowList);
  leaveTo(addressFor(apiBaseUrl, await beginSignInBinding()));
}
