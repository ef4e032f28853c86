import { useCallback, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { claimLanding, leaveTo, signInLanding, stillOn, useSession } from '@portal/shared';

/**
 * After a sign-in on one of the auth screens: the one landing decision of @portal/shared (`signInLanding`: the
 * allowed redirect_url, the OpenID Connect interaction this tab was in, the pending redirect, else the portal).
 * It goes only from the entry the screen showed when the sign-in ended: a person who went Back meanwhile stays where
 * they went (the shell's guest guard has landed them already, or sends them on from there).
 */
export function useAfterSignIn() {
  const navigate = useNavigate();
  // Read when called, not when made: the callback keeps one identity (the Google return's effect depends on it).
  const shown = useRef('');
  shown.current = useLocation().key;
  return useCallback(
    async (redirectUrl: string | null) => {
      const from = shown.current;
      const landing = await signInLanding(redirectUrl, useSession.getState().user);
      // The shell's guest guard may have landed from this entry already (the session started under it): once only.
      if (!stillOn(from) || !claimLanding(from)) return;
      if (landing.kind === 'leave') leaveTo(landing.url);
      else navigate(landing.path, { replace: true });
    },
    [navigate],
  );
}

/** `?redirect_url=…` to carry the partner target from one sign-in screen to the next. */
export function redirectQuery(redirectUrl: string | null, prefix: '?' | '&' = '?'): string {
  return redirectUrl ? `${prefix}redirect_url=${encodeURIComponent(redirectUrl)}` : '';
}
