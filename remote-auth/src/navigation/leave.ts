/** A full-page navigation out of the single-page app: a partner app, a deep link, the API's social sign-in. */
export function leaveTo(url: string): void {
  window.location.assign(url);
}
