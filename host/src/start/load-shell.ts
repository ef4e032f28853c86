import type { RuntimeConfig } from '@portal/shared';

/** What a prerendered page loads once painted: the runtime config's `preload` for its path (the static server's). */
export type PagePreload = NonNullable<RuntimeConfig['preload']>[string];

/**
 * Starts the shell on a painted page: asks at once for everything the page will run (its entry, the start-up files,
 * the remote's manifest and files: the runtime config's `preload` for this path, when the server gives one), then runs
 * the entry. Without a list (another server, a path of no prerendered page) only the entry is asked for, and it asks
 * for the rest itself, one step after another.
 */
export function loadShell(entries: readonly string[], preload: PagePreload | undefined, doc: Document = document) {
  const preloadLink = (href: string, as: 'script' | 'fetch') => {
    const link = doc.createElement('link');
    link.rel = 'preload';
    link.setAttribute('as', as);
    link.href = href;
    // As the federation runtime fetches the manifest: without credentials, so the answer is reused.
    if (as === 'fetch') link.crossOrigin = 'anonymous';
    doc.head.append(link);
  };
  if (preload?.manifest) preloadLink(preload.manifest, 'fetch');
  // The entry is in the list too: its preload is what the script below runs, fetched once.
  for (const href of preload?.scripts ?? []) preloadLink(href, 'script');
  for (const src of entries) {
    const script = doc.createElement('script');
    script.src = src;
    // Run in the order given, as the deferred scripts they replace.
    script.async = false;
    doc.head.append(script);
  }
}

/** The page's path as the runtime config's `preload` names it: no trailing slash, `/` for the root. */
export const preloadKey = (pathname: string) => pathname.replace(/\/+$/, '') || '/';
