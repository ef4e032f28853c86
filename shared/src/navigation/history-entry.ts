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
