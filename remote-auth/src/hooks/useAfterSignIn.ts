import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';
import { getRuntimeConfig, redirectWithToken, takePendingRedirect } from '@portal/shared';
import { leaveTo } from '../navigation/leave';

/**
 * Where a person goes once signed in (spec §4): the allowed redirect_url with the token, else a stored pending
 * redirect that is still allowed, else /apps. A target that is not allowed is dropped silently.
 */
export function useAfterSignIn() {
  const navigate = useNavigate();
  return useCallback(
    (token: string, redirectUrl: string | null) => {
      const allowList = getRuntimeConfig().redirectAllowList;
      const pending = takePendingRedirect(allowList); // read once, removed either way
      const target = redirectWithToken(redirectUrl, token, allowList) ?? redirectWithToken(pending, token, allowList);
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
