import { releaseEarlyInput } from './start/early-input';

// The shell's entry, run by the page's starter once the page is painted (start/start.ts). The async boundary lets
// module federation negotiate the shared singletons before any of them is used.
import(/* webpackChunkName: "bootstrap" */ './bootstrap').catch(() => {
  // The shell could not start: the page's forms go back to what the browser does without scripts.
  const root = document.getElementById('root');
  if (root) releaseEarlyInput(root);
});
