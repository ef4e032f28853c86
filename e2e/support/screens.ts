// The two screen sizes the suite checks pages at, and what "fits the screen" means there.
import type { Page } from '@playwright/test';

export const PHONE = { width: 390, height: 844 } as const;
export const DESKTOP = { width: 1280, height: 800 } as const;
export const SCREENS = [PHONE, DESKTOP] as const;

export interface WidthReport {
  /** The document's width: more than the viewport means the page scrolls sideways. */
  scrollWidth: number;
  viewport: number;
  /** Elements reaching past the viewport's right edge that no scroll container (or clipping box) holds. */
  wide: string[];
}

/**
 * What sticks out of the viewport sideways: an element whose visible part (cut by any box that clips it) reaches past
 * the right edge. An element inside a box that scrolls sideways (a table's scroll container) is that box's business,
 * not the page's; elements off to the left do not widen a page.
 */
export function widthReport(page: Page): Promise<WidthReport> {
  return page.evaluate(() => {
    const viewport = document.documentElement.clientWidth;
    /** How far right the element shows, or null when a box that scrolls sideways holds it. */
    const shownRight = (element: Element): number | null => {
      let right = element.getBoundingClientRect().right;
      for (let parent = element.parentElement; parent && parent !== document.body; parent = parent.parentElement) {
        const overflow = getComputedStyle(parent).overflowX;
        if (overflow === 'auto' || overflow === 'scroll') return null;
        if (overflow === 'hidden' || overflow === 'clip') right = Math.min(right, parent.getBoundingClientRect().right);
      }
      return right;
    };
    const describe = (element: Element) => {
      const text = (element.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40);
      return `<${element.tagName.toLowerCase()}> «${text}» hasta ${Math.round(shownRight(element) ?? 0)} px`;
    };
    const wide = [...document.body.querySelectorAll('*')].filter((element) => {
      const box = element.getBoundingClientRect();
      if (box.width === 0 || box.right <= viewport + 0.5) return false;
      if (getComputedStyle(element).visibility === 'hidden') return false;
      const right = shownRight(element);
      return right !== null && right > viewport + 0.5;
    });
    // The innermost ones: a box that sticks out only because of what it holds says nothing more.
    const innermost = wide.filter((element) => !wide.some((other) => other !== element && element.contains(other)));
    return { scrollWidth: document.documentElement.scrollWidth, viewport, wide: innermost.slice(0, 10).map(describe) };
  });
}
