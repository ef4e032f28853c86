import { ADMIN_ROLE, asksFreshSignIn, isAllowedRedirect, managesWith, type User } from '@portal/shared';
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
  /**
   * A signed-in person is sent on by the one landing decision (`signInLanding` of @portal/shared): `redirectUrl` if
   * allowed, else the OpenID Connect interaction the tab was in, else the stored pending redirect, each partner with
   * a token minted for it; else /apps.
   */
  | { kind: 'land'; redirectUrl: string | null };

/**
 * A signed-in person's `redirect_url` (spec §4): an allowed one hands them to the partner, any other falls back to
 * /apps silently (spec §8). Null when the address names none.
 */
function forward(params: URLSearchParams, allowList: readonly string[]): Access | null {
  const target = params.get('redirect_url');
  if (target === null) return null;
  return isAllowedRedirect(target, allowList)
    ? { kind: 'land', redirectUrl: target }
    : { kind: 'navigate', to: '/apps' };
}

/**
 * What a guard does for this session and address (spec §2, §4, §5). Pure, so every branch is unit-tested. A `?token=`
 * never reaches it: the shell's start-up takes it out of the address first, unstored (host/src/session/start-up.ts).
 * `storedToken`: whether the browser keeps a session token. Without one, start-up can only end signed out, so a guest
 * page shows at once instead of 'Cargando...': the prerendered sign-in pages are that first render (host/prerender),
 * and hydration renders the store's initial, not yet started, state.
 */
export function decideAccess(
  guard: Guard,
  session: SessionView,
  search: string,
  allowList: readonly string[],
  storedToken = true,
  companyId: string | undefined = undefined,
): Access {
  if (guard === 'public') return { kind: 'render' };
  if (guard === 'guest' && !session.isInitialized && !storedToken && !session.token) return { kind: 'render' };
  if (!session.isInitialized || (session.isLoading && !session.user)) return { kind: 'loading' };

  const params = new URLSearchParams(search);
  const signedIn = session.isAuthenticated && Boolean(session.token) && session.user !== null;
  switch (guard) {
    case 'guest':
      // The one exception: an app asked for a fresh sign-in (OpenID Connect prompt=login or max_age), so the form
      // shows even to a signed-in person; the page itself lands once that sign-in is done.
      if (asksFreshSignIn(params)) return { kind: 'render' };
      // A sign-in just finished here (or a signed-in person opened a sign-in page): the one landing decision.
      return signedIn ? { kind: 'land', redirectUrl: params.get('redirect_url') } : { kind: 'render' };
    case 'user':
      // Every page of the user area forwards a signed-in person to an allowed partner.
      return signedIn ? (forward(params, allowList) ?? { kind: 'render' }) : { kind: 'navigate', to: '/login' };
    case 'admin':
      if (!signedIn) return { kind: 'navigate', to: '/login' };
      if (session.user?.role !== ADMIN_ROLE) return { kind: 'denied' };
      return forward(params, allowList) ?? { kind: 'render' };
    case 'company':
      if (!signedIn) return { kind: 'navigate', to: '/login' };
      if (session.user?.role !== ADMIN_ROLE && !managesCompany(session.user, companyId)) return { kind: 'denied' };
      return forward(params, allowList) ?? { kind: 'render' };
  }
}

/**
 * Whether the person is an active owner or administrator of company `companyId` (of any, without one). The API
 * decides again at every call; this only keeps the page from showing what it would refuse.
 */
export function managesCompany(user: User | null, companyId: string | undefined): boolean {
  const companies = (user as { empresas?: { id: number; rol: string; estado: string }[] } | null)?.empresas ?? [];
  return companies.some(
    (company) =>
      company.estado === 'activo' &&
      managesWith(company.rol) &&
      (companyId === undefined || String(company.id) === companyId),
  );
}
