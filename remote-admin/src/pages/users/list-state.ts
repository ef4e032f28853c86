import type { UserListQuery, UserStatus } from '@portal/shared';
import { clampPage, DEFAULT_PAGE_SIZE } from '../../model/pagination';

/** What the user list asks the server for, and the email typed but not yet searched. */
export interface ListState {
  page: number;
  limit: number;
  status: UserStatus | '';
  /** The text in the email box. */
  emailInput: string;
  /** The email filter applied by the last Search. */
  email: string;
}

export type ListAction =
  | { type: 'page'; page: number }
  | { type: 'limit'; limit: number }
  | { type: 'status'; status: UserStatus | '' }
  | { type: 'typeEmail'; value: string }
  | { type: 'search' }
  | { type: 'loaded'; totalPages: number };

export const initialListState: ListState = { page: 1, limit: DEFAULT_PAGE_SIZE, status: '', emailInput: '', email: '' };

/**
 * Spec §4: changing the page size or the status filter goes back to page 1; Search applies the typed email and goes
 * back to page 1; a page past the last one (after a reload) moves to the last page.
 */
export function listReducer(state: ListState, action: ListAction): ListState {
  switch (action.type) {
    case 'page':
      return { ...state, page: Math.max(1, action.page) };
    case 'limit':
      return { ...state, limit: action.limit, page: 1 };
    case 'status':
      return { ...state, status: action.status, page: 1 };
    case 'typeEmail':
      return { ...state, emailInput: action.value };
    case 'search':
      return { ...state, email: state.emailInput.trim(), page: 1 };
    case 'loaded': {
      const page = clampPage(state.page, action.totalPages);
      return page === state.page ? state : { ...state, page };
    }
  }
}

export function toQuery(state: ListState): UserListQuery {
  return {
    page: state.page,
    limit: state.limit,
    email: state.email || undefined,
    status: state.status || undefined,
  };
}

/** Spec §5: rows can be selected, and Verify used, only under the pending_verification filter. */
export function selectionEnabled(state: ListState): boolean {
  return state.status === 'pending_verification';
}
