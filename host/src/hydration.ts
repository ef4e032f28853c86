import { readToken } from '@portal/shared';
import { ROUTES, type PortalRoute } from './routes/route-table';

/** The attribute of `#root` that names the path its markup was prerendered for (host/prerender). */
export const PRERENDERED_ATTRIBUTE = 'data-prerendered';

/**
 * What the first render does with the markup in `#root`: null when it is no prerendered page a signed-out person
 * sees here (the 'Portal' mark, another path, or a stored session, which the guest guard sends on: render at once).
 * Otherwise the route, and whether its markup can be hydrated: it is the page at the bare path, so an address with a
 * query (`?error=` adds a notice, `?redirect_url=` changes the links) renders anew in its place, once ready.
 */
export function prerenderedRoute(
  container: Element,
  location: Pick<Location, 'pathname' | 'search'>,
): { route: PortalRoute; hydrate: boolean } | null {
  const path = container.getAttribute(PRERENDERED_ATTRIBUTE);
  if (!path || path !== location.pathname || readToken()) return null;
  const route = ROUTES.find((candidate) => candidate.path === path);
  return route ? { route, hydrate: location.search === '' } : null;
}

/** Hydration problems are logged, never silent: the browser suite fails on them (e2e/tests/prerender.spec.ts). */
export function reportHydrationError(error: unknown, info: { componentStack?: string }): void {
  console.error('Error de hidratación', error, info.componentStack ?? '');
}

/** Fields whose value the person types, not choices (a checkbox, a file) or hidden data. */
const TYPED = 'input:not([type=checkbox]):not([type=radio]):not([type=hidden]):not([type=file]), textarea';

/**
 * Hands React what was typed into the prerendered form before the scripts ran. Hydration keeps those values on
 * screen, but the page's state still holds the server's empty fields, and its next render would empty them again.
 * Each field with a value (a prerendered form is empty) gets it again as an input event React reads: its value
 * tracker is reset first (through React's own `value` setter), then the value is written past it, so the change is
 * seen and the page's `onChange` runs.
 */
export function replayTypedValues(container: Element): void {
  for (const field of container.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>(TYPED)) {
    const typed = field.value;
    if (typed === '') continue;
    const prototype = field instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
    const write = Object.getOwnPropertyDescriptor(prototype, 'value')?.set;
    if (!write) continue;
    field.value = '';
    write.call(field, typed);
    field.dispatchEvent(new Event('input', { bubbles: true }));
  }
}
