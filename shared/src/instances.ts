/**
 * Counts how many copies of a module were evaluated in this page. Module federation must share @portal/shared as a
 * singleton (two copies would mean two session stores); the browser suite asserts each count is 1 once the host and
 * a remote are both on screen.
 */
export function registerInstance(name: string): void {
  if (typeof window === 'undefined') return;
  const global = window as unknown as { __PORTAL_INSTANCES__?: Record<string, number> };
  global.__PORTAL_INSTANCES__ ??= {};
  const registry = global.__PORTAL_INSTANCES__;
  registry[name] = (registry[name] ?? 0) + 1;
}
