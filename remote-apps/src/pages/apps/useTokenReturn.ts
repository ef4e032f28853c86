import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import {
  getRuntimeConfig,
  isTokenValid,
  partnerRedirect,
  removeToken,
  takePendingRedirect,
  useSession,
} from '@portal/shared';

export const TOKEN_INVALID_PATH = '/login?error=token_invalid';

/**
 * Spec §2, the OAuth return: a `token` query parameter is stored and its user loaded, the parameter leaves the
 * address bar, and a stored redirect is followed with a partner-scoped token; a bad token goes to /login?error=token_invalid.
 * The API's Google/Apple callback also names the partner target it carried (`redirect_url`, allow-listed there and
 * checked again here), which wins over the stored one: it belongs to this very sign-in.
 * Answers true while the token is being handled.
 */
export function useTokenReturn(): boolean {
  const location = useLocation();
  const navigate = useNavigate();
  const startSession = useSession((s) => s.startSession);
  const token = new URLSearchParams(location.search).get('token');
  const handled = useRef<string | null>(null);

  useEffect(() => {
    if (!token || handled.current === token) return;
    handled.current = token;
    if (!isTokenValid(token)) {
      removeToken();
      navigate(TOKEN_INVALID_PATH, { replace: true });
      return;
    }
    const rest = new URLSearchParams(location.search);
    const carried = rest.get('redirect_url');
    rest.delete('token');
    rest.delete('redirect_url');
    startSession(token).then(
      async () => {
        const allowList = getRuntimeConfig().redirectAllowList;
        const stored = takePendingRedirect(allowList);
        // The partner gets a token minted for it, never the session token that just arrived (issue 13).
        const target = await partnerRedirect(carried ?? stored, allowList);
        if (target) {
          window.location.assign(target);
          return;
        }
        const search = rest.toString();
        navigate(
          { pathname: location.pathname, search: search ? `?${search}` : '', hash: location.hash },
          { replace: true },
        );
      },
      () => {
        // The session store has removed the token. A full load, so it wins over the API client's own move to /login.
        window.location.replace(TOKEN_INVALID_PATH);
      },
    );
  }, [token, location, navigate, startSession]);

  return Boolean(token);
}
