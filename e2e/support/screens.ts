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
 * What sticks out of the viewport sideways. An element inside a box that scrolls or clips horizontally (a table's
 * scroll container, a carousel) is that box's business, not the page's; elements off to the left do not widen a page.
 */
export function widthReport(page: Page): Promise<WidthReport> {
  return page.evaluate(() => {
    const viewport = document.documentElement.clientWidth;
    const holds = (element: Element) => /auto|scroll|hidden|clip/.test(getComputedStyle(element).overflowX);
    const held = (element: Element) => {
      for (let parent = element.parentElement; parent && parent !== document.body; parent = parent.parentElement) {
        if (holds(parent)) return true;
      }
      return false;
    };
    const describe = (element: Element) => {
      const text = (element.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40);
      const right = Math.round(element.getBoundingClientRect().right);
      return `<${element.tagName.toLowerCase()}> «${text}» hasta ${right} px`;
    };
    const wide = [...document.body.querySelectorAll('*')].filter((element) => {
      const box = element.getBoundingClientRect();
      if (box.width === 0 || box.right <= viewport + 0.5) return false;
      if (getComputedStyle(element).visibility === 'hidden') return false;
      return !held(element);
    });
    // The innermost ones: a box that sticks out only because of what it holds says nothing more.
    const innermost = wide.filter((element) => !wide.some((other) => other !== element && element.contains(other)));
    return { scrollWidth: document.documentElement.scrollWidth, viewport, wide: innermost.slice(0, 10).map(describe) };
  });
}
