import { TEXT_RULES } from './texts';

/** Spec §4: how a user's status reads; unknown values are shown as they are, a missing one as 'Sin estado'. */
const LABELS: Record<string, string> = {
  active: TEXT_RULES.statusActive,
  pending_verification: TEXT_RULES.statusPending,
  suspended: TEXT_RULES.statusSuspended,
};

export function statusLabel(status: string | null | undefined): string {
  if (status === null || status === undefined || status === '') return TEXT_RULES.noStatus;
  return LABELS[status] ?? status;
}

/** The options of the status filter; '' is "all" (the status is then left out of the query). */
export const STATUS_FILTER_OPTIONS: readonly {
  value: '' | 'active' | 'pending_verification' | 'suspended';
  label: string;
}[] = [
  { value: '', label: TEXT_RULES.allStatuses },
  { value: 'active', label: TEXT_RULES.statusActive },
  { value: 'pending_verification', label: TEXT_RULES.statusPending },
  { value: 'suspended', label: TEXT_RULES.statusSuspended },
];
