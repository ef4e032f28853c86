import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';
import { getRuntimeConfig, isAllowedRedirect, partnerRedirect, takePendingRedirect } from '@portal/shared';
import { leaveTo } from '../navigation/leave';

/**
 * Where a person goes once signed in (spec §4): the allowed redirect_url, else a stored pending redirect that is
 * still allowed, else /apps. A target that is not allowed is dropped silently. The partner receives a token minted
 * for it with the session just started (issue 13), never the session token itself.
 */
export function useAfterSignIn() {
  const navigate = useNavigate();
  return useCallback(
    async (_token: string, redirectUrl: string | null) => {
      const allowList = getRuntimeConfig().redirectAllowList;
      const pending = takePendingRedirect(allowList); // read once, removed either way
      const chosen = redirectUrl && isAllowedRedirect(redirectUrl, allowList) ? redirectUrl : pending;
      const target = await partnerRedirect(chosen, allowList);
      if (target) leaveTo(target);
      else navigate('/apps', { replace: true });
    },
    [navigate],
  );
}

/** `?redirect_url=…` to carry the partner target from one sign-in screen to the next. */
export function redirectQuery(redirectUrl: string | null, prefix: '?' | '&' = '?'): string {
  return redirectUrl ? `${prefix}redirect_url=${encodeURIComponent(redirectUrl)}` : '';
}
