import type { UserListQuery, UserStatus } from '@portal/shared';
import { clampPage, DEFAULT_PAGE_SIZE, type PageStep } from '../../rules/pagination';

/** The API finds the page from a row of the page beside it (`after` its last, `before` its first). */
type PageCursor = Pick<UserListQuery, 'after'> | Pick<UserListQuery, 'before'>;

/** The page on screen and the cursors of the pages beside it, as its answer gave them. */
interface PageOnScreen {
  page: number;
  nextCursor: string | null;
  prevCursor: string | null;
}

/** What the user list asks the server for, and the email typed but not yet searched. */
export interface ListState {
  page: number;
  limit: number;
  status: UserStatus | '';
  /** The text in the email box. */
  emailInput: string;
  /** The email filter applied by the last Search. */
  email: string;
  /** Sent with `page` when Next or Previous led there; a page number alone otherwise. */
  cursor: PageCursor | null;
  onScreen: PageOnScreen | null;
}

export type ListAction =
  | { type: 'page'; page: number }
  | { type: 'step'; step: PageStep }
  | { type: 'limit'; limit: number }
  | { type: 'status'; status: UserStatus | '' }
  | { type: 'typeEmail'; value: string }
  | { type: 'search' }
  /** `totalCapped`: the total stopped at the cap, so pages past `totalPages` exist and are reached by Next. */
  | ({ type: 'loaded'; totalPages: number; totalCapped?: boolean } & PageOnScreen);

export const initialListState: ListState = {
  page: 1,
  limit: DEFAULT_PAGE_SIZE,
  status: '',
  emailInput: '',
  email: '',
  cursor: null,
  onScreen: null,
};

/**
 * Next or Previous: the page beside, found from the page on screen's cursor (cheap at any depth). Without
 * one (that page not loaded yet, or none beside it), the page number alone.
 */
function step(state: ListState, direction: PageStep): ListState {
  const onScreen = state.onScreen?.page === state.page ? state.onScreen : null;
  if (direction === 'next') {
    const after = onScreen?.nextCursor;
    return { ...state, page: state.page + 1, cursor: after ? { after } : null };
  }
  const before = onScreen?.prevCursor;
  return { ...state, page: Math.max(1, state.page - 1), cursor: before ? { before } : null };
}

/**
 * Spec §4: changing the page size or the status filter goes back to page 1; Search applies the typed email and goes
 * back to page 1; a page past the last one (after a reload) moves to the last page. A numbered page is asked for by
 * its number; Next and Previous by the cursor of the page on screen.
 */
export function listReducer(state: ListState, action: ListAction): ListState {
  switch (action.type) {
    case 'page':
      return { ...state, page: Math.max(1, action.page), cursor: null };
    case 'step':
      return step(state, action.step);
    case 'limit':
      return { ...state, limit: action.limit, page: 1, cursor: null };
    case 'status':
      return { ...state, status: action.status, page: 1, cursor: null };
    case 'typeEmail':
      return { ...state, emailInput: action.value };
    case 'search':
      return { ...state, email: state.emailInput.trim(), page: 1, cursor: null };
    case 'loaded': {
      const { page: shown, nextCursor, prevCursor, totalPages, totalCapped } = action;
      // The answer's page can differ from the one asked for: past the end, or walking back reached the first page.
      // A capped total is no end: the rows past it are still there, and the page the answer found stands.
      const page = totalCapped ? Math.max(1, shown) : clampPage(shown, totalPages);
      const onScreen = { page: shown, nextCursor, prevCursor };
      return page === state.page ? { ...state, onScreen } : { ...state, page, cursor: null, onScreen };
    }
  }
}

export function toQuery(state: ListState): UserListQuery {
  return {
    page: state.page,
    limit: state.limit,
    email: state.email || undefined,
    status: state.status || undefined,
    ...state.cursor,
  };
}

/** Spec §5: rows can be selected, and Verify used, only under the pending_verification filter. */
export function selectionEnabled(state: ListState): boolean {
  return state.status === 'pending_verification';
}
