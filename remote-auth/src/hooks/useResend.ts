import { useState } from 'react';
import { errorMessage, FALLBACK } from '@portal/shared';
import { resendError } from '../rules/forms';
import { RESENT } from '../texts';
import type { ShowMessage } from '@portal/shared';

/**
 * 'Reenviar código' on the verification and the reset page: checks the email, sends, and says how it went
 * ('Código reenviado exitosamente' or the server's message). `send` is the page's own call; `onSent` runs after a
 * success (the verification page starts its cooldown there).
 */
export function useResend(
  email: string,
  send: (email: string) => Promise<unknown>,
  showMessage: ShowMessage,
  onSent?: () => void,
) {
  const [resending, setResending] = useState(false);
  const resend = async () => {
    const problem = resendError(email);
    if (problem) {
      showMessage({ tone: 'error', text: problem });
      return;
    }
    setResending(true);
    try {
      await send(email);
      onSent?.();
      showMessage({ tone: 'success', text: RESENT });
    } catch (caught) {
      showMessage({ tone: 'error', text: errorMessage(caught, FALLBACK.resend) });
    } finally {
      setResending(false);
    }
  };
  return { resending, resend };
}
