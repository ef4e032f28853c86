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

/** The history entries a sign-in's landing has acted from, by key. */
const landedFrom = new Set<string>();

/**
 * Takes the landing from the entry `key`: true the first time only. Two parts decide a sign-in's landing from the same
 * entry, the sign-in page that finished it and the shell's guest guard that sees the session start; whichever acts
 * first takes it, so the tab navigates once (two navigations would each fetch a partner token, the second replacing
 * the page the first had opened).
 */
export function claimLanding(key: string): boolean {
  if (landedFrom.has(key)) return false;
  landedFrom.add(key);
  return true;
}

/** Forgets every landing taken: a page load starts with none; tests, which sign in many times in one page, too. */
export function forgetLandings(): void {
  landedFrom.clear();
}
