import { useCallback, useRef, useState } from 'react';
import type { ShowMessage, TimedMessage } from '../ui/useTimedMessage';

/** One send of a form: what was wrong before sending, the call, and the words for each outcome. */
export interface Submission<T> {
  /** The form's own refusal (shown as an error, nothing is sent); null or undefined when the form may be sent. */
  problem?: string | null;
  call: () => Promise<T>;
  /** Runs after the call succeeded (awaited); a string it returns is shown as a success. */
  success?: (result: T) => unknown;
  /** The error to show for a failed call; null when the caller handled the failure itself (showing nothing). */
  failure: (caught: unknown) => string | null;
  /**
   * 'done' (default): after a success the form stays busy, because it moves on (navigation, a closing dialog);
   * 'ready': the form can be sent again.
   */
  afterSuccess?: 'done' | 'ready';
}

/**
 * The sequence every form of the portal repeats: refuse what the form can judge itself, mark the form busy, call,
 * then show the server's words (or the caller's fallback). A send while one is under way is ignored.
 * `show` routes the messages elsewhere (a timed banner, a page-level alert); by default the hook keeps them.
 */
export function useSubmit(show?: ShowMessage) {
  const [busy, setBusy] = useState(false);
  const [own, setOwn] = useState<TimedMessage | null>(null);
  const sending = useRef(false);
  const showMessage: ShowMessage = show ?? setOwn;

  const submit = useCallback(
    async <T>({ problem, call, success, failure, afterSuccess = 'done' }: Submission<T>): Promise<boolean> => {
      if (sending.current) return false;
      if (problem) {
        showMessage({ tone: 'error', text: problem });
        return false;
      }
      const release = () => {
        sending.current = false;
        setBusy(false);
      };
      sending.current = true;
      setBusy(true);
      showMessage(null);
      try {
        const result = await call();
        const text = await success?.(result);
        if (typeof text === 'string' && text) showMessage({ tone: 'success', text });
        if (afterSuccess === 'ready') release();
        return true;
      } catch (caught) {
        const text = failure(caught);
        if (text !== null) showMessage({ tone: 'error', text });
        release();
        return false;
      }
    },
    [showMessage],
  );

  return { busy, message: own, showMessage, submit };
}
