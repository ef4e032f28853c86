import { useEffect, useRef, useState } from 'react';
import type { Session } from '@portal/shared';
import { type PasskeysUnavailable, passkeysUnavailableHere } from './place';
import { finishPasskeySignIn, passkeyFailure, passkeySignInOptions } from './sign-in';
import { cancelPasskeyCeremony, signWithPasskey, supportsPasskeyAutofill, supportsPasskeys } from './webauthn';

export interface PasskeySupport {
  /** Whether passkeys can be used here: null until known (the library loads on demand). */
  usable: boolean | null;
  /** When it is this page's address that cannot use them (an IP address, plain http): why, and where they work. */
  elsewhere: PasskeysUnavailable | null;
}

/**
 * Whether this page can use passkeys: its address first (a page on an IP address never can, whatever the browser),
 * then the browser. Known after the first render, so a prerendered page hydrates as it was built.
 */
export function usePasskeySupport(): PasskeySupport {
  const [support, setSupport] = useState<PasskeySupport>({ usable: null, elsewhere: null });
  useEffect(() => {
    const elsewhere = passkeysUnavailableHere();
    if (elsewhere) {
      setSupport({ usable: false, elsewhere });
      return;
    }
    let active = true;
    void supportsPasskeys().then((usable) => active && setSupport({ usable, elsewhere: null }));
    return () => {
      active = false;
    };
  }, []);
  return support;
}

/**
 * Passkeys among the email field's suggestions (a conditional ceremony, for a field with autocomplete
 * 'username webauthn'): a pick signs in through `onSignedIn`. It stays silent unless the person picked a passkey and
 * the sign-in then failed (`onFailure`); it ends when the page goes. `round`: null while the email field is not on
 * screen (the offer ends); each other value starts a new offer (back from the second step, or after the passkey
 * button's own ceremony, which ended this one).
 */
export function usePasskeyAutofill(
  onSignedIn: (session: Session) => void,
  onFailure: (message: string) => void,
  round: number | null = 0,
): void {
  const handlers = useRef({ onSignedIn, onFailure });
  handlers.current = { onSignedIn, onFailure };

  useEffect(() => {
    if (round === null) return;
    let active = true;
    const run = async () => {
      if (passkeysUnavailableHere() || !(await supportsPasskeyAutofill()) || !active) return;
      let ceremony: Awaited<ReturnType<typeof passkeySignInOptions>>;
      let response: Awaited<ReturnType<typeof signWithPasskey>>;
      try {
        ceremony = await passkeySignInOptions();
        if (!active) return;
        response = await signWithPasskey(ceremony.options, true);
      } catch {
        // No challenge, or the suggestion was never picked (cancelled for a dialog, the page left): nothing to say.
        return;
      }
      try {
        const session = await finishPasskeySignIn(ceremony.ceremonyId, response);
        if (active) handlers.current.onSignedIn(session);
      } catch (error) {
        if (active) handlers.current.onFailure(passkeyFailure(error));
      }
    };
    void run();
    return () => {
      active = false;
      cancelPasskeyCeremony();
    };
  }, [round]);
}
