/**
 * Start-time check of a redirect allow-list, the one owner of the rule for every process that reads one: the API's
 * configuration (`api/src/config.ts`) and `npm start` / `scripts/serve.mjs`, which serve it to the browser
 * (`scripts/lib/parts.mjs`). Not exported from the package's index: the browser never needs it, and the Public Suffix
 * List would weigh on every page. The matching itself is `allow-list.ts`.
 *
 * A `*.D` entry hands tokens to every host under D, so D must be known to belong to the portal's operator
 * (docs/decisions/0004-redirect-wildcards-own-domains-only.md):
 * - D is the host of the portal's or the API's own public address (PORTAL_URL, API_PUBLIC_URL), or under it; or
 * - D is, or is under, a domain the operator names in REDIRECT_WILDCARD_DOMAINS.
 * Nothing else: the Public Suffix List cannot tell that anyone may create a host under devtunnels.ms, loca.lt or
 * amazonaws.com, so "not a public suffix" proves nothing. A public suffix (its private section included, `tldts`'s
 * copy) is refused even when named. An exact host under any of them (a dev tunnel of one's own) is fine.
 *
 * A trailing dot ('https://*.devtunnels.ms.') is refused with its own message: the dotted name is another origin,
 * and the matcher never lets it match.
 */
import { getPublicSuffix } from 'tldts';
import { parsePattern } from './allow-list.ts';

/** What vouches for a wildcard's domain. Omitted: nothing does, and every wildcard is refused. */
export interface AllowListContext {
  /** The portal's and the API's public addresses (PORTAL_URL, API_PUBLIC_URL). */
  ownUrls: readonly string[];
  /** REDIRECT_WILDCARD_DOMAINS: domains the operator declares its own. */
  wildcardDomains: readonly string[];
}

const NOTHING_VOUCHES: AllowListContext = { ownUrls: [], wildcardDomains: [] };

const DOMAIN = /^(?!-)[a-z0-9-]{1,63}(\.(?!-)[a-z0-9-]{1,63})*$/;

function isPublicSuffix(domain: string): boolean {
  const suffix = getPublicSuffix(domain, { allowPrivateDomains: true, validateHostname: false });
  return suffix === null || suffix === domain;
}

function isUnder(domain: string, parent: string): boolean {
  return domain === parent || domain.endsWith(`.${parent}`);
}

function ownHosts(ownUrls: readonly string[]): string[] {
  return ownUrls.flatMap((raw) => {
    try {
      const { hostname } = new URL(raw);
      return hostname && !hostname.endsWith('.') ? [hostname] : [];
    } catch {
      return [];
    }
  });
}

/** Whether a written host (any scheme, port or path around it) ends in a dot. */
function hasTrailingDot(entry: string): boolean {
  try {
    return new URL(entry.replace('://*.', '://wildcard.')).hostname.endsWith('.');
  } catch {
    return false;
  }
}

/** Why a REDIRECT_WILDCARD_DOMAINS entry is refused, in Spanish and naming it, or null when it is fine. */
export function wildcardDomainProblem(domain: string): string | null {
  if (domain.endsWith('.')) {
    return `contiene "${domain}": termina en punto; escríbelo sin el punto final (${domain.replace(/\.+$/, '')})`;
  }
  if (!DOMAIN.test(domain) || /^[\d.]+$/.test(domain)) {
    return `contiene "${domain}", que no es un dominio (escribe solo el nombre, p. ej. apps.example.com)`;
  }
  if (isPublicSuffix(domain)) {
    return (
      `contiene "${domain}", un sufijo público en el que cualquiera puede crear direcciones: ` +
      'no puede ser un dominio propio'
    );
  }
  return null;
}

/** Every problem of REDIRECT_WILDCARD_DOMAINS, one message per refused domain. */
export function wildcardDomainProblems(domains: readonly string[]): string[] {
  return domains.map(wildcardDomainProblem).filter((problem): problem is string => problem !== null);
}

const WILDCARD_ONLY_FIRST = 'el comodín solo puede ir al principio del host (https://*.dominio)';

/** Why an entry is refused, in Spanish and naming it, or null when it is fine. */
export function allowListEntryProblem(entry: string, context: AllowListContext = NOTHING_VOUCHES): string | null {
  if (hasTrailingDot(entry)) {
    return `contiene "${entry}": el host termina en punto, que es otra dirección; escríbelo sin el punto final`;
  }
  const parsed = parsePattern(entry);
  if (!parsed) {
    return `contiene "${entry}", que no es una dirección válida (https://host, https://*.dominio o esquema://ruta)`;
  }
  if (entry.includes('*') && !parsed.hostPattern.startsWith('*.')) return `contiene "${entry}": ${WILDCARD_ONLY_FIRST}`;
  if (!parsed.hostPattern.startsWith('*.')) return null;
  const base = parsed.hostPattern.slice(2).replace(/:\d+$/, '');
  if (base.includes('*')) return `contiene "${entry}": ${WILDCARD_ONLY_FIRST}`;
  const example = `el host exacto (p. ej. ${parsed.protocol}//mi-host.${base})`;
  if (isPublicSuffix(base)) {
    return (
      `contiene "${entry}": "${base}" es un dominio en el que cualquiera puede crear direcciones (sufijo público), ` +
      `así que el portal entregaría sesiones a desconocidos; escribe ${example}`
    );
  }
  const vouchedFor = [...ownHosts(context.ownUrls), ...context.wildcardDomains];
  if (vouchedFor.some((domain) => isUnder(base, domain))) return null;
  return (
    `contiene "${entry}": un comodín solo vale bajo el host del portal o de la API, o bajo un dominio nombrado en ` +
    `REDIRECT_WILDCARD_DOMAINS; "${base}" puede ser un dominio en el que cualquiera puede crear direcciones, ` +
    `así que el portal entregaría sesiones a desconocidos. Escribe ${example}, ` +
    `o, si "${base}" es tuyo, nómbralo en REDIRECT_WILDCARD_DOMAINS`
  );
}

/** Every problem of a list, one message per refused entry (empty when the list is fine). */
export function allowListProblems(entries: readonly string[], context: AllowListContext = NOTHING_VOUCHES): string[] {
  return entries
    .map((entry) => allowListEntryProblem(entry, context))
    .filter((problem): problem is string => problem !== null);
}
