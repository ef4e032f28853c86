import { initialListState, listReducer, selectionEnabled, toQuery, type ListState } from './list-state';

const onPage3: ListState = { ...initialListState, page: 3 };

describe('the user list state (spec §4)', () => {
  it('starts on page 1 with 50 a page and no filters', () => {
    expect(toQuery(initialListState)).toEqual({ page: 1, limit: 50, email: undefined, status: undefined });
  });

  it('goes back to page 1 when the page size changes', () => {
    expect(listReducer(onPage3, { type: 'limit', limit: 20 })).toMatchObject({ page: 1, limit: 20 });
  });

  it('goes back to page 1 when the status filter changes', () => {
    expect(listReducer(onPage3, { type: 'status', status: 'suspended' })).toMatchObject({
      page: 1,
      status: 'suspended',
    });
  });

  it('applies the typed email only on Search, and then goes back to page 1', () => {
    const typed = listReducer(onPage3, { type: 'typeEmail', value: ' ana@ ' });
    expect(typed).toMatchObject({ page: 3, email: '' });
    expect(listReducer(typed, { type: 'search' })).toMatchObject({ page: 1, email: 'ana@' });
  });

  it('moves to the last page when the current one is past the end', () => {
    const answer = { type: 'loaded', totalPages: 4, nextCursor: null, prevCursor: null } as const;
    expect(listReducer({ ...initialListState, page: 7 }, { ...answer, page: 7 }).page).toBe(4);
    expect(listReducer(onPage3, { ...answer, page: 3 }).page).toBe(3);
  });

  it('keeps a page past a capped count: the rows past the cap are there', () => {
    const onPage21 = listReducer(
      { ...initialListState, page: 21, cursor: { after: 'fin-20' } },
      { type: 'loaded', totalPages: 20, totalCapped: true, page: 21, nextCursor: 'fin-21', prevCursor: 'inicio-21' },
    );
    expect(onPage21).toMatchObject({ page: 21, cursor: { after: 'fin-20' } });
    expect(toQuery(listReducer(onPage21, { type: 'step', step: 'next' }))).toEqual({
      page: 22,
      limit: 50,
      after: 'fin-21',
    });
  });

  describe('Next and Previous', () => {
    const loaded = (state: ListState, nextCursor: string | null, prevCursor: string | null) =>
      listReducer(state, { type: 'loaded', totalPages: 9, page: state.page, nextCursor, prevCursor });
    const page3Shown = loaded(onPage3, 'fin-3', 'inicio-3');

    it('ask for the page beside with the cursor of the page on screen', () => {
      expect(toQuery(listReducer(page3Shown, { type: 'step', step: 'next' }))).toEqual({
        page: 4,
        limit: 50,
        after: 'fin-3',
      });
      expect(toQuery(listReducer(page3Shown, { type: 'step', step: 'previous' }))).toEqual({
        page: 2,
        limit: 50,
        before: 'inicio-3',
      });
    });

    it('ask by number while the page asked for is not on screen yet, or its answer gave no cursor', () => {
      const onPage4 = listReducer(page3Shown, { type: 'step', step: 'next' });
      expect(toQuery(listReducer(onPage4, { type: 'step', step: 'next' }))).toEqual({ page: 5, limit: 50 });
      const noCursors = loaded(onPage3, null, null);
      expect(toQuery(listReducer(noCursors, { type: 'step', step: 'next' }))).toEqual({ page: 4, limit: 50 });
      expect(toQuery(listReducer(noCursors, { type: 'step', step: 'previous' }))).toEqual({ page: 2, limit: 50 });
    });

    it('leave the cursor behind for a numbered page, a new page size, filter or search', () => {
      const onPage4 = listReducer(page3Shown, { type: 'step', step: 'next' });
      expect(toQuery(listReducer(onPage4, { type: 'page', page: 7 }))).toEqual({ page: 7, limit: 50 });
      expect(listReducer(onPage4, { type: 'limit', limit: 20 }).cursor).toBeNull();
      expect(listReducer(onPage4, { type: 'status', status: 'active' }).cursor).toBeNull();
      expect(listReducer(onPage4, { type: 'search' }).cursor).toBeNull();
    });

    it('keep the cursor when its page loads, and drop it when the answer is another page', () => {
      const onPage4 = listReducer(page3Shown, { type: 'step', step: 'next' });
      expect(toQuery(loaded(onPage4, 'fin-4', 'inicio-4'))).toEqual({ page: 4, limit: 50, after: 'fin-3' });
      // Walking back reached the top of the list (users were deleted): the answer is page 1.
      const back = listReducer(page3Shown, { type: 'step', step: 'previous' });
      const top = listReducer(back, { type: 'loaded', totalPages: 9, page: 1, nextCursor: 'fin-1', prevCursor: null });
      expect(toQuery(top)).toEqual({ page: 1, limit: 50 });
      expect(listReducer(top, { type: 'step', step: 'next' }).cursor).toEqual({ after: 'fin-1' });
    });
  });

  it('enables selection only under the pending_verification filter', () => {
    expect(selectionEnabled(initialListState)).toBe(false);
    expect(selectionEnabled({ ...initialListState, status: 'pending_verification' })).toBe(true);
  });
});
