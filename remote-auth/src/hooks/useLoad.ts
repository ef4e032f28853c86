import { useCallback, useEffect, useState } from 'react';
import { errorMessage } from '@portal/shared';

/**
 * What a section reads when it shows (and again on `reload`, after a change or for 'Reintentar'): the data, null until
 * it arrives, and the message of a failed read (the API's, else `fallback`), null once a read succeeds.
 */
export function useLoad<T>(read: () => Promise<T>, fallback: string) {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);

  const reload = useCallback(async () => {
    try {
      setData(await read());
      setError(null);
    } catch (caught) {
      setError(errorMessage(caught, fallback));
    }
  }, [read, fallback]);

  useEffect(() => {
    void reload();
  }, [reload]);

  return { data, error, reload };
}
