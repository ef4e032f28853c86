/** Spec §4: how a user's status reads; unknown values are shown as they are, a missing one as 'Sin estado'. */
const LABELS: Record<string, string> = {
  active: 'Activo',
  pending_verification: 'Pendiente Verificación',
  suspended: 'Suspendido',
};

export function statusLabel(status: string | null | undefined): string {
  if (status === null || status === undefined || status === '') return 'Sin estado';
  return LABELS[status] ?? status;
}

/** The options of the status filter; '' is "all" (the status is then left out of the query). */
export const STATUS_FILTER_OPTIONS: readonly {
  value: '' | 'active' | 'pending_verification' | 'suspended';
  label: string;
}[] = [
  { value: '', label: 'Todos' },
  { value: 'active', label: 'Activo' },
  { value: 'pending_verification', label: 'Pendiente Verificación' },
  { value: 'suspended', label: 'Suspendido' },
];
