import { useCallback, useState } from 'react';

/** Which of a list's rows have their panel open ('Eventos', 'Roles'): each opens and closes on its own. */
export function useToggleSet<K>() {
  const [open, setOpen] = useState<ReadonlySet<K>>(new Set());
  const toggle = useCallback(
    (key: K) =>
      setOpen((current) => {
        const next = new Set(current);
        if (!next.delete(key)) next.add(key);
        return next;
      }),
    [],
  );
  return [open, toggle] as const;
}
