import { afterFirstFrame } from './start/after-first-frame';
import { holdEarlyInput, releaseEarlyInput } from './start/early-input';

// What is pressed or sent on the prerendered page before React takes it over is done once it has.
holdEarlyInput();
// The async boundary lets module federation negotiate the shared singletons before any of them is used; it is entered
// after the first frame, so the page is painted before the shell's scripts run.
afterFirstFrame(() => {
  import(/* webpackChunkName: "bootstrap" */ './bootstrap').catch(() => {
    // The shell could not start: the page's forms go back to what the browser does without scripts.
    const root = document.getElementById('root');
    if (root) releaseEarlyInput(root);
  });
});
