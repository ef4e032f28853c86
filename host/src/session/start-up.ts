import { matchPath } from 'react-router-dom';
import {
  isTokenValid,
  partnerLanding,
  removeToken,
  replaceWith,
  syncSessionHint,
  TOKEN_INVALID_PATH,
  takeArrivingToken,
  useSession,
} from '@portal/shared';
import { ROUTES } from '../routes/route-table';

/** The guard of the route a path opens (the catch-all not-found page is in the user area, spec §2). */
function guardOf(pathname: string) {
  return ROUTES.find((route) => matchPath(route.path, pathname))?.guard ?? 'user';
}

/** The user area and the admin panel forward to partners; the authentication routes do not (spec §2). */
export const forwardsToPartners = (pathname: string) => ['user', 'admin'].includes(guardOf(pathname));

/** A token that arrives on a user page keeps that page; on a sign-in page (a callback, /login) it lands on /apps. */
const landingOf = (pathname: string) => (forwardsToPartners(pathname) ? pathname : '/apps');

/**
 * The shell's start-up (spec §4, issue 17), run once before the first render:
 * - a `?token=` in the address (the Google/Apple return, or any page a link opens with one) is taken out of the
 *   address at once, checked and turned into the session; a token that is not a valid portal session goes to
 *   /login?error=token_invalid;
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
  const arriving = takeArrivingToken(landingOf);
  const session = useSession.getState();
  if (!arriving) {
    await session.initialize({ settle: false });
  } else if (!isTokenValid(arriving.token)) {
    removeToken();
    replaceWith(TOKEN_INVALID_PATH);
    return;
  } else {
    try {
      await session.startSession(arriving.token);
    } catch {
      // The store has removed the token. A full load, so it wins over the API client's own move to /login.
      replaceWith(TOKEN_INVALID_PATH);
      return;
    }
  }
  const { pathname, search } = window.location;
  if (useSession.getState().isAuthenticated && forwardsToPartners(pathname)) {
    const asked = arriving ? arriving.redirectUrl : new URLSearchParams(search).get('redirect_url');
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
