import { useDeferredValue, useEffect, useRef, useState, type ReactNode } from 'react';
import { Navigate, useLocation, useNavigate, useNavigationType, useParams } from 'react-router-dom';
import styled from 'styled-components';
import {
  Alert,
  Button,
  claimLanding,
  getRuntimeConfig,
  type Landing,
  readToken,
  replaceWith,
  signInLanding,
  Spinner,
  stillOn,
  storePendingPage,
  TEXT,
  useSession,
} from '@portal/shared';
import { TopBar } from '../layout/TopBar';
import { AccessDenied } from '../pages/AccessDenied';
import type { Guard } from '../routes/route-table';
import { decideAccess } from './access';

/**
 * Sends a signed-in person on (spec §4) by the one landing decision of @portal/shared (`signInLanding`): to a partner
 * with a token minted for it (replacing this entry, so Back does not forward again), back to the OpenID Connect
 * interaction this tab was in, or to the portal (/apps, or 'Seguridad' for an administrator who must still set up a
 * second factor). The decision consumes what the tab kept, so it is taken once per mount, StrictMode's second run of
 * the effect included.
 */
function Land({ redirectUrl }: { redirectUrl: string | null }) {
  const navigate = useNavigate();
  const { key } = useLocation();
  const landing = useRef<Promise<Landing> | null>(null);
  const landed = useRef(false);
  useEffect(() => {
    let current = true;
    landing.current ??= signInLanding(redirectUrl, useSession.getState().user);
    void landing.current.then((next) => {
      // A tree still on screen while the next page loads (a router transition) may be one the person has left with
      // Back: its landing would replace the entry they went to. It goes from the entry shown next instead, once.
      // The sign-in page may have landed from this entry already (claimLanding): the tab navigates once.
      if (!current || landed.current || !stillOn(key) || !claimLanding(key)) return;
      landed.current = true;
      if (next.kind === 'leave') replaceWith(next.url);
      else navigate(next.path, { replace: true });
    });
    return () => {
      current = false;
    };
  }, [redirectUrl, navigate, key]);
  return <Spinner label={TEXT.signingIn} />;
}

/**
 * Where in the tab's history the portal is (react-router keeps `idx` in history.state); null before the first push,
 * and in the build's prerender (no window).
 */
const historyIndex = () =>
  typeof window === 'undefined' ? null : ((window.history.state as { idx?: number } | null)?.idx ?? null);
/** The history position of the page shown last, to tell a Back from a Forward or a first load. */
let lastShownIndex: number | null = null;
/** The Back already taken from one history entry (by its key), so a re-render does not take a second one. */
let steppedBackFrom: string | null = null;

/**
 * A signed-in person who goes Back onto a sign-in page (the registration steps before a verification, the login
 * before a sign-in) would be sent to /apps again at every press: Back skips those pages instead, on to whatever came
 * before them, and only the first entry of the portal in the tab turns into /apps.
 */
function SkipBack() {
  const navigate = useNavigate();
  const { key } = useLocation();
  useEffect(() => {
    if (steppedBackFrom === key) return;
    steppedBackFrom = key;
    navigate(-1);
  }, [key, navigate]);
  return null;
}

const Unreachable = styled.div`
  width: min(560px, calc(100% - 32px));
  margin: 48px auto;
  display: grid;
  gap: 16px;
`;

/** The API could not be reached while checking a kept session: say so and let the person try again. */
function SessionUnreachable({ message }: { message: string }) {
  return (
    <Unreachable>
      <Alert>{message}</Alert>
      <Button
        onClick={() =>
          void useSession
            .getState()
            .loadCurrentUser()
            .catch(() => undefined)
        }
      >
        {TEXT.retry}
      </Button>
    </Unreachable>
  );
}

const SIGN_IN_PATH = '/login';

/**
 * A signed-out visitor on a signed-in page (a saved link, a bookmark, a session that ended): to the sign-in, the tab
 * keeping the page to come back to once signed in (pending-page.ts of @portal/shared).
 */
function SignInFirst() {
  const { pathname, search, hash } = useLocation();
  // The address as asked, before the navigation to /login changes it.
  const [asked] = useState(`${pathname}${search}${hash}`);
  useEffect(() => storePendingPage(asked), [asked]);
  return <Navigate to={SIGN_IN_PATH} replace />;
}

/**
 * Applies a route's guard: renders the page, waits for the session, redirects or denies. The session store's changes
 * are synchronous renders (an external store); the guard follows them one render later, in slices, so that the
 * whole page it lets through is not rendered in one long task (docs/decisions/0061-apps-blocking-time.md).
 */
export function Guarded({ guard, children }: { guard: Guard; children: ReactNode }) {
  const session = useDeferredValue(useSession());
  const { search } = useLocation();
  const companyId = useParams().id;
  const navigationType = useNavigationType();
  const index = historyIndex();
  const shownBefore = lastShownIndex;
  useEffect(() => {
    lastShownIndex = index;
  });
  if (
    guard !== 'guest' &&
    guard !== 'public' &&
    session.isInitialized &&
    !session.isAuthenticated &&
    session.error &&
    readToken()
  ) {
    return <SessionUnreachable message={session.error} />;
  }
  const access = decideAccess(
    guard,
    session,
    search,
    getRuntimeConfig().redirectAllowList,
    readToken() !== null,
    companyId,
  );
  switch (access.kind) {
    case 'render':
      return <>{children}</>;
    case 'loading':
      return <Spinner label={TEXT.loading} />;
    case 'denied':
      // A signed-in person without the rights keeps the top bar: the way back to the rest of the portal.
      return (
        <>
          <TopBar />
          <AccessDenied />
        </>
      );
    case 'navigate':
      return access.to === SIGN_IN_PATH ? <SignInFirst /> : <Navigate to={access.to} replace />;
    case 'land': {
      const wentBack = navigationType === 'POP' && index !== null && shownBefore !== null && index < shownBefore;
      if (guard === 'guest' && wentBack && index > 0) return <SkipBack />;
      return <Land redirectUrl={access.redirectUrl} />;
    }
  }
}
