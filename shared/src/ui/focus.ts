import { useEffect, type KeyboardEvent as ReactKeyboardEvent, type RefObject } from 'react';

const FOCUSABLE = [
  'a[href]',
  'button:not([disabled])',
  'input:not([disabled]):not([type="hidden"])',
  'select:not([disabled])',
  'textarea:not([disabled])',
  '[tabindex]:not([tabindex="-1"])',
].join(',');

/** The elements of `root` that Tab reaches, in order (hidden ones left out). */
export function focusableIn(root: HTMLElement): HTMLElement[] {
  return Array.from(root.querySelectorAll<HTMLElement>(FOCUSABLE)).filter(
    (element) => !element.closest('[hidden], [inert]') && element.getClientRects().length > 0,
  );
}

/**
 * Keeps Tab and Shift+Tab inside `root`: from the last element to the first and back. Returns true when it moved the
 * focus itself (the event's default is then prevented).
 */
export function keepTabInside(event: KeyboardEvent | ReactKeyboardEvent, root: HTMLElement): boolean {
  if (event.key !== 'Tab') return false;
  const items = focusableIn(root);
  const active = document.activeElement as HTMLElement | null;
  if (items.length === 0) {
    event.preventDefault();
    root.focus();
    return true;
  }
  const first = items[0] as HTMLElement;
  const last = items[items.length - 1] as HTMLElement;
  const inside = active !== null && root.contains(active);
  if (event.shiftKey && (!inside || active === first || active === root)) {
    event.preventDefault();
    last.focus();
    return true;
  }
  if (!event.shiftKey && (!inside || active === last)) {
    event.preventDefault();
    first.focus();
    return true;
  }
  return false;
}

/** The element that last took the focus on the page: what opened a dialog after it lost the focus itself. */
let lastFocused: HTMLElement | null = null;
if (typeof document !== 'undefined')
  document.addEventListener(
    'focusin',
    (event) => {
      if (event.target instanceof HTMLElement) lastFocused = event.target;
    },
    true,
  );

/**
 * What a dialog opening now gives the focus back to: the focused element, or, when the focus fell to the page (its
 * button was disabled while the dialog's data was read, as a browser then blurs it), the last element that held it.
 */
export function focusOrigin(): HTMLElement | null {
  const active = document.activeElement as HTMLElement | null;
  if (active && active !== document.body) return active;
  return lastFocused?.isConnected ? lastFocused : null;
}

/** Marks the message that takes the focus a closed dialog or a removed button leaves behind (Alert's `holdsLostFocus`). */
export const LOST_FOCUS_ATTRIBUTE = 'data-lost-focus';

/**
 * Where focus goes when what held it (a dialog, a menu) closes: back to `opener` when it is still on the page and
 * focusable, else the message of the action's outcome (an Alert that `holdsLostFocus`), else the page's main
 * heading, so it never falls to <body>.
 */
export function restoreFocus(opener: HTMLElement | null): void {
  if (opener && opener !== document.body && opener.isConnected && !opener.closest('[inert]')) {
    opener.focus();
    if (document.activeElement === opener) return;
  }
  const outcome = document.querySelector<HTMLElement>(`[${LOST_FOCUS_ATTRIBUTE}]`);
  if (outcome && !outcome.closest('[inert]')) {
    outcome.focus();
    if (document.activeElement === outcome) return;
  }
  const heading = document.querySelector<HTMLElement>('main h1, h1');
  if (heading) {
    if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
    heading.focus();
  }
}

/**
 * A menu or panel opened by `button`: while `open`, Tab stays inside `panel`, Escape closes it and focus goes back to
 * the button.
 */
export function useMenuFocus(
  panel: RefObject<HTMLElement | null>,
  button: RefObject<HTMLElement | null>,
  open: boolean,
  close: () => void,
): void {
  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.preventDefault();
        close();
        button.current?.focus();
        return;
      }
      const root = panel.current;
      if (
        root &&
        event.key === 'Tab' &&
        (root.contains(document.activeElement) || document.activeElement === button.current)
      ) {
        keepTabInside(event, root);
      }
    };
    // Capture phase: before other Escape handlers (an outside-click hook) close the menu and unmount this one.
    document.addEventListener('keydown', onKey, true);
    return () => document.removeEventListener('keydown', onKey, true);
  }, [panel, button, open, close]);
}
