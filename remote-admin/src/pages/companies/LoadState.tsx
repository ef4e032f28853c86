import type { ReactNode } from 'react';
import { Alert, LoadFailed, Spinner } from '@portal/shared';

/**
 * What a section shows for one loaded list, in the same order everywhere: the failure with a retry while nothing is
 * loaded (an alert when there is no `onRetry`), the failure of a later load above what is shown (with
 * `alertWithData`), a spinner while loading (with `loading`), the empty text, else `children` with the data.
 */
export function LoadState<T>({
  data,
  error,
  onRetry,
  alertWithData = false,
  loading,
  empty,
  isEmpty = (loaded) => Array.isArray(loaded) && loaded.length === 0,
  children,
}: {
  data: T | null | undefined;
  error: string | null;
  onRetry?: () => void;
  alertWithData?: boolean;
  /** The spinner's label; none, no spinner. */
  loading?: string;
  empty: string;
  /** Whether the data has nothing to list; by default, an empty array. */
  isEmpty?: (data: T) => boolean;
  children: (data: T) => ReactNode;
}) {
  const loaded = data ?? null;
  return (
    <>
      {error && !loaded && (onRetry ? <LoadFailed message={error} onRetry={onRetry} /> : <Alert>{error}</Alert>)}
      {error && loaded && alertWithData && <Alert>{error}</Alert>}
      {!loaded && !error && loading && <Spinner label={loading} />}
      {loaded && (isEmpty(loaded) ? <p>{empty}</p> : children(loaded))}
    </>
  );
}
