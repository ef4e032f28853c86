/**
 * What a tab keeps for its next sign-in (an invitation link, a device's page, the page a signed-out visitor asked for):
 * in sessionStorage, this tab only and gone with it, stamped with when it was kept, and read once.
 */

/** Keeps `value` under `key`; without storage nothing is kept (the person opens the link again after signing in). */
export function keepInTab(key: string, value: object, now: number = Date.now()): void {
  try {
    sessionStorage.setItem(key, JSON.stringify({ ...value, at: now }));
  } catch {
    // No storage: nothing kept.
  }
}

/** Forgets what `key` kept. */
export function forgetInTab(key: string): void {
  try {
    sessionStorage.removeItem(key);
  } catch {
    // Nothing kept, nothing to forget.
  }
}

/**
 * What `key` kept, removed as it is read: null if nothing, older than `ttlMs`, or not what `valid` accepts (storage
 * is the page's to write: anything may be there).
 */
export function takeFromTab<T>(
  key: string,
  ttlMs: number,
  valid: (kept: Record<string, unknown>) => T | null,
  now: number = Date.now(),
): T | null {
  let raw: string | null = null;
  try {
    raw = sessionStorage.getItem(key);
    sessionStorage.removeItem(key);
  } catch {
    return null;
  }
  if (!raw) return null;
  try {
    const kept = JSON.parse(raw) as unknown;
    if (typeof kept !== 'object' || kept === null) return null;
    const { at } = kept as { at?: unknown };
    const fresh = typeof at === 'number' && now - at >= 0 && now - at < ttlMs;
    return fresh ? valid(kept as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
