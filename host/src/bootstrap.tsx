import { registerConfiguredRemotes } from './federation/remotes';
import { prerenderedRoute } from './hydration';
import { prefetchPageData } from './routes/prefetch';
import { startUp } from './session/start-up';

registerConfiguredRemotes();
const container = document.getElementById('root');
// Decided before the start-up, which takes a `?token=` out of the address (never as a session).
const prerendered = container ? prerenderedRoute(container, window.location) : null;
// Spec §4: start-up runs once, before any guard decides; it takes a `?token=` out of the address, unstored, before the
// router reads it (docs/decisions/0001-session-from-bound-sign-in-return.md).
const started = startUp();
prefetchPageData(window.location.pathname);

/**
 * React, the router and the shell's tree are evaluated in a task of their own, after this one: the start-up's
 * requests are already on their way, and the browser may paint and handle input in between instead of running one
 * long task of every module (total blocking time). In this same file's chunk: no request is added.
 */
if (container) {
  setTimeout(() => {
    void import(/* webpackMode: "eager" */ './render').then(({ renderPortal }) =>
      renderPortal(container, prerendered, started),
    );
  }, 0);
}
