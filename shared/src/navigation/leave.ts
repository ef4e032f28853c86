/**
 * A full page load out of the single-page app: a partner app, a deep link, the API's social sign-in, or the portal's
 * own /login when the whole app must start again (spec §2: 'Cerrar Sesión' hard-navigates). Tests mock this one
 * function (jsdom cannot load pages).
 */
export function leaveTo(url: string): void {
  window.location.assign(url);
}

/** A full page load to a path of the portal, unless it is already there (after a 401 the app starts again, anonymous). */
export function hardNavigate(path: string): void {
  if (window.location.pathname !== path) leaveTo(path);
}

/** A full page load that replaces this entry of the tab's history (Back does not come here again). Tests mock it. */
export function replaceWith(url: string): void {
  window.location.replace(url);
}

/**
 * Whether the tab still shows the history entry whose location had `key` (react-router's `location.key`, kept in
 * `history.state`; the tab's first entry has none and is 'default'). Work that ends later than the screen it started
 * on (a sign-in's landing waits for the session and sometimes the API) acts only if the person is still there: after
 * a Back or another page meanwhile, a `replace` would overwrite the entry they went to.
 */
export function stillOn(key: string): boolean {
  const state = window.history.state as { key?: unknown; idx?: unknown } | null;
  // Only the browser's router keeps its entries there, each with its index; under another router nothing tells.
  if (typeof state?.idx !== 'number') return true;
  return (typeof state.key === 'string' ? state.key : 'default') === key;
}
