import { matchPath } from 'react-router-dom';
import {
  dropTokenFromAddress,
  partnerLanding,
  replaceWith,
  syncSessionHint,
  TOKEN_INVALID_PATH,
  useSession,
} from '@portal/shared';
import { ROUTES } from '../routes/route-table';

/** The guard of the route a path opens (the catch-all not-found page is in the user area, spec §2). */
function guardOf(pathname: string) {
  return ROUTES.find((route) => matchPath(route.path, pathname))?.guard ?? 'user';
}

/** The user area and the admin panel forward to partners; the authentication routes do not (spec §2). */
export const forwardsToPartners = (pathname: string) => ['user', 'admin', 'company'].includes(guardOf(pathname));

/**
 * The shell's start-up (spec §4), run once before the first render:
 * - a `?token=` in the address is never made the session (docs/decisions/0001-session-from-bound-sign-in-return.md):
 *   it is taken out of the address at once, unstored; a signed-in person keeps their own session and page, a
 *   signed-out one goes to /login?error=token_invalid. The Google/Apple return is the callback page's (a one-time
 *   code only the tab that started the sign-in can redeem);
 * - a kept session is checked as before (`initialize`);
 * - then, once signed in on a page of the user area, the one landing decision (`partnerLanding`: the address's
 *   allowed `redirect_url`, else the stored pending redirect, consumed once) may hand the person to a partner app.
 *   Until it has decided, the session is not marked initialized, so the guards show 'Cargando...' and nothing of the
 *   page flashes before the browser leaves.
 * Guards keep forwarding on later in-app navigations (`decideAccess`); this only covers the first page.
 * First, the session hint cookie is brought in line with the kept token (@portal/shared, token-storage.ts), so the
 * static server answers the next page of this browser with the right first paint.
 */
export async function startUp(): Promise<void> {
  syncSessionHint();
  const carriedToken = dropTokenFromAddress();
  await useSession.getState().initialize({ settle: false });
  if (carriedToken && !useSession.getState().isAuthenticated) {
    // A full load, so it wins over the API client's own move to /login.
    replaceWith(TOKEN_INVALID_PATH);
    return;
  }
  const { pathname, search } = window.location;
  if (useSession.getState().isAuthenticated && forwardsToPartners(pathname)) {
    const asked = new URLSearchParams(search).get('redirect_url');
    const target = await partnerLanding(asked);
    if (target) {
      replaceWith(target);
      return;
    }
    // A redirect_url the allow-list refuses (or whose partner token could not be minted) is dropped silently: /apps,
    // with a clean address (spec §8).
    if (asked) window.history.replaceState(window.history.state, '', '/apps');
  }
  useSession.setState({ isInitialized: true });
}
