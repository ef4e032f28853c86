import { useCallback, useEffect, useRef, useState } from 'react';
import type { AlertTone } from './Alert';

export interface TimedMessage {
  tone: AlertTone;
  text: string;
}

export type ShowMessage = (next: TimedMessage | null) => void;

/**
 * A message that clears itself after `ms` (spec §4, §8, §9: banners and admin alerts go after 5 s); a new one restarts
 * the clock, `null` clears it at once.
 */
export function useTimedMessage(ms: number) {
  const [message, setMessage] = useState<TimedMessage | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const show: ShowMessage = useCallback(
    (next: TimedMessage | null) => {
      clearTimeout(timer.current);
      setMessage(next);
      if (next) timer.current = setTimeout(() => setMessage(null), ms);
    },
    [ms],
  );

  useEffect(() => () => clearTimeout(timer.current), []);
  return [message, show] as const;
}
