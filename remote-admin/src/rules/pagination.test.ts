import type { App, Paged } from '@portal/shared';
import { appended, clampPage, pageWindow, reachablePages } from './pagination';

describe('pageWindow: up to 5 page numbers around the current page', () => {
  it('shows every page when there are 5 or fewer', () => {
    expect(pageWindow(1, 1)).toEqual([1]);
    expect(pageWindow(2, 3)).toEqual([1, 2, 3]);
    expect(pageWindow(5, 5)).toEqual([1, 2, 3, 4, 5]);
  });

  it('centres the current page in a window of 5', () => {
    expect(pageWindow(6, 20)).toEqual([4, 5, 6, 7, 8]);
  });

  it('keeps the window full at the start and at the end', () => {
    expect(pageWindow(1, 20)).toEqual([1, 2, 3, 4, 5]);
    expect(pageWindow(2, 20)).toEqual([1, 2, 3, 4, 5]);
    expect(pageWindow(19, 20)).toEqual([16, 17, 18, 19, 20]);
    expect(pageWindow(20, 20)).toEqual([16, 17, 18, 19, 20]);
  });

  it('shows nothing when there are no pages', () => {
    expect(pageWindow(1, 0)).toEqual([]);
  });
});

describe('clampPage: a page past the end moves to the last page', () => {
  it('moves to the last page when the list shrank', () => {
    expect(clampPage(7, 3)).toBe(3);
  });

  it('leaves a page that exists alone, and stays on 1 with no pages', () => {
    expect(clampPage(2, 3)).toBe(2);
    expect(clampPage(3, 0)).toBe(1);
  });
});

describe('appended: a created app joins the end of the list shown', () => {
  const app = (id: number) => ({ id, nombre: `App ${id}` }) as App;
  const list = (ids: number[], total: number, currentPage: number): Paged<App> =>
    ({
      data: ids.map(app),
      total,
      totalPages: Math.ceil(total / 10),
      count: ids.length,
      currentPage,
      hasNextPage: false,
    }) as Paged<App>;

  it('adds the app and counts it, and a tenth-plus-one app opens a second page', () => {
    const after = appended(list([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 10, 1), app(11), 10);
    expect(after.data.map((a) => a.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    expect(after).toMatchObject({ total: 11, totalPages: 2, count: 11, hasNextPage: true });
  });

  it('stays on one page while the total fits', () => {
    expect(appended(list([1], 1, 1), app(2), 10)).toMatchObject({ total: 2, totalPages: 1, hasNextPage: false });
  });
});

describe('reachablePages', () => {
  it('is the page count when the total is exact', () => {
    expect(reachablePages(20, 20, false, false)).toBe(20);
    expect(reachablePages(20, 3, false, true)).toBe(20);
  });

  it('goes past a capped count: the page on screen and the next one while rows remain', () => {
    expect(reachablePages(20, 20, true, true)).toBe(21);
    expect(reachablePages(20, 21, true, true)).toBe(22);
    expect(reachablePages(20, 24, true, false)).toBe(24);
    expect(reachablePages(20, 3, true, true)).toBe(20);
  });
});
