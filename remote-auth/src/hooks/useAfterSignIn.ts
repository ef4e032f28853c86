import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';
import { leaveTo, partnerLanding, portalLanding, useSession } from '@portal/shared';

/**
 * After a sign-in on one of the auth screens: the one landing decision of @portal/shared (`partnerLanding`: the
 * allowed redirect_url, else the pending redirect, else the portal) hands the person to a partner with a token
 * minted for it, or to the portal (`portalLanding`).
 */
export function useAfterSignIn() {
  const navigate = useNavigate();
  return useCallback(
    async (redirectUrl: string | null) => {
      const target = await partnerLanding(redirectUrl);
      if (target) leaveTo(target);
      else navigate(await portalLanding(useSession.getState().user), { replace: true });
    },
    [navigate],
  );
}

/** `?redirect_url=…` to carry the partner target from one sign-in screen to the next. */
export function redirectQuery(redirectUrl: string | null, prefix: '?' | '&' = '?'): string {
  return redirectUrl ? `${prefix}redirect_url=${encodeURIComponent(redirectUrl)}` : '';
}
