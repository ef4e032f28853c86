import { type DependencyList, useState } from 'react';
import styled from 'styled-components';
import { Button, errorMessage, theme } from '@portal/shared';
import type { CursorPage } from '../api/company-types';
import { useLoad } from '../hooks/useLoad';
import { TEXT_ADMIN } from '../texts';

/**
 * A list the API gives a cursor page at a time: the first page loaded again when `deps` change or on `reload`;
 * `loadMore` appends the next page (its failure, in Spanish, becomes `error` above what is shown).
 */
export function useCursorList<T, P extends { data: T[]; siguiente: string | null } = CursorPage<T>>(
  load: (cursor: string | null) => Promise<P>,
  fallback: string,
  deps: DependencyList,
) {
  const list = useLoad(() => load(null), fallback, deps);
  const [loadingMore, setLoadingMore] = useState(false);
  const { data, setData, setError } = list;
  const loadMore = async () => {
    if (!data?.siguiente) return;
    setLoadingMore(true);
    try {
      const page = await load(data.siguiente);
      setData({ ...page, data: [...data.data, ...page.data] });
    } catch (failure) {
      setError(errorMessage(failure, fallback));
    } finally {
      setLoadingMore(false);
    }
  };
  return { ...list, loadingMore, loadMore };
}

const Bar = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  justify-content: space-between;
  gap: 12px;
  margin-top: 12px;
  p { margin: 0; color: ${theme.color.muted}; }
`;

/** Under a cursor list: how many are shown of how many (said politely), and 'Cargar más' while there are more. */
export function LoadMore({
  shown,
  more,
  busy,
  onMore,
}: {
  shown: string;
  more: boolean;
  busy: boolean;
  onMore(): void;
}) {
  return (
    <Bar>
      <p aria-live="polite">{shown}</p>
      {more && (
        <Button $variant="secondary" disabled={busy} onClick={onMore}>
          {TEXT_ADMIN.loadMore}
        </Button>
      )}
    </Bar>
  );
}
