import { matchPath } from 'react-router-dom';
import { readToken } from '@portal/shared';
import { ROUTES, type PortalRoute } from './routes/route-table';
import { PRERENDERED_ATTRIBUTE } from './start/prerendered-mark';

export { PRERENDERED_ATTRIBUTE };

/** A prerendered page the browser's first render takes over, and whether it hydrates it (hydration.ts). */
export interface PrerenderedPage {
  route: PortalRoute;
  hydrate: boolean;
  /**
   * The shell's frame of a user or admin page (the top bar and 'Cargando...', what the static server answers a
   * browser that keeps a session): the first render whatever the session turns out to be, so React takes it over at
   * once, without waiting for the session or the page's module.
   */
  frame: boolean;
}

/**
 * What the first render does with the markup in `#root`: null when it is not the prerendered markup of this address
 * (the 'Portal' mark, another path, or a sign-in page while a session is stored, which the guest guard sends on:
 * render at once). A sign-in page's markup can be hydrated at its bare path only: an address with a query (`?error=`
 * adds a notice, `?redirect_url=` changes the links) renders anew in its place, once ready. A frame is hydrated at any
 * address its route matches ('/apps/:id' for /apps/7?redirect_url=…): nothing in it depends on either.
 */
export function prerenderedRoute(
  container: Element,
  location: Pick<Location, 'pathname' | 'search'>,
): PrerenderedPage | null {
  const path = container.getAttribute(PRERENDERED_ATTRIBUTE);
  const route = path ? ROUTES.find((candidate) => candidate.path === path) : undefined;
  if (!route) return null;
  if (route.guard !== 'guest')
    return matchPath(route.path, location.pathname) ? { route, hydrate: true, frame: true } : null;
  if (path !== location.pathname || readToken()) return null;
  return { route, hydrate: location.search === '', frame: false };
}

/** Hydration problems are logged, never silent: the browser suite fails on them (e2e/tests/prerender.spec.ts). */
export function reportHydrationError(error: unknown, info: { componentStack?: string }): void {
  console.error('Error de hidratación', error, info.componentStack ?? '');
}

/** Fields whose value the person types, not choices (a checkbox, a file) or hidden data. */
const TYPED = 'input:not([type=checkbox]):not([type=radio]):not([type=hidden]):not([type=file]), textarea';

/**
 * Gives `field` the value `typed` as an input event React reads: its value tracker is reset first (through React's own
 * `value` setter), then the value is written past it, so the change is seen and the page's `onChange` runs.
 */
function retype(field: HTMLInputElement | HTMLTextAreaElement, typed: string): void {
  const prototype = field instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
  const write = Object.getOwnPropertyDescriptor(prototype, 'value')?.set;
  if (!write) return;
  field.value = '';
  write.call(field, typed);
  field.dispatchEvent(new Event('input', { bubbles: true }));
}

function typedFields(container: Element): (HTMLInputElement | HTMLTextAreaElement)[] {
  return [...container.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>(TYPED)];
}

/**
 * Hands React what was typed into the prerendered form before the scripts ran. Hydration keeps those values on
 * screen, but the page's state still holds the server's empty fields, and its next render would empty them again.
 * Each field with a value (a prerendered form is empty) gets it again (`retype`).
 */
export function replayTypedValues(container: Element): void {
  for (const field of typedFields(container)) if (field.value !== '') retype(field, field.value);
}

/** The same field in a form rendered anew: same kind, same purpose. */
const sameField = (before: Element, after: Element) =>
  before.tagName === after.tagName &&
  before.getAttribute('type') === after.getAttribute('type') &&
  before.getAttribute('autocomplete') === after.getAttribute('autocomplete');

/**
 * A prerendered form that is rendered anew (an address with a query: hydration.ts `prerenderedRoute`) is replaced by
 * React's own once the page is ready, and the person may have typed into it meanwhile (with the first
 * render in slices, that can be a second on a slow phone). Call this before the render: it keeps the prerendered
 * fields, which hold what is typed until the moment they leave the page, and notes which one had the focus. The
 * function it returns, called once React's page is on screen, types each value into the same field of the new form
 * (only if that form has the same fields, and only into a field still empty) and puts the focus back where it was.
 */
export function carryTypedValues(container: Element): () => void {
  const before = typedFields(container);
  const targets: readonly (EventTarget | null)[] = before;
  let focused = targets.indexOf(document.activeElement);
  const onFocus = (event: Event) => {
    const index = targets.indexOf(event.target);
    if (index >= 0) focused = index;
  };
  container.addEventListener('focusin', onFocus);
  let carried = false;
  return () => {
    if (carried) return;
    carried = true;
    container.removeEventListener('focusin', onFocus);
    const after = typedFields(container);
    const pairs = before.flatMap((old, index) => {
      const fresh = after[index];
      return fresh && sameField(old, fresh) ? [{ old, fresh }] : [];
    });
    if (pairs.length !== before.length || after.length !== before.length) return;
    for (const { old, fresh } of pairs)
      if (old.value !== '' && fresh.value === '' && fresh !== old) retype(fresh, old.value);
    const lost = document.activeElement === null || document.activeElement === document.body;
    const refocus = pairs[focused]?.fresh;
    if (lost && refocus && refocus !== before[focused]) refocus.focus();
  };
}
