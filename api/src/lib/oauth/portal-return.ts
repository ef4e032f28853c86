// What the browser sign-ins with an outside provider share (Google and Apple, routes/auth/oauth/; a company's own
// provider, routes/auth/company.ts): the key their transaction cookies are sealed with, the partner target they carry
// and the portal page they end on.
import { hkdfSync, type KeyObject } from 'node:crypto';
import { isAllowedRedirect } from '@portal/contracts/redirect/allow-list';

/** The key of the sign-in transaction cookies (lib/oauth/transaction-cookie.ts), derived from the API's signing key. */
export function transactionCookieKey(signingKey: KeyObject): Buffer {
  return Buffer.from(
    hkdfSync(
      'sha256',
      signingKey.export({ type: 'pkcs8', format: 'der' }),
      Buffer.alloc(0),
      'portal oauth transaction',
      32,
    ),
  );
}

/** A partner target to continue to after signing in, when the allow list has it; null otherwise. */
export const allowedRedirect = (raw: string | null | undefined, allowList: readonly string[]): string | null =>
  raw && isAllowedRedirect(raw, allowList as string[]) ? raw : null;

/** A page of the portal with query parameters (a return's one-time code, never a session token). */
export function portalPage(portalUrl: string, path: string, query: Record<string, string | null>): string {
  const url = new URL(path, portalUrl);
  for (const [key, value] of Object.entries(query)) if (value) url.searchParams.set(key, value);
  return url.href;
}
