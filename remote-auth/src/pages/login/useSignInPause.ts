import { useEffect, useRef, useState } from 'react';
import { normalizedEmail, pauseLeft, type SignInPause } from '../../rules/sign-in-lock';

/**
 * The pause the API gave an address after wrong passwords (docs/decisions/0010): seconds left for the address typed
 * now, and `onEnd` once it is over. Trying during it would only read 'Credenciales inválidas' again, whatever the
 * password.
 */
export function useSignInPause(email: string, onEnd: () => void) {
  const [pause, setPause] = useState<SignInPause | null>(null);
  const [now, setNow] = useState(() => Date.now());
  const ended = useRef(onEnd);
  ended.current = onEnd;

  useEffect(() => {
    if (!pause) return undefined;
    // Every second from the pause's start, which the API gives in whole seconds: the time shown changes when a
    // whole second has gone.
    const tick = setInterval(() => {
      const at = Date.now();
      setNow(at);
      if (at < pause.until) return;
      clearInterval(tick);
      setPause(null);
      ended.current();
    }, 1000);
    return () => clearInterval(tick);
  }, [pause]);

  return {
    /** Seconds left for the address typed now (0: none, or another address's). */
    left: pauseLeft(pause, email, now),
    start(address: string, seconds: number) {
      const at = Date.now();
      setNow(at);
      setPause({ email: normalizedEmail(address), until: at + seconds * 1000 });
    },
  };
}
