import type { ReactElement } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { useSession } from '@portal/shared';
import { preloadRemotePage } from './federation/RemotePage';
import { registerConfiguredRemotes } from './federation/remotes';
import { prerenderedRoute, replayTypedValues, reportHydrationError } from './hydration';
import { portalTree } from './PortalApp';
import { prefetchPageData } from './routes/prefetch';
import { startUp } from './session/start-up';

registerConfiguredRemotes();
const container = document.getElementById('root');
// Decided before the start-up, which takes a `?token=` out of the address.
const prerendered = container ? prerenderedRoute(container, window.location) : null;
// Spec §4: start-up runs once, before any guard decides; it takes a `?token=` out of the address before the router
// reads it (issue 17).
const started = startUp();
prefetchPageData(window.location.pathname);

const router = (routes: ReactElement) => <BrowserRouter>{routes}</BrowserRouter>;

/**
 * A prerendered sign-in page (host/prerender) stays as it is until the first render can show the same page: the
 * session settled as signed out (no stored token: no request) and the page's module loaded, so nothing suspends and
 * no spinner replaces the form in between. At the bare path React then takes the markup over in place (hydration:
 * the same DOM nodes, what was typed kept); with a query, or if the remote could not be loaded or a session appeared,
 * it renders anew and replaces it.
 */
async function takeOver(root: HTMLElement, { route, hydrate }: NonNullable<typeof prerendered>) {
  const [, loaded] = await Promise.all([started, preloadRemotePage(route.remote, route.module)]);
  if (hydrate && loaded && !useSession.getState().isAuthenticated) {
    let replayed = false;
    // Once, when the page itself is hydrated (not on later pages, whose fields may hold the person's data).
    const onPageShown = () => {
      if (replayed) return;
      replayed = true;
      replayTypedValues(root);
    };
    hydrateRoot(root, portalTree(router, onPageShown), { onRecoverableError: reportHydrationError });
  } else {
    createRoot(root).render(portalTree(router));
  }
}

if (container) {
  if (prerendered) void takeOver(container, prerendered);
  else createRoot(container).render(portalTree(router));
}
