/**
 * Where passkeys can work, written once for the API (its default relying party, api/src/config.ts) and the browser
 * (whether a page may offer them). Browsers refuse an IP address as a relying party ID, and a page can only use an ID
 * equal to its own host name or a parent of it: a page opened on an IP address can never use a passkey, whatever
 * the server's ID. A portal on this machine's loopback has 'localhost' as its ID.
 */

/** An IPv4 address in dotted form, or an IPv6 address (with or without the brackets of a URL's host). */
export function isIpAddress(hostname: string): boolean {
  return /^\d{1,3}(\.\d{1,3}){3}$/.test(hostname) || hostname.includes(':');
}

/** This machine's own names: 'localhost' (and its subdomains), 127.0.0.0/8 and ::1. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

/** The relying party ID of a portal at `portal` unless configured otherwise: its host, 'localhost' on loopback. */
export function defaultRelyingPartyId(portal: URL): string {
  return isLoopbackHost(portal.hostname) ? 'localhost' : portal.hostname.toLowerCase();
}

/** Why a page cannot use passkeys; for an IP address of this machine, the origin to open instead. */
export type PasskeysElsewhere = { reason: 'ip-address'; origin: string | null } | { reason: 'insecure' };

/**
 * Null when a page at `page` can use passkeys; otherwise why not: an IP address (a loopback one points to its
 * localhost twin, same scheme and port), or a page that is not a secure context (plain http away from this machine:
 * browsers hide WebAuthn there).
 */
export function passkeysElsewhere(page: URL, secureContext: boolean): PasskeysElsewhere | null {
  if (isIpAddress(page.hostname)) {
    const port = page.port ? `:${page.port}` : '';
    return {
      reason: 'ip-address',
      origin: isLoopbackHost(page.hostname) ? `${page.protocol}//localhost${port}` : null,
    };
  }
  if (!secureContext) return { reason: 'insecure' };
  return null;
}
