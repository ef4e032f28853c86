/**
 * The setup link's secret (docs/decisions/0105-company-setup-link.md, 0112): it arrives in the address's fragment
 * (`/configurar-empresa#cfg_…`), which no server, log or referrer receives. The page takes it off the address bar at
 * once and keeps it for this tab only (sessionStorage: gone when the tab closes, never sent by the browser), so a
 * reload and the return from 'Probar conexión' still open the page.
 */
const KEY = 'portal.configurar-empresa';
const SHAPE = /^cfg_[A-Za-z0-9_-]{43}$/;

function tabStorage(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

/** The secret in the address's fragment, else the one this tab kept; null when neither is a link's secret. */
export function readSetupSecret(): string | null {
  const fromAddress = window.location.hash.replace(/^#/, '');
  if (SHAPE.test(fromAddress)) return fromAddress;
  const kept = tabStorage()?.getItem(KEY) ?? null;
  return kept && SHAPE.test(kept) ? kept : null;
}

/**
 * Keeps the secret for this tab and takes the fragment (and a test's sealed result, `?prueba=`) off the address bar,
 * and so out of the history.
 */
export function keepSetupSecret(secret: string): void {
  try {
    tabStorage()?.setItem(KEY, secret);
  } catch {
    // Storage full or refused: the page works in memory until it is reloaded.
  }
  if (window.location.hash || window.location.search) {
    window.history.replaceState(window.history.state, '', window.location.pathname);
  }
}

/** The sealed result 'Probar conexión' came back with (`?prueba=…`), read before the address is cleaned. */
export function readTestResult(): string | null {
  return new URLSearchParams(window.location.search).get('prueba');
}

/** Forgets a secret the API does not know (401): a reload then says the link is not valid. */
export function forgetSetupSecret(): void {
  tabStorage()?.removeItem(KEY);
}
