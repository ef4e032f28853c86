/**
 * What an administrator may store as an app's links (docs/decisions/0009-app-links-rule.md), one rule for the API
 * (which refuses the rest with these messages) and the admin form (which shows them before sending). Messages name the
 * form's labels.
 */

/** The admin form's labels of the link fields (remote-admin shows them; the API's messages name them). */
export const APP_LINK_LABELS = {
  webUrl: 'URL web',
  iosUrl: 'URL iOS',
  androidUrl: 'URL Android',
} as const;

export type AppLinkField = keyof typeof APP_LINK_LABELS;

/**
 * The deep-link schemes registered by the portal's mobile apps (spec §5: Beto Pro and Control Max), the only ones
 * besides https an app link may use: any other scheme may start a program or an Android intent on the device
 * (`ms-msdt:`, `search-ms:`, `intent:`). npm start's default redirect allow-list names the same schemes.
 */
export const APP_DEEP_LINK_SCHEMES = ['betopro', 'controlmax'] as const;

/** Whitespace, control characters (Unicode Cc) and backslashes make scheme and host ambiguous (browsers read '\' as '/'). */
const AMBIGUOUS = /[\s\\\p{Cc}]/u;
const LOOPBACK = new Set(['localhost', '127.0.0.1']);
function absolute(value: string): URL | null {
  try {
    return new URL(value);
  } catch {
    return null;
  }
}

/** `webUrl`: https (http only on localhost/127.0.0.1) or a path on the portal (`/…`, not `//`). */
function webUrlProblem(value: string): string | null {
  const problem =
    `La ${APP_LINK_LABELS.webUrl} debe empezar por https:// (http:// solo para localhost o 127.0.0.1) ` +
    'o ser una ruta del portal como /calculadora-txi';
  if (AMBIGUOUS.test(value)) return problem;
  if (value.startsWith('/')) return value.startsWith('//') ? problem : null;
  const url = absolute(value);
  if (!url?.hostname || url.username || url.password) return problem;
  if (url.protocol === 'https:') return null;
  return url.protocol === 'http:' && LOOPBACK.has(url.hostname) ? null : problem;
}

/** `iosUrl` / `androidUrl`: https (a store page, a universal link) or a registered app scheme, nothing else. */
function deepLinkProblem(field: 'iosUrl' | 'androidUrl', value: string): string | null {
  const schemes = APP_DEEP_LINK_SCHEMES.map((scheme) => `${scheme}://…`).join(' o ');
  const problem =
    `La ${APP_LINK_LABELS[field]} debe ser una dirección https:// o el enlace de la app móvil (${schemes}); ` +
    'no se admite otro esquema';
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//.exec(value)?.[1]?.toLowerCase();
  if (AMBIGUOUS.test(value) || !scheme) return problem;
  if (scheme !== 'https' && !(APP_DEEP_LINK_SCHEMES as readonly string[]).includes(scheme)) return problem;
  const url = absolute(value);
  if (!url || url.username || url.password) return problem;
  if (scheme === 'https' && !url.hostname) return problem;
  return null;
}

/** The Spanish message for a refused link, or null; empty and missing links are fine (the field is optional). */
export function appLinkProblem(field: AppLinkField, value: string | null | undefined): string | null {
  if (value === null || value === undefined || value === '') return null;
  return field === 'webUrl' ? webUrlProblem(value) : deepLinkProblem(field, value);
}

/** The first refused link among the fields given, in the form's order, or null. */
export function appLinksProblem(links: Partial<Record<AppLinkField, string | null | undefined>>): string | null {
  for (const field of Object.keys(APP_LINK_LABELS) as AppLinkField[]) {
    const problem = appLinkProblem(field, links[field]);
    if (problem) return problem;
  }
  return null;
}
