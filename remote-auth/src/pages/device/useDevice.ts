import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { type DeviceRequest, errorMessage, storePendingDevice, useSession } from '@portal/shared';
import { answerDeviceCode, DEVICE_FALLBACK, lookUpDeviceCode } from '../../interaction/api';

/** What /dispositivo shows. */
export type DeviceState =
  | { step: 'loading' }
  | { step: 'enter'; busy: boolean; error: string | null }
  | { step: 'confirm'; request: DeviceRequest; busy: 'allow' | 'refuse' | null; error: string | null }
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

  const lookUp = useCallback(async (typed: string) => {
    const round = ++live.current;
    setState({ step: 'enter', busy: true, error: null });
    try {
      const request = await lookUpDeviceCode(typed);
      if (round === live.current) setState({ step: 'confirm', request, busy: null, error: null });
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
        if (round === live.current)
          setState({ step: 'confirm', request, busy: null, error: errorMessage(caught, DEVICE_FALLBACK.answer) });
      }
    },
    [state],
  );

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
    another,
  };
}
