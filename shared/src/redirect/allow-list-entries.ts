/**
 * Start-time check of a redirect allow-list (issue 13 item 2), the one owner of the rule for every process that
 * reads one: the API's configuration (`api/src/config.ts`) and `npm start` / `scripts/serve.mjs`, which serve it to
 * the browser (`scripts/lib/parts.mjs`). Not exported from the package's index: the browser never needs it, and the
 * Public Suffix List would weigh on every page.
 *
 * A `*.` entry hands tokens to every host under its base, so the base must belong to one owner: a public suffix,
 * including the private section of the Public Suffix List (devtunnels.ms, ngrok-free.app, vercel.app, github.io…,
 * where anyone can create a host), is refused. An exact host under such a suffix (a dev tunnel of one's own) is fine.
 * The list is `tldts`'s copy of the Public Suffix List, kept up to date by its maintainers.
 */
import { getPublicSuffix } from 'tldts';
import { parsePattern } from './allow-list.ts';

/**
 * Shared hosting the Public Suffix List does not name (yet): Microsoft's dev tunnels hand out
 * `<id>-<port>.<region>.devtunnels.ms` to anyone, but `devtunnels.ms` is not on the list (tldts 7.5 counts `ms`
 * as its suffix). The issue names it, so it is refused with everything under it; add a domain here only for that
 * reason, and drop it once the list has it.
 */
const SHARED_HOSTING_OFF_THE_LIST = ['devtunnels.ms'];

function anyoneCanCreateUnder(base: string): boolean {
  const suffix = getPublicSuffix(base, { allowPrivateDomains: true, validateHostname: false });
  if (suffix === null || suffix === base) return true;
  return SHARED_HOSTING_OFF_THE_LIST.some((domain) => base === domain || base.endsWith(`.${domain}`));
}

/** Why an entry is refused, in Spanish and naming it, or null when it is fine. */
export function allowListEntryProblem(entry: string): string | null {
  const parsed = parsePattern(entry);
  if (!parsed) {
    return `contiene "${entry}", que no es una dirección válida (https://host, https://*.dominio o esquema://ruta)`;
  }
  if (entry.includes('*') && !parsed.hostPattern.startsWith('*.')) {
    return `contiene "${entry}": el comodín solo puede ir al principio del host (https://*.dominio)`;
  }
  if (!parsed.hostPattern.startsWith('*.')) return null;
  const base = parsed.hostPattern.slice(2).replace(/:\d+$/, '');
  if (parsed.hostPattern.slice(2).includes('*')) {
    return `contiene "${entry}": el comodín solo puede ir al principio del host (https://*.dominio)`;
  }
  if (anyoneCanCreateUnder(base)) {
    return (
      `contiene "${entry}": "${base}" es un dominio en el que cualquiera puede crear direcciones (sufijo público), ` +
      `así que el portal entregaría sesiones a desconocidos; escribe el host exacto (p. ej. ${parsed.protocol}//mi-host.${base})`
    );
  }
  return null;
}

/** Every problem of a list, one message per refused entry (empty when the list is fine). */
export function allowListProblems(entries: readonly string[]): string[] {
  return entries.map(allowListEntryProblem).filter((problem): problem is string => problem !== null);
}
