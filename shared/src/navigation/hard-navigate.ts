/** A full page load to a path of the portal (after a 401 the whole app starts again, anonymous). */
export function hardNavigate(path: string): void {
  if (window.location.pathname !== path) window.location.assign(path);
}
