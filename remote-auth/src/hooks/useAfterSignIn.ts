import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';
import { ADMIN_ROLE, getSecurityStatus, leaveTo, partnerLanding, secondFactorGate, useSession } from '@portal/shared';

/** Where 'Seguridad' is: an administrator who must still set up a second factor lands there (issue 20). */
export const SECURITY_SETUP_PATH = '/perfil?tab=seguridad';

/**
 * The portal page a signed-in person lands on: /apps, except an administrator who must still set up a second factor
 * (ADMIN_SECOND_FACTOR=required, none set up), who lands on 'Seguridad', which asks for it, as the admin panel would.
 * If the status cannot be read the person lands on /apps: the panel itself asks again.
 */
async function portalLanding(): Promise<string> {
  if (useSession.getState().user?.role !== ADMIN_ROLE) return '/apps';
  try {
    return secondFactorGate(await getSecurityStatus()) === 'setup' ? SECURITY_SETUP_PATH : '/apps';
  } catch {
    return '/apps';
  }
}

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
      else navigate(await portalLanding(), { replace: true });
    },
    [navigate],
  );
}

/** `?redirect_url=…` to carry the partner target from one sign-in screen to the next. */
export function redirectQuery(redirectUrl: string | null, prefix: '?' | '&' = '?'): string {
  return redirectUrl ? `${prefix}redirect_url=${encodeURIComponent(redirectUrl)}` : '';
}
