import { type DependencyList, useCallback, useEffect, useState } from 'react';
import { errorMessage } from '@portal/shared';

/** One call's answer for a section: loaded again when `deps` change or on `reload`; the failure in Spanish. */
export function useLoad<T>(load: () => Promise<T>, fallback: string, deps: DependencyList) {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [reloads, setReloads] = useState(0);
  useEffect(() => {
    let current = true;
    load().then(
      (result) => {
        if (!current) return;
        setData(result);
        setError(null);
      },
      (failure) => {
        if (current) setError(errorMessage(failure, fallback));
      },
    );
    return () => {
      current = false;
    };
  }, [...deps, reloads]);
  const reload = useCallback(() => setReloads((n) => n + 1), []);
  return { data, error, reload, setData, setError };
}
