import { FALLBACK, getSecurityStatus, type SecurityStatus } from '@portal/shared';
import { useLoad } from '../../../hooks/useLoad';

export interface SecurityState {
  status: SecurityStatus | null;
  error: string | null;
  /** Reads the status again (after a factor was added or removed). */
  reload: () => Promise<void>;
}

/** The account's second factors (`GET auth/seguridad`), read when the tab opens and after each change. */
export function useSecurityStatus(): SecurityState {
  const { data: status, error, reload } = useLoad(getSecurityStatus, FALLBACK.security);
  return { status, error, reload };
}
