/**
 * The page's starter (`start.js`, a bundle of its own, without the federation runtime): the only script of the shell
 * that runs before the first frame. It holds what is pressed or sent on a prerendered page until React has it, and
 * once the page is painted it asks for the shell's scripts, all at once, and runs the entry (`data-entry` of its
 * `<script>` tag, written by the build). docs/decisions/0063-scripts-after-the-first-paint.md.
 */
import { afterFirstPaint } from './after-first-paint';
import { holdEarlyInput } from './early-input';
import { loadShell, preloadKey } from './load-shell';

const entries = document.currentScript?.getAttribute('data-entry')?.split(' ').filter(Boolean) ?? [];
holdEarlyInput();
afterFirstPaint(() => loadShell(entries, window.__PORTAL_CONFIG__?.preload?.[preloadKey(window.location.pathname)]));
