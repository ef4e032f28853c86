import { useEffect, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import styled from 'styled-components';
import { googleCallback, Spinner, theme, useSession } from '@portal/shared';
import { AuthLayout } from '../../components/AuthLayout';
import { useDelayed } from '../../hooks/useTimedMessage';
import { redirectQuery, useAfterSignIn } from '../../hooks/useAfterSignIn';
import { LOGIN_ERRORS } from '../login/notice';

/** Spec §9: after a failed Google sign-in, /login comes after 3 s. */
export const BACK_TO_LOGIN_MS = 3000;
export const CALLBACK_FAILED = 'Error durante la autenticación con Google';
export const CANCELLED = 'Autenticación cancelada o fallida';

const Detail = styled.p`
  margin: 0;
  color: ${theme.color.muted};
`;

const Problem = styled.p`
  margin: 0;
  color: ${theme.color.danger};
`;

/** The error query parameter's message: auth_failed has its own, any other error is a cancelled sign-in. */
export function callbackError(error: string | null): string | null {
  if (!error) return null;
  return error === 'auth_failed' ? (LOGIN_ERRORS.auth_failed as string) : CANCELLED;
}

/** /google-callback and /auth/google/callback: turns the provider's answer into a session (spec §2). */
export default function GoogleCallbackPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const startSession = useSession((s) => s.startSession);
  const afterSignIn = useAfterSignIn();
  const redirectUrl = params.get('redirect_url');
  const [failure, setFailure] = useState<string | null>(() => callbackError(params.get('error')));
  const started = useRef(false);

  useDelayed(
    BACK_TO_LOGIN_MS,
    failure ? () => navigate(`/login${redirectQuery(redirectUrl)}`, { replace: true }) : null,
  );

  useEffect(() => {
    if (started.current || failure) return;
    started.current = true;
    const token = params.get('token');
    const code = params.get('code');
    void (async () => {
      try {
        const accessToken = token ?? (code ? (await googleCallback(code)).access_token : null);
        if (!accessToken) {
          setFailure(CANCELLED);
          return;
        }
        await startSession(accessToken);
        void afterSignIn(accessToken, redirectUrl);
      } catch {
        setFailure(CALLBACK_FAILED);
      }
    })();
  }, [afterSignIn, failure, params, redirectUrl, startSession]);

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
      <Spinner label="Estamos completando tu inicio de sesión con Google." />
    </AuthLayout>
  );
}
