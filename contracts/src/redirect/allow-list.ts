/**
 * Spec §5: a redirect target must have a scheme and host on the allow-list.
 *
 * Patterns (from the runtime config):
 * - `https://portal.example.com`: that scheme and host (and port, if written); the path is ignored.
 * - `https://*.portal.example.com`: any subdomain of it (test, community), same scheme. Refused at start unless the
 *   base is the portal's own host or a domain named in REDIRECT_WILDCARD_DOMAINS, and never on a public suffix:
 *   `allow-list-entries.ts`.
 *
 * A host ending in a dot ('portal.example.com.') never matches, as a target or as a pattern.
 * - `https://mi-tunel.devtunnels.ms`: an exact host, e.g. a dev tunnel of one's own.
 * - `betopro://auth/success`: a mobile deep link; scheme, host and path must match exactly.
 */

const WEB_SCHEMES = new Set(['http:', 'https:']);

interface ParsedTarget {
  protocol: string;
  host: string;
  path: string;
}

/** Parses strictly: absolute URLs only, no credentials, no backslashes or control characters, no trailing dot. */
function parseTarget(raw: string): ParsedTarget | null {
  // Browsers read '\' as '/', and whitespace or control characters make scheme and host ambiguous.
  if (!raw || /[\\\s\p{Cc}]/u.test(raw)) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null; // relative and protocol-relative ('//evil.com') targets are not allowed
  }
  if (url.username || url.password) return null;
  if (!url.host) return null; // 'javascript:', 'data:', 'mailto:' have no host
  // 'portal.example.com.' is another origin than 'portal.example.com' and fools suffix matching: never a target.
  // The parser has already turned '%2E' and the ideographic full stop into '.'.
  if (url.hostname.endsWith('.')) return null;
  return { protocol: url.protocol, host: url.host, path: url.pathname.replace(/\/+$/, '') };
}

function hostMatches(pattern: string, host: string): boolean {
  if (pattern.startsWith('*.')) {
    const suffix = pattern.slice(1); // '.portal.example.com'
    return host.endsWith(suffix) && host.length > suffix.length;
  }
  return host === pattern;
}

interface ParsedPattern extends ParsedTarget {
  /** `*.portal.example.com` for a wildcard entry, else the exact host. */
  hostPattern: string;
}

/** An allow-list entry read as a target; null when it cannot match anything (not an absolute URL). */
export function parsePattern(pattern: string): ParsedPattern | null {
  const wildcard = pattern.includes('://*.');
  const parsed = parseTarget(wildcard ? pattern.replace('://*.', '://wildcard.') : pattern);
  if (!parsed) return null;
  return { ...parsed, hostPattern: wildcard ? parsed.host.replace(/^wildcard\./, '*.') : parsed.host };
}

function matches(pattern: string, target: ParsedTarget): boolean {
  const parsedPattern = parsePattern(pattern);
  if (!parsedPattern || parsedPattern.protocol !== target.protocol) return false;
  const { hostPattern } = parsedPattern;
  if (!hostMatches(hostPattern, target.host)) return false;
  return WEB_SCHEMES.has(target.protocol) || parsedPattern.path === target.path;
}

export function isAllowedRedirect(raw: string | null | undefined, allowList: readonly string[]): boolean {
  if (!raw) return false;
  const target = parseTarget(raw);
  return target !== null && allowList.some((pattern) => matches(pattern, target));
}
