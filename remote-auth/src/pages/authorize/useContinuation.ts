import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import {
  errorMessage,
  type InteractionDetails,
  replaceWith,
  type SecondFactorMethod,
  useSession,
} from '@portal/shared';
import type { ContinuationDoor } from '../../interaction/doors';
import { SECOND_FACTOR_NOT_YET } from '../../second-factor/StepUpScreen';
import { type AuthorizeProblem, authorizationStep, isFollowableRedirect, refusalOf } from '../../rules/authorization';

/** What the page of an app's sign-in shows. */
export type ContinuationState =
  | { step: 'loading' }
  /** On the way to /login (nobody signed in, or the app asked for a fresh sign-in). */
  | { step: 'signing-in' }
  | { step: 'problem'; problem: AuthorizeProblem }
  /** The portal refuses this sign-in (a rule of the person's company): the API's reason, and the way back. */
  | { step: 'refused'; message: string; leaving: boolean; error: string | null }
  /** The request could not be read (network, server): its message and 'Reintentar'. */
  | { step: 'load-failed'; message: string }
  /** Going on to the app without asking; stays until the browser has left. */
  | { step: 'connecting'; app: string }
  | { step: 'consent'; details: InteractionDetails; busy: 'allow' | 'cancel' | null; error: string | null }
  /** The app asked for a second factor this session has not proved: the person proves one (or sets one up). */
  | {
      step: 'second-factor';
      app: string;
      metodos: SecondFactorMethod[];
      /** 'No volver a pedir en este dispositivo durante 30 días' is offered (for the sign-ins after this one). */
      trustDevice: boolean;
      leaving: boolean;
      error: string | null;
    };

type Session = ReturnType<typeof useSession.getState>;
/** The session is known: start-up has checked a kept token (the page is public, so it renders before that). */
const sessionSettled = (s: Session) => s.isInitialized && !(s.isLoading && !s.user);
const isSignedIn = (s: Session) => s.isAuthenticated && Boolean(s.token) && s.user !== null;

/**
 * The flow of an app's sign-in through `door` (decision 0115): read the request, then sign in first, ask, or go on
 * to the app; the answer of `continuar` or `cancelar` is an address that replaces this page. A session that ends
 * during a call (the API client's 401 handling loads /login) leaves the request kept in the tab, so the next sign-in
 * comes back here. A sign-in the portal refuses says why and lets the person go back to the app.
 */
export function useContinuation(door: ContinuationDoor, id: string | null) {
  const navigate = useNavigate();
  const ready = useSession(sessionSettled);
  const signedIn = useSession(isSignedIn);
  const [state, setState] = useState<ContinuationState>(() =>
    door.isId(id) ? { step: 'loading' } : { step: 'problem', problem: 'solicitud_invalida' },
  );
  const [attempt, setAttempt] = useState(0);
  /** The request is read again because the person said the second factor is ready. */
  const checkingSecondFactor = useRef(false);
  // Answers that arrive after the page is gone (or the address changed) change nothing.
  const live = useRef(0);

  const signIn = useCallback(
    (request: string, fresh: boolean) => {
      door.keep(request, fresh);
      setState({ step: 'signing-in' });
      navigate(door.signInPath(request, fresh), { replace: true });
    },
    [door, navigate],
  );

  /** What a refused call leads to; `show` shows a failure that is none of the known refusals. */
  const refused = useCallback(
    (request: string, caught: unknown, fallback: string, show: (m: string) => void, details?: InteractionDetails) => {
      const refusal = refusalOf(caught);
      if (refusal === 'session-ended') door.keep(request, false);
      else if (refusal === 'sign-in-again') signIn(request, true);
      else if (refusal === 'expired') setState({ step: 'problem', problem: 'solicitud_expirada' });
      else if (refusal === 'consent' && details) setState({ step: 'consent', details, busy: null, error: null });
      // The request is read again: it says how the person can prove the second factor the app asked for.
      else if (refusal === 'second-factor') setAttempt((n) => n + 1);
      else if (refusal === 'refused')
        setState({ step: 'refused', message: errorMessage(caught, fallback), leaving: false, error: null });
      else show(errorMessage(caught, fallback));
    },
    [door, signIn],
  );

  /** `continuar` or `cancelar`, then out of the portal to the address the API answers. */
  const settle = useCallback(
    async (
      request: string,
      choice: 'continue' | 'allow' | 'cancel' | 'step-up-cancel',
      show: (m: string) => void,
      details?: InteractionDetails,
    ) => {
      const round = live.current;
      const cancelling = choice === 'cancel' || choice === 'step-up-cancel';
      const fallback = cancelling ? door.fallback.cancel : door.fallback.continue;
      try {
        const { redirectTo } = await (cancelling
          ? door.cancel(request, choice === 'step-up-cancel')
          : door.answer(request, choice === 'allow'));
        if (!isFollowableRedirect(redirectTo)) throw new Error(fallback);
        door.forget();
        replaceWith(redirectTo);
      } catch (caught) {
        if (round === live.current) refused(request, caught, fallback, show, details);
      }
    },
    [door, refused],
  );

  useEffect(() => {
    if (!ready || !door.isId(id)) return undefined;
    if (!signedIn && door.readNeedsSession) {
      signIn(id, false);
      return undefined;
    }
    const round = ++live.current;
    setState({ step: 'loading' });
    door.read(id).then(
      (details) => {
        if (round !== live.current) return;
        const checked = checkingSecondFactor.current;
        checkingSecondFactor.current = false;
        const step = authorizationStep(details, isSignedIn(useSession.getState()));
        if (step === 'sign-in') signIn(id, details.reautenticar);
        else if (step === 'second-factor')
          setState({
            step: 'second-factor',
            app: details.cliente.nombre,
            metodos: details.segundoFactor?.metodos ?? [],
            trustDevice: details.segundoFactor?.permiteConfiarDispositivo === true,
            leaving: false,
            // Read again after 'Continuar a la aplicación', and still not proved: the person is told.
            error: checked ? SECOND_FACTOR_NOT_YET : null,
          });
        else if (step === 'consent') setState({ step: 'consent', details, busy: null, error: null });
        else {
          setState({ step: 'connecting', app: details.cliente.nombre });
          void settle(id, 'continue', (message) => setState({ step: 'load-failed', message }), details);
        }
      },
      (caught: unknown) => {
        if (round !== live.current) return;
        refused(id, caught, door.fallback.details, (message) => setState({ step: 'load-failed', message }));
      },
    );
    return () => {
      live.current += 1;
    };
  }, [ready, signedIn, door, id, attempt, signIn, refused, settle]);

  /** 'Permitir' or 'Cancelar' on the consent screen; ignored while one is under way. */
  const answering = useRef(false);
  const answer = (choice: 'allow' | 'cancel') => {
    if (state.step !== 'consent' || state.busy || answering.current || !door.isId(id)) return;
    const { details } = state;
    answering.current = true;
    setState({ step: 'consent', details, busy: choice, error: null });
    void settle(
      id,
      choice,
      (message) => setState({ step: 'consent', details, busy: null, error: message }),
      details,
    ).finally(() => {
      answering.current = false;
    });
  };

  /** 'Volver a la aplicación' on a refused sign-in: the app is told the person could not sign in. */
  const leave = () => {
    if (state.step !== 'refused' || state.leaving || !door.isId(id)) return;
    const { message } = state;
    setState({ step: 'refused', message, leaving: true, error: null });
    void settle(id, 'cancel', (error) => setState({ step: 'refused', message, leaving: false, error }));
  };

  /** 'Cancelar' on the second factor the app asked for: the app is told its requirements were not met. */
  const declineSecondFactor = () => {
    if (state.step !== 'second-factor' || state.leaving || !door.isId(id)) return;
    const shown = state;
    setState({ ...shown, leaving: true, error: null });
    void settle(id, 'step-up-cancel', (error) => setState({ ...shown, leaving: false, error }));
  };

  return {
    state,
    allow: () => answer('allow'),
    /** The session proved the second factor (or set one up): the request is read again, and the page goes on. */
    secondFactorProved: () => {
      checkingSecondFactor.current = true;
      setAttempt((n) => n + 1);
    },
    declineSecondFactor,
    cancel: () => answer('cancel'),
    leave,
    retry: () => setAttempt((n) => n + 1),
  };
}
