import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { errorMessage, type InteractionDetails, replaceWith, storePendingPage, useSession } from '@portal/shared';
import {
  cancelSamlRequest,
  continueSamlRequest,
  getSamlRequest,
  isSamlRequestId,
  SAML_CONTINUE_PATH,
  SAML_FALLBACK,
  SAML_REQUEST_PARAM,
} from '../../interaction/saml';
import { type AuthorizeProblem, isFollowableRedirect, refusalOf } from '../../rules/authorization';

/** What /saml/continuar shows. */
export type SamlContinuationState =
  | { step: 'loading' }
  /** On the way to /login: nobody is signed in. */
  | { step: 'signing-in' }
  | { step: 'problem'; problem: AuthorizeProblem }
  | { step: 'load-failed'; message: string }
  /** Going on to the app without asking; stays until the browser has left. */
  | { step: 'connecting'; app: string }
  | { step: 'consent'; details: InteractionDetails; busy: 'allow' | 'cancel' | null; error: string | null };

type Session = ReturnType<typeof useSession.getState>;
const sessionSettled = (s: Session) => s.isInitialized && !(s.isLoading && !s.user);
const isSignedIn = (s: Session) => s.isAuthenticated && Boolean(s.token) && s.user !== null;

const pagePath = (id: string) => `${SAML_CONTINUE_PATH}?${SAML_REQUEST_PARAM}=${encodeURIComponent(id)}`;

/**
 * /saml/continuar's flow (decision 0100): a partner app's SAML sign-in waits at the API; the signed-in person is
 * asked as for an OpenID Connect app that is not the portal's own (once per app), or goes on at once, and the API's
 * one-time address replaces this page. Signed out, the page is kept and /login brings the person back.
 */
export function useSamlContinuation(id: string | null) {
  const navigate = useNavigate();
  const ready = useSession(sessionSettled);
  const signedIn = useSession(isSignedIn);
  const [state, setState] = useState<SamlContinuationState>(() =>
    isSamlRequestId(id) ? { step: 'loading' } : { step: 'problem', problem: 'solicitud_invalida' },
  );
  const [attempt, setAttempt] = useState(0);
  const live = useRef(0);

  const refused = useCallback(
    (
      requestId: string,
      caught: unknown,
      show: (message: string) => void,
      fallback: string,
      details?: InteractionDetails,
    ) => {
      const refusal = refusalOf(caught);
      if (refusal === 'session-ended') storePendingPage(pagePath(requestId));
      else if (refusal === 'expired') setState({ step: 'problem', problem: 'solicitud_expirada' });
      else if (refusal === 'consent' && details) setState({ step: 'consent', details, busy: null, error: null });
      else show(errorMessage(caught, fallback));
    },
    [],
  );

  const settle = useCallback(
    async (
      requestId: string,
      details: InteractionDetails,
      choice: 'continue' | 'allow' | 'cancel',
      show: (m: string) => void,
    ) => {
      const round = live.current;
      const fallback = choice === 'cancel' ? SAML_FALLBACK.cancel : SAML_FALLBACK.continue;
      try {
        const { redirectTo } = await (choice === 'cancel'
          ? cancelSamlRequest(requestId)
          : continueSamlRequest(requestId, choice === 'allow'));
        if (!isFollowableRedirect(redirectTo)) throw new Error(fallback);
        replaceWith(redirectTo);
      } catch (caught) {
        if (round === live.current) refused(requestId, caught, show, fallback, details);
      }
    },
    [refused],
  );

  useEffect(() => {
    if (!ready || !isSamlRequestId(id)) return undefined;
    if (!signedIn) {
      storePendingPage(pagePath(id));
      setState({ step: 'signing-in' });
      navigate('/login', { replace: true });
      return undefined;
    }
    const round = ++live.current;
    setState({ step: 'loading' });
    getSamlRequest(id).then(
      (details) => {
        if (round !== live.current) return;
        if (details.consentimiento) setState({ step: 'consent', details, busy: null, error: null });
        else {
          setState({ step: 'connecting', app: details.cliente.nombre });
          void settle(id, details, 'continue', (message) => setState({ step: 'load-failed', message }));
        }
      },
      (caught: unknown) => {
        if (round !== live.current) return;
        refused(id, caught, (message) => setState({ step: 'load-failed', message }), SAML_FALLBACK.details);
      },
    );
    return () => {
      live.current += 1;
    };
  }, [ready, signedIn, id, attempt, navigate, refused, settle]);

  /** 'Permitir' or 'Cancelar' on the consent screen; ignored while one is under way. */
  const answering = useRef(false);
  const answer = (choice: 'allow' | 'cancel') => {
    if (state.step !== 'consent' || state.busy || answering.current || !isSamlRequestId(id)) return;
    const { details } = state;
    answering.current = true;
    setState({ step: 'consent', details, busy: choice, error: null });
    void settle(id, details, choice, (message) =>
      setState({ step: 'consent', details, busy: null, error: message }),
    ).finally(() => {
      answering.current = false;
    });
  };

  return {
    state,
    allow: () => answer('allow'),
    cancel: () => answer('cancel'),
    retry: () => setAttempt((n) => n + 1),
  };
}
