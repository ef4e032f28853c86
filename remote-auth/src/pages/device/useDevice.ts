import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { ApiError, type DeviceRequest, errorMessage, storePendingDevice, useSession } from '@portal/shared';
import { answerDeviceCode, DEVICE_FALLBACK, lookUpDeviceCode } from '../../interaction/api';
import { SECOND_FACTOR_NOT_YET } from '../../second-factor/StepUpScreen';

/** What /dispositivo shows. */
export type DeviceState =
  | { step: 'loading' }
  | { step: 'enter'; busy: boolean; error: string | null }
  | { step: 'confirm'; request: DeviceRequest; busy: 'allow' | 'refuse' | null; error: string | null }
  /** The app asked for a second factor this session has not proved: the person proves one before answering. */
  | { step: 'second-factor'; request: DeviceRequest; leaving: boolean; error: string | null }
  | { step: 'done'; allowed: boolean; app: string };

type Session = ReturnType<typeof useSession.getState>;
/** The session is known: start-up has checked a kept token (the page is public, so it renders before that). */
const sessionSettled = (s: Session) => s.isInitialized && !(s.isLoading && !s.user);
const isSignedIn = (s: Session) => s.isAuthenticated && Boolean(s.token) && s.user !== null;

/**
 * /dispositivo[?codigo=…] (docs/decisions/0086-device-sign-in.md): a signed-out person signs in first and comes back
 * with the code; a code in the address is looked up at once, but only ever shown: nothing is granted until the person
 * presses 'Permitir' on the screen that names the app, what it asks and the device's address.
 */
export function useDevice(fromAddress: string) {
  const navigate = useNavigate();
  const ready = useSession(sessionSettled);
  const signedIn = useSession(isSignedIn);
  const [codigo, setCodigo] = useState(fromAddress);
  const [state, setState] = useState<DeviceState>({ step: 'loading' });
  // Answers that arrive after the page moved on change nothing.
  const live = useRef(0);
  // Sent to sign in once: the page may render again on the way out, with the address already /login's.
  const leaving = useRef(false);

  /** `checked`: read again after the person said the second factor was proved, so a still unproved one says so. */
  const lookUp = useCallback(async (typed: string, checked = false) => {
    const round = ++live.current;
    setState(checked ? { step: 'loading' } : { step: 'enter', busy: true, error: null });
    try {
      const request = await lookUpDeviceCode(typed);
      if (round !== live.current) return;
      if (request.segundoFactor)
        setState({ step: 'second-factor', request, leaving: false, error: checked ? SECOND_FACTOR_NOT_YET : null });
      else setState({ step: 'confirm', request, busy: null, error: null });
    } catch (caught) {
      if (round === live.current)
        setState({ step: 'enter', busy: false, error: errorMessage(caught, DEVICE_FALLBACK.lookup) });
    }
  }, []);

  useEffect(() => {
    if (!ready) return;
    if (leaving.current) return;
    if (!signedIn) {
      leaving.current = true;
      storePendingDevice(fromAddress);
      navigate('/login', { replace: true });
      return;
    }
    if (fromAddress) void lookUp(fromAddress);
    else setState({ step: 'enter', busy: false, error: null });
  }, [ready, signedIn, fromAddress, lookUp, navigate]);

  const answer = useCallback(
    async (allow: boolean) => {
      if (state.step !== 'confirm') return;
      const { request } = state;
      const round = ++live.current;
      setState({ step: 'confirm', request, busy: allow ? 'allow' : 'refuse', error: null });
      try {
        await answerDeviceCode(request.codigo, allow);
        if (round === live.current) setState({ step: 'done', allowed: allow, app: request.cliente.nombre });
      } catch (caught) {
        if (round !== live.current) return;
        // The app asks for a second factor this session no longer shows as proved: the request says how.
        if (caught instanceof ApiError && caught.code === 'STEP_UP_REQUIRED') void lookUp(request.codigo);
        else setState({ step: 'confirm', request, busy: null, error: errorMessage(caught, DEVICE_FALLBACK.answer) });
      }
    },
    [state, lookUp],
  );

  /** 'Cancelar' on the second factor the app asked for: the device is refused and told why. */
  const declineSecondFactor = useCallback(async () => {
    if (state.step !== 'second-factor' || state.leaving) return;
    const shown = state;
    const round = ++live.current;
    setState({ ...shown, leaving: true, error: null });
    try {
      await answerDeviceCode(shown.request.codigo, false, true);
      if (round === live.current) setState({ step: 'done', allowed: false, app: shown.request.cliente.nombre });
    } catch (caught) {
      if (round === live.current)
        setState({ ...shown, leaving: false, error: errorMessage(caught, DEVICE_FALLBACK.answer) });
    }
  }, [state]);

  const another = useCallback(() => {
    live.current += 1;
    setCodigo('');
    setState({ step: 'enter', busy: false, error: null });
  }, []);

  return {
    state,
    codigo,
    setCodigo,
    lookUp: () => lookUp(codigo),
    allow: () => answer(true),
    refuse: () => answer(false),
    /** The session proved the second factor (or set one up): the request is read again. */
    secondFactorProved: () => (state.step === 'second-factor' ? lookUp(state.request.codigo, true) : undefined),
    declineSecondFactor,
    another,
  };
}
