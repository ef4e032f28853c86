import { PRERENDERED_ATTRIBUTE } from './prerendered-mark';

/**
 * What a person did on the prerendered page before React took it over: a press on one of its buttons, or a form sent
 * (a password manager's fill and Enter). Neither does anything without the page's scripts (a button of the page has
 * no action of its own, and a form sent by the browser only gets the page again), so the shell holds the last one and
 * does it again once React's page is on screen (docs/decisions/0060-paint-before-scripts.md). Links keep their own
 * navigation; clicks after hydration has started are React's (it replays those itself).
 */
type EarlyInput = { kind: 'press'; button: HTMLButtonElement } | { kind: 'send'; form: HTMLFormElement };

let held: EarlyInput | null = null;
let holding = false;

/** The prerendered `#root` that `target` is in, if it is still prerendered. */
function prerenderedRoot(target: EventTarget | null): HTMLElement | null {
  const root = document.getElementById('root');
  if (!root?.hasAttribute(PRERENDERED_ATTRIBUTE) || !(target instanceof Node) || !root.contains(target)) return null;
  return root;
}

function onClick(event: MouseEvent) {
  if (!prerenderedRoot(event.target) || !(event.target instanceof Element)) return;
  const button = event.target.closest('button');
  // A submit button sends its form: held as the form's submit event, below.
  if (button && button.type !== 'submit' && !button.disabled) held = { kind: 'press', button };
}

function onSubmit(event: SubmitEvent) {
  if (!prerenderedRoot(event.target) || !(event.target instanceof HTMLFormElement)) return;
  // Kept in the page: the browser's own post would reload it and lose what was typed.
  event.preventDefault();
  held = { kind: 'send', form: event.target };
}

/**
 * Enter in a field sends its form, even where the browser would not: the prerendered submit button is disabled until
 * the fields are filled, as React renders it, so the browser's own implicit submission does nothing there.
 */
function onKeyDown(event: KeyboardEvent) {
  if (event.key !== 'Enter' || !prerenderedRoot(event.target) || !(event.target instanceof HTMLInputElement)) return;
  const { form } = event.target;
  if (!form) return;
  event.preventDefault();
  held = { kind: 'send', form };
}

/** From the shell's entry on: presses and sends on the prerendered page are held. */
export function holdEarlyInput(): void {
  if (holding) return;
  holding = true;
  document.addEventListener('click', onClick, true);
  document.addEventListener('submit', onSubmit, true);
  document.addEventListener('keydown', onKeyDown, true);
}

/** The same button in `root` now: the node itself if React kept it, else the one with the same label. */
function sameButton(root: HTMLElement, button: HTMLButtonElement): HTMLButtonElement | undefined {
  if (root.contains(button)) return button;
  const label = button.textContent?.trim();
  return [...root.querySelectorAll('button')].find((candidate) => candidate.textContent?.trim() === label);
}

/** The same form in `root` now: the node itself if React kept it, else the one in the same place among its forms. */
function sameForm(root: HTMLElement, form: HTMLFormElement, index: number): HTMLFormElement | undefined {
  if (root.contains(form)) return form;
  return root.querySelectorAll('form')[index];
}

/**
 * Stops holding (React is about to own `root`, and handles what comes next) and returns what does the held input
 * again: call it once React's page is on screen, after what was typed has been handed to React. A task later, so the
 * page has rendered with those values first.
 */
export function releaseEarlyInput(root: HTMLElement): () => void {
  holding = false;
  document.removeEventListener('click', onClick, true);
  document.removeEventListener('submit', onSubmit, true);
  document.removeEventListener('keydown', onKeyDown, true);
  const input = held;
  held = null;
  if (!input) return () => undefined;
  const formIndex = input.kind === 'send' ? [...root.querySelectorAll('form')].indexOf(input.form) : -1;
  return () => {
    setTimeout(() => {
      if (input.kind === 'press') {
        const button = sameButton(root, input.button);
        if (button && !button.disabled) button.click();
      } else sameForm(root, input.form, formIndex)?.requestSubmit();
    }, 0);
  };
}
