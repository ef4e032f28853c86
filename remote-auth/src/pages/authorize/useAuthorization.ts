import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import {
  clearPendingInteraction,
  errorMessage,
  type InteractionDetails,
  interactionLoginPath,
  isInteractionUid,
  replaceWith,
  storePendingInteraction,
  useSession,
} from '@portal/shared';
import {
  cancelInteraction,
  continueInteraction,
  getInteractionDetails,
  INTERACTION_FALLBACK,
} from '../../interaction/api';
import { type AuthorizeProblem, authorizationStep, isFollowableRedirect, refusalOf } from '../../rules/authorization';

/** What /autorizar shows. */
export type AuthorizationState =
  | { step: 'loading' }
  /** On the way to /login (nobody signed in, or the app asked for a fresh sign-in). */
  | { step: 'signing-in' }
  | { step: 'problem'; problem: AuthorizeProblem }
  /** The interaction could not be read (network, server): its message and 'Reintentar'. */
  | { step: 'load-failed'; message: string }
  /** Going on to the app without asking; stays until the browser has left. */
  | { step: 'connecting'; app: string }
  | { step: 'consent'; details: InteractionDetails; busy: 'allow' | 'cancel' | null; error: string | null };

/** The session is known: start-up has checked a kept token (the page is public, so it renders before that). */
const sessionSettled = (s: ReturnType<typeof useSession.getState>) => s.isInitialized && !(s.isLoading && !s.user);
const isSignedIn = (s: ReturnType<typeof useSession.getState>) =>
  s.isAuthenticated && Boolean(s.token) && s.user !== null;

/**
 * /autorizar's flow (decision 0056): read the interaction, then sign in first, ask, or go on to the app; the answer
 * of `continuar` or `cancelar` is an address that replaces this page. A session that ends during a call (the API
 * client's 401 handling loads /login) leaves the interaction kept in the tab, so the next sign-in comes back here.
 */
export function useAuthorization(uid: string | null) {
  const navigate = useNavigate();
  const ready = useSession(sessionSettled);
  const [state, setState] = useState<AuthorizationState>(() =>
    isInteractionUid(uid) ? { step: 'loading' } : { step: 'problem', problem: 'solicitud_invalida' },
  );
  const [attempt, setAttempt] = useState(0);
  // Answers that arrive after the page is gone (or the address changed) change nothing.
  const live = useRef(0);

  const signIn = useCallback(
    (id: string, fresh: boolean) => {
      storePendingInteraction(id, fresh);
      setState({ step: 'signing-in' });
      navigate(interactionLoginPath(id, fresh), { replace: true });
    },
    [navigate],
  );

  /** What a refused call leads to; `show` shows a failure that is none of the known refusals. */
  const refused = useCallback(
    (id: string, caught: unknown, fallback: string, show: (message: string) => void, details?: InteractionDetails) => {
      const refusal = refusalOf(caught);
      if (refusal === 'session-ended') storePendingInteraction(id);
      else if (refusal === 'sign-in-again') signIn(id, true);
      else if (refusal === 'expired') setState({ step: 'problem', problem: 'solicitud_expirada' });
      else if (refusal === 'consent' && details) setState({ step: 'consent', details, busy: null, error: null });
      else show(errorMessage(caught, fallback));
    },
    [signIn],
  );

  /** `continuar` or `cancelar`, then out of the portal to the address the API answers. */
  const settle = useCallback(
    async (
      id: string,
      details: InteractionDetails,
      choice: 'continue' | 'allow' | 'cancel',
      show: (m: string) => void,
    ) => {
      const round = live.current;
      const fallback = choice === 'cancel' ? INTERACTION_FALLBACK.cancel : INTERACTION_FALLBACK.continue;
      try {
        const { redirectTo } = await (choice === 'cancel'
          ? cancelInteraction(id)
          : continueInteraction(id, choice === 'allow'));
        if (!isFollowableRedirect(redirectTo)) throw new Error(fallback);
        clearPendingInteraction();
        replaceWith(redirectTo);
      } catch (caught) {
        if (round === live.current) refused(id, caught, fallback, show, details);
      }
    },
    [refused],
  );

  useEffect(() => {
    if (!ready || !isInteractionUid(uid)) return undefined;
    const round = ++live.current;
    setState({ step: 'loading' });
    getInteractionDetails(uid).then(
      (details) => {
        if (round !== live.current) return;
        const step = authorizationStep(details, isSignedIn(useSession.getState()));
        if (step === 'sign-in') signIn(uid, details.reautenticar);
        else if (step === 'consent') setState({ step: 'consent', details, busy: null, error: null });
        else {
          setState({ step: 'connecting', app: details.cliente.nombre });
          void settle(uid, details, 'continue', (message) => setState({ step: 'load-failed', message }));
        }
      },
      (caught: unknown) => {
        if (round !== live.current) return;
        refused(uid, caught, INTERACTION_FALLBACK.details, (message) => setState({ step: 'load-failed', message }));
      },
    );
    return () => {
      live.current += 1;
    };
  }, [ready, uid, attempt, signIn, refused, settle]);

  /** 'Permitir' or 'Cancelar' on the consent screen; ignored while one is under way. */
  const answering = useRef(false);
  const answer = (choice: 'allow' | 'cancel') => {
    if (state.step !== 'consent' || state.busy || answering.current || !uid) return;
    const { details } = state;
    answering.current = true;
    setState({ step: 'consent', details, busy: choice, error: null });
    void settle(uid, details, choice, (message) =>
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
