// Launching an app that signs in by itself: OpenID Connect third-party-initiated login (Core §4). The portal opens
// the app's initiate_login_uri naming itself (`iss`) and the page to land on (`target_link_uri`); the app then starts
// an ordinary authorization request, so no token ever travels in a page's address.

/** The address that launches the app this way, or null when it has no such URI or no web address to land on. */
export function initiatedLoginUrl(
  initiateLoginUri: string | null,
  webUrl: string | null,
  issuer: string,
): string | null {
  if (!initiateLoginUri || !webUrl || !/^https?:\/\//.test(webUrl)) return null;
  const url = new URL(initiateLoginUri);
  url.searchParams.set('iss', issuer);
  url.searchParams.set('target_link_uri', webUrl);
  return url.href;
}
