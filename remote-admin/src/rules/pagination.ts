import type { App, Paged } from '@portal/shared';

/** Spec §9: the user list shows up to 5 page numbers. */
export const PAGE_WINDOW = 5;

/** Spec §9: page-size options and the default. */
export const PAGE_SIZES = [10, 20, 30, 40, 50] as const;
export const DEFAULT_PAGE_SIZE = 50;

/** The Previous and Next buttons, as against a page number. */
export type PageStep = 'previous' | 'next';

/**
 * The page numbers to show around `current`: up to `size` consecutive pages, `current` centred when it can be,
 * shifted at either end so the window stays full.
 */
export function pageWindow(current: number, totalPages: number, size = PAGE_WINDOW): number[] {
  if (totalPages <= 0) return [];
  const count = Math.min(size, totalPages);
  const page = Math.min(Math.max(current, 1), totalPages);
  let start = page - Math.floor(count / 2);
  start = Math.max(1, Math.min(start, totalPages - count + 1));
  return Array.from({ length: count }, (_, i) => start + i);
}

/**
 * Spec §4: when the current page is past the last one (the list shrank), move to the last page; with no pages at all
 * stay on page 1. Answers the page to show, or `current` when it is fine.
 */
export function clampPage(current: number, totalPages: number): number {
  if (totalPages <= 0) return 1;
  return Math.min(current, totalPages);
}

/**
 * The pages the numbers can offer: `totalPages`, or, when the total stopped at its cap, also the page on screen and
 * the next one while there are more rows (every row stays reachable, page by page).
 */
export function reachablePages(totalPages: number, page: number, capped: boolean, hasNextPage: boolean): number {
  if (!capped) return totalPages;
  return Math.max(totalPages, page + (hasNextPage ? 1 : 0));
}

/** Spec §9: a new app is appended to the end of the list shown; the count of pages follows the new total. */
export function appended(list: Paged<App>, app: App, limit: number): Paged<App> {
  const total = list.total + 1;
  const totalPages = Math.ceil(total / limit);
  return {
    ...list,
    data: [...list.data, app],
    total,
    totalPages,
    count: list.count + 1,
    hasNextPage: list.currentPage < totalPages,
  };
}
