import { useCallback, useEffect, useRef, useState } from 'react';
import { ADMIN_ALERT_MS, type AlertTone } from '@portal/shared';

export interface TimedAlert {
  tone: AlertTone;
  text: string;
}

/** An alert that clears itself after 5 s (spec §8, §9); a new one restarts the clock. */
export function useTimedAlert(ms = ADMIN_ALERT_MS) {
  const [alert, setAlert] = useState<TimedAlert | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const show = useCallback(
    (tone: AlertTone, text: string) => {
      clearTimeout(timer.current);
      setAlert({ tone, text });
      timer.current = setTimeout(() => setAlert(null), ms);
    },
    [ms],
  );

  useEffect(() => () => clearTimeout(timer.current), []);
  return [alert, show] as const;
}
