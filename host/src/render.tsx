import { startTransition, type ReactElement } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { useSession } from '@portal/shared';
import { preloadRemotePage } from './federation/RemotePage';
import {
  carryTypedValues,
  PRERENDERED_ATTRIBUTE,
  replayTypedValues,
  reportHydrationError,
  type PrerenderedPage,
} from './hydration';
import { portalTree } from './PortalApp';
import { releaseEarlyInput } from './start/early-input';

const router = (routes: ReactElement) => <BrowserRouter>{routes}</BrowserRouter>;

/**
 * A prerendered sign-in page (host/prerender) stays as it is until the first render can show the same page: the
 * session settled as signed out (no stored token: no request) and the page's module loaded, so nothing suspends and
 * no spinner replaces the form in between. At the bare path React then takes the markup over in place (hydration:
 * the same DOM nodes, what was typed kept); with a query, or if the remote could not be loaded or a session appeared,
 * it renders anew and replaces it, carrying over what was typed into the prerendered form meanwhile. The shell's frame
 * of a user page (a browser that keeps a session) is taken over at once.
 */
async function takeOver(root: HTMLElement, { route, hydrate, frame }: PrerenderedPage, started: Promise<void>) {
  if (frame) {
    // The shell's frame is the first render whatever the session turns out to be: taken over at once.
    const redo = releaseEarlyInput(root);
    hydrateInSlices(root, firstPageShown(root, redo));
    return;
  }
  const [, loaded] = await Promise.all([started, preloadRemotePage(route.remote, route.module)]);
  const signedOut = !useSession.getState().isAuthenticated;
  // What was pressed or sent before this point is done again on React's page (a signed-in person's is dropped).
  const redo = releaseEarlyInput(root);
  if (hydrate && loaded && signedOut) {
    hydrateInSlices(
      root,
      firstPageShown(root, () => {
        replayTypedValues(root);
        redo();
      }),
    );
  } else {
    const carry = signedOut ? carryTypedValues(root) : undefined;
    renderAnew(
      root,
      firstPageShown(root, () => {
        carry?.();
        if (signedOut) redo();
      }),
    );
  }
}

/**
 * React takes the prerendered markup over. As a transition, it hydrates in slices of a few milliseconds and lets the
 * browser handle input in between, instead of one long task that counts in total blocking time (docs/benchmarks.md):
 * the page is already painted, nothing waits on it to show.
 */
function hydrateInSlices(root: HTMLElement, onPageShown: () => void) {
  startTransition(() => {
    hydrateRoot(root, portalTree(router, onPageShown), { onRecoverableError: reportHydrationError });
  });
}

/**
 * Runs `then` once, when the first page is on screen (not on later pages, whose fields may hold the person's data),
 * and takes the prerendered mark off `root`: its markup is React's from then on (the browser suite waits for that
 * before it types, e2e/support/auth.ts `portalReady`).
 */
function firstPageShown(root: HTMLElement, then: () => void): () => void {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    then();
    root.removeAttribute(PRERENDERED_ATTRIBUTE);
  };
}

/**
 * The first render of a page with no markup to take over, also as a transition, in slices: what is on screen (the
 * splash, or the prerendered form) stays until React commits the whole page. `onPageShown`: called when a remote
 * page is on screen (PageShown).
 */
function renderAnew(root: HTMLElement, onPageShown?: () => void) {
  startTransition(() => createRoot(root).render(portalTree(router, onPageShown)));
}

/** The shell's first render into `root`: taking a prerendered page over, or rendering anew. */
export function renderPortal(root: HTMLElement, prerendered: PrerenderedPage | null, started: Promise<void>): void {
  if (prerendered) void takeOver(root, prerendered, started);
  else {
    releaseEarlyInput(root);
    renderAnew(root);
  }
}
