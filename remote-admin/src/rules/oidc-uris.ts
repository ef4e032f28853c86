/**
 * The addresses of an OpenID Connect client as the admin form checks them before sending (the API is the real guard
 * and may refuse more): where the app gets the person back after a sign-in or a logout, and the app's own server
 * addresses. The texts name the form's labels.
 */

/** The lines of a one-per-line field: trimmed, blank lines and repeats left out, in the order typed. */
export function splitLines(text: string): string[] {
  return [
    ...new Set(
      text
        .split(/\r?\n/)
        .map((line) => line.trim())
        .filter(Boolean),
    ),
  ];
}

/** Whitespace, control characters and backslashes make scheme and host ambiguous (browsers read '\' as '/'). */
const AMBIGUOUS = /[\s\\\p{Cc}]/u;
/** RFC 8252 §7.3: a native app listens on the loopback interface, on any port. */
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);
/** Schemes that open a browser feature or a program, never an app's own return address. */
const FORBIDDEN_SCHEMES = new Set([
  'javascript',
  'data',
  'vbscript',
  'file',
  'blob',
  'about',
  'filesystem',
  'view-source',
  'intent',
  'mailto',
  'tel',
  'sms',
  'ftp',
  'ws',
  'wss',
]);

function parse(value: string): URL | null {
  try {
    return new URL(value);
  } catch {
    return null;
  }
}

/**
 * Whether `value` may be a client's address: https, or http on the loopback interface (RFC 8252 §7.3); with
 * `appScheme`, also an app's own scheme (`betopro://auth`, `com.empresa.app:/callback`, RFC 8252 §7.1), which only a
 * public client (a mobile or desktop app) uses. Never a fragment, nor a user or password in it.
 */
function isClientAddress(value: string, kind: AddressKind): boolean {
  if (AMBIGUOUS.test(value)) return false;
  const url = parse(value);
  if (!url || url.hash || value.includes('#') || url.username || url.password) return false;
  const scheme = url.protocol.slice(0, -1).toLowerCase();
  // The parser forgives `https:///host` and `https:host`; an address to register is written out in full.
  if ((scheme === 'https' || scheme === 'http') && !/^https?:\/\/[^/]/i.test(value)) return false;
  if (scheme === 'https') return url.hostname !== '';
  if (scheme === 'http') return kind !== 'https' && LOOPBACK.has(url.hostname);
  return kind === 'app' && !FORBIDDEN_SCHEMES.has(scheme) && !scheme.startsWith('ms-') && !scheme.endsWith('-ms');
}

/**
 * What a field takes: `web`, https or http on loopback; `app`, also an app's own scheme (a public client's return
 * addresses); `https`, https alone, even on loopback (an initiate-login URI, OpenID Connect Registration §2).
 */
export type AddressKind = 'web' | 'app' | 'https';

/** What each kind of address may be, said to the administrator. */
const EXPECTED: Record<AddressKind, string> = {
  web: 'debe ser una dirección https:// completa (http:// solo para localhost o 127.0.0.1), sin fragmento (#)',
  app:
    'debe ser una dirección https:// completa (http:// solo para localhost o 127.0.0.1) o el esquema de la app ' +
    '(por ejemplo betopro://auth), sin fragmento (#)',
  https: 'debe ser una dirección https:// completa, también en localhost, sin fragmento (#)',
};

/**
 * The problem of the first address refused among `uris`, naming the field's `label` and the address, or null.
 * `kind`: what the field takes (AddressKind).
 */
export function urisProblem(label: string, uris: readonly string[], kind: AddressKind = 'web'): string | null {
  const refused = uris.find((uri) => !isClientAddress(uri, kind));
  return refused === undefined ? null : `${label}: «${refused}» ${EXPECTED[kind]}`;
}
