import { useEffect, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import styled from 'styled-components';
import {
  ApiError,
  exchangeSignInReturn,
  isFreshSignInPending,
  Spinner,
  takeSignInSecret,
  theme,
  TOKEN_INVALID_PATH,
  useSession,
} from '@portal/shared';
import { AuthLayout } from '../../components/AuthLayout';
import { useDelayed } from '../../hooks/timers';
import { redirectQuery, useAfterSignIn } from '../../hooks/useAfterSignIn';
import { authFailedText } from '../../rules/login-notice';

/** Spec §9: after a failed Google sign-in, /login comes after 3 s. */
export const BACK_TO_LOGIN_MS = 3000;
export const CALLBACK_FAILED = 'Error durante la autenticación con Google';
export const CANCELLED = 'Autenticación cancelada o fallida';

/**
 * The provider this return is from, as the sentences name it: the API adds `provider=apple` for Apple and
 * `provider=empresa` for the company's own access; Google is the spec's case.
 */
const providerName = (param: string | null) =>
  param === 'apple' ? 'Apple' : param === 'empresa' ? 'el acceso de tu empresa' : 'Google';

const Detail = styled.p`
  margin: 0;
  color: ${theme.color.muted};
`;

const Problem = styled.p`
  margin: 0;
  color: ${theme.color.danger};
`;

/** The error query parameter's message: auth_failed has its own (naming Apple for Apple), any other is a cancel. */
export function callbackError(error: string | null, provider: string | null = null): string | null {
  if (!error) return null;
  if (error !== 'auth_failed') return CANCELLED;
  return authFailedText(provider);
}

/**
 * /google-callback and /auth/google/callback: the Google/Apple return (spec §2's OAuth return, §7's callback with a
 * code). The API sends the browser here with a one-time `code`, never a session token; only the tab that started the
 * sign-in holds the secret that redeems it (docs/decisions/0001-session-from-bound-sign-in-return.md):
 * - a signed-in tab keeps its session: nothing is redeemed, the person lands as any signed-in one would; unless an
 *   app asked for a fresh sign-in and this tab started this one for it, which then replaces the session;
 * - without this tab's secret, or when the API refuses the code (another tab's, used, expired), the person goes to
 *   /login?error=token_invalid, signed out;
 * - otherwise the code and the secret are exchanged by POST for the session, and the landing decision follows.
 */
/** The refusals of a company's own rules (docs/decisions/0103-company-rules.md), shown as the API words them. */
const COMPANY_RULE_CODES = new Set(['RED_NO_PERMITIDA', 'METODO_NO_PERMITIDO']);

export default function GoogleCallbackPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const startSession = useSession((s) => s.startSession);
  const afterSignIn = useAfterSignIn();
  const redirectUrl = params.get('redirect_url');
  const provider = providerName(params.get('provider'));
  const [failure, setFailure] = useState<string | null>(() =>
    callbackError(params.get('error'), params.get('provider')),
  );
  const started = useRef(false);

  useDelayed(
    BACK_TO_LOGIN_MS,
    failure ? () => navigate(`/login${redirectQuery(redirectUrl)}`, { replace: true }) : null,
  );

  useEffect(() => {
    if (started.current || failure) return;
    started.current = true;
    const code = params.get('code');
    if (!code) {
      setFailure(CANCELLED);
      return;
    }
    const secret = takeSignInSecret();
    // Never replace a session from the address, whoever's return this is; except the fresh sign-in an app asked for,
    // which this very tab started (its secret is here) to replace the session it holds.
    if (useSession.getState().isAuthenticated && !(secret && isFreshSignInPending())) {
      void afterSignIn(redirectUrl);
      return;
    }
    const tokenInvalid = () => navigate(`${TOKEN_INVALID_PATH}${redirectQuery(redirectUrl, '&')}`, { replace: true });
    if (!secret) {
      tokenInvalid();
      return;
    }
    void (async () => {
      try {
        await startSession((await exchangeSignInReturn(code, secret)).access_token);
        void afterSignIn(redirectUrl);
      } catch (error) {
        if (error instanceof ApiError && error.status === 400) tokenInvalid();
        // A rule of the person's company refused this sign-in (a network, a method): its message says which and why.
        else if (error instanceof ApiError && COMPANY_RULE_CODES.has(error.code ?? '')) setFailure(error.message);
        else setFailure(provider === 'Google' ? CALLBACK_FAILED : `Error durante la autenticación con ${provider}`);
      }
    })();
  }, [afterSignIn, failure, navigate, params, provider, redirectUrl, startSession]);

  if (failure) {
    return (
      <AuthLayout title="Error de Autenticación">
        <Problem role="alert">{failure}</Problem>
        <Detail>Redirigiendo al login en unos segundos...</Detail>
      </AuthLayout>
    );
  }
  return (
    <AuthLayout title="Procesando autenticación...">
      <Spinner label={`Estamos completando tu inicio de sesión con ${provider}.`} />
    </AuthLayout>
  );
}
