import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';
import { leaveTo, signInLanding, useSession } from '@portal/shared';

/**
 * After a sign-in on one of the auth screens: the one landing decision of @portal/shared (`signInLanding`: the
 * allowed redirect_url, the OpenID Connect interaction this tab was in, the pending redirect, else the portal).
 */
export function useAfterSignIn() {
  const navigate = useNavigate();
  return useCallback(
    async (redirectUrl: string | null) => {
      const landing = await signInLanding(redirectUrl, useSession.getState().user);
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
