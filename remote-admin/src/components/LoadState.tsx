import type { ReactNode } from 'react';
import { Alert, LoadFailed, Spinner } from '@portal/shared';

/**
 * What a section shows for one loaded list, in the same order everywhere: the failure with a retry while nothing is
 * loaded (an alert when there is no `reload`), the failure of a later load above what is still shown (never a silent
 * one), a spinner while loading (with `loading`), the empty text, else `children` with the data.
 */
export function LoadState<T>({
  state: { data, error, reload },
  loading,
  empty,
  isEmpty = isEmptyList,
  children,
}: {
  /** What `useLoad` answers: the data, the failure, and the retry (none, an alert instead of a retry). */
  state: { data: T | null | undefined; error: string | null; reload?: () => void };
  /** The spinner's label; none, no spinner. */
  loading?: string;
  empty: string;
  /** Whether the data has nothing to list; by default, an empty array or a page with an empty `data`. */
  isEmpty?: (data: T) => boolean;
  children: (data: T) => ReactNode;
}) {
  const loaded = data ?? null;
  return (
    <>
      {error && !loaded && (reload ? <LoadFailed message={error} onRetry={reload} /> : <Alert>{error}</Alert>)}
      {error && loaded && <Alert>{error}</Alert>}
      {!loaded && !error && loading && <Spinner label={loading} />}
      {loaded && (isEmpty(loaded) ? <p>{empty}</p> : children(loaded))}
    </>
  );
}

function isEmptyList(data: unknown): boolean {
  const list = Array.isArray(data) ? data : (data as { data?: unknown }).data;
  return Array.isArray(list) && list.length === 0;
}
