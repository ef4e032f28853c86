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
