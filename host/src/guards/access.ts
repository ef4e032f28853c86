import { ADMIN_ROLE, isAllowedRedirect, type User } from '@portal/shared';
import type { Guard } from '../routes/route-table';

export interface SessionView {
  isInitialized: boolean;
  isAuthenticated: boolean;
  isLoading: boolean;
  token: string | null;
  user: User | null;
}

export type Access =
  | { kind: 'render' }
  | { kind: 'loading' }
  | { kind: 'denied' }
  | { kind: 'navigate'; to: string }
  /** To an allowed partner target, which receives a partner-scoped token (`partnerRedirect`), never the session. */
  | { kind: 'leave'; target: string };

/** What a guard does for this session and address (spec §2, §4, §5). Pure, so every branch is unit-tested. */
export function decideAccess(guard: Guard, session: SessionView, search: string, allowList: readonly string[]): Access {
  if (guard === 'public') return { kind: 'render' };
  const params = new URLSearchParams(search);
  // The OAuth return carries the token in the address: the page renders and stores it itself.
  if (guard === 'user' && params.get('token')) return { kind: 'render' };
  if (!session.isInitialized || (session.isLoading && !session.user)) return { kind: 'loading' };

  const signedIn = session.isAuthenticated && Boolean(session.token) && session.user !== null;
  switch (guard) {
    case 'guest': {
      if (!signedIn) return { kind: 'render' };
      const target = params.get('redirect_url');
      return target && isAllowedRedirect(target, allowList)
        ? { kind: 'leave', target }
        : { kind: 'navigate', to: '/apps' };
    }
    case 'user':
      return signedIn ? { kind: 'render' } : { kind: 'navigate', to: '/login' };
    case 'admin':
      if (!signedIn) return { kind: 'navigate', to: '/login' };
      return session.user?.role === ADMIN_ROLE ? { kind: 'render' } : { kind: 'denied' };
  }
}
