/** A full page load (spec §2: 'Cerrar Sesión' hard-navigates to /login, so the whole portal starts again). */
export function leaveTo(path: string): void {
  window.location.assign(path);
}
