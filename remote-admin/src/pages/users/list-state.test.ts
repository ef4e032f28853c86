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
    expect(listReducer({ ...initialListState, page: 7 }, { type: 'loaded', totalPages: 4 }).page).toBe(4);
    expect(listReducer(onPage3, { type: 'loaded', totalPages: 4 })).toBe(onPage3);
  });

  it('enables selection only under the pending_verification filter', () => {
    expect(selectionEnabled(initialListState)).toBe(false);
    expect(selectionEnabled({ ...initialListState, status: 'pending_verification' })).toBe(true);
  });
});
