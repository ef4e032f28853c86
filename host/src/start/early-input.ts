import { PRERENDERED_ATTRIBUTE } from './prerendered-mark';

/**
 * What a person did on the prerendered page before React took it over: a press on one of its buttons, or a form sent
 * (a password manager's fill and Enter). Neither does anything without the page's scripts (a button of the page has
 * no action of its own; the prerendered submit button is disabled until the fields are filled, as React renders it,
 * and a form the browser posts only gets the page again), so the page's starter holds the last one and the shell
 * does it again once React's page is on screen (docs/decisions/0060-paint-before-scripts.md). Links keep their own
 * navigation; input after hydration has started is React's (it replays discrete events itself).
 */
type EarlyInput = { button: HTMLButtonElement } | { form: HTMLFormElement };

const HELD_EVENTS = ['click', 'submit', 'keydown'] as const;

/**
 * The hold, from the page's starter (start.js, its own small bundle) to the shell that releases it (the entry's
 * bundle): one object on the page, under a key both bundles name alike.
 */
interface Hold {
  held: EarlyInput | null;
  listener: (event: Event) => void;
}
const HOLD = Symbol.for('portal.early-input');
type PageWithHold = typeof globalThis & { [HOLD]?: Hold };
const page = globalThis as PageWithHold;

function hold(event: Event) {
  const state = page[HOLD];
  const root = document.getElementById('root');
  const { target } = event;
  if (!state || !root?.hasAttribute(PRERENDERED_ATTRIBUTE) || !(target instanceof Element) || !root.contains(target))
    return;
  if (event.type === 'click') {
    // A submit button sends its form: held as that form's submit event or Enter.
    const button = target.closest('button');
    if (button && button.type !== 'submit' && !button.disabled) state.held = { button };
    return;
  }
  const form = target instanceof HTMLFormElement ? target : target instanceof HTMLInputElement ? target.form : null;
  if (!form || (event instanceof KeyboardEvent && event.key !== 'Enter')) return;
  // Kept in the page: the browser's own post would reload it and lose what was typed.
  event.preventDefault();
  state.held = { form };
}

/** From the page's starter on: presses and sends on the prerendered page are held (once, however often called). */
export function holdEarlyInput(): void {
  if (page[HOLD]) return;
  page[HOLD] = { held: null, listener: hold };
  for (const type of HELD_EVENTS) document.addEventListener(type, hold, true);
}

/**
 * Stops holding (React is about to own `root`, and handles what comes next) and returns what does the held input
 * again: call it once React's page is on screen, after what was typed has been handed to React; it acts a task later,
 * once the page has rendered with those values. On the same node if React kept it, else, on a page rendered anew, on
 * the button with the same label or the form in the same place.
 */
export function releaseEarlyInput(root: HTMLElement): () => void {
  const state = page[HOLD];
  delete page[HOLD];
  if (!state) return () => undefined;
  for (const type of HELD_EVENTS) document.removeEventListener(type, state.listener, true);
  const input = state.held;
  if (!input) return () => undefined;
  const forms = () => [...root.querySelectorAll('form')];
  const formIndex = 'form' in input ? forms().indexOf(input.form) : -1;
  return () => {
    setTimeout(() => {
      if ('form' in input) {
        (root.contains(input.form) ? input.form : forms()[formIndex])?.requestSubmit();
        return;
      }
      const label = input.button.textContent;
      const button = root.contains(input.button)
        ? input.button
        : [...root.querySelectorAll('button')].find((candidate) => candidate.textContent === label);
      if (button && !button.disabled) button.click();
    }, 0);
  };
}
