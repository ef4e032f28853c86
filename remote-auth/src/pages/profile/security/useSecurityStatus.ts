import { useCallback, useEffect, useState } from 'react';
import { errorMessage, FALLBACK, getSecurityStatus, type SecurityStatus } from '@portal/shared';

export interface SecurityState {
  status: SecurityStatus | null;
  error: string | null;
  /** Reads the status again (after a factor was added or removed). */
  reload: () => Promise<void>;
}

/** The account's second factors (`GET auth/seguridad`), read when the tab opens and after each change. */
export function useSecurityStatus(): SecurityState {
  const [status, setStatus] = useState<SecurityStatus | null>(null);
  const [error, setError] = useState<string | null>(null);
  const reload = useCallback(async () => {
    try {
      setStatus(await getSecurityStatus());
      setError(null);
    } catch (caught) {
      setError(errorMessage(caught, FALLBACK.security));
    }
  }, []);
  useEffect(() => {
    void reload();
  }, [reload]);
  return { status, error, reload };
}
