/**
 * The page of the portal a signed-out visitor asked for: a saved link (`/admin/empresas/1#puestos`), a bookmark, a
 * page whose session ended. The guard sends them to /login and the tab keeps the page; the one landing decision
 * (sign-in-landing.ts) brings them back to it instead of /apps (docs/decisions/0090-back-to-the-asked-page.md).
 */
import { forgetInTab, keepInTab, takeFromTab } from './kept-in-tab';

/** Where this tab keeps the page (sessionStorage: this tab only, gone with it). */
export const PENDING_PAGE_KEY = 'portal-page';

/** A sign-in takes minutes: an older kept page is not worth coming back to. */
export const PENDING_PAGE_TTL_MS = 60 * 60 * 1000;

/** Longer than any page of the portal with its query: anything longer is not kept. */
const MAX_LENGTH = 512;

/**
 * A path of this portal and nothing else: one leading slash (`//host` and `/\host` are other sites to a browser), no
 * control characters, no backslash. Only the guard of a signed-in page keeps one (host/src/guards/Guarded.tsx).
 */
export function isPortalPage(path: string): boolean {
  return (
    path.length <= MAX_LENGTH &&
    /^\/(?![/\\])/.test(path) &&
    // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
    !/[\u0000-\u001f\u007f\\]/.test(path)
  );
}

/**
 * Whether a page left signed out is kept: not after signing out on purpose, since the page the person was on then is
 * no page to come back to (the guard sees them signed out there before the sign-out takes them to /login).
 */
let keeping = true;

/** Keeps the page for this tab's next sign-in; the catalogue itself is where a sign-in lands anyway. */
export function storePendingPage(path: string, now: number = Date.now()): void {
  if (keeping && isPortalPage(path) && path !== '/' && path !== '/apps') keepInTab(PENDING_PAGE_KEY, { path }, now);
}

/** A sign-out on purpose: the page kept is forgotten, and none is kept until the next sign-in. */
export function forgetPendingPage(): void {
  keeping = false;
  forgetInTab(PENDING_PAGE_KEY);
}

/** A session started: a page left signed out from now on is kept again. */
export function keepPendingPages(): void {
  keeping = true;
}

/** The page this tab kept, removed as it is read; null if none, too old or not a page of the portal. */
export function takePendingPage(now: number = Date.now()): string | null {
  return takeFromTab(
    PENDING_PAGE_KEY,
    PENDING_PAGE_TTL_MS,
    ({ path }) => (typeof path === 'string' && isPortalPage(path) ? path : null),
    now,
  );
}
