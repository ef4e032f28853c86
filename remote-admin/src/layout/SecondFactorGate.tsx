import { useCallback, useEffect, useState } from 'react';
import {
  Button,
  ButtonLink,
  errorMessage,
  FALLBACK,
  getSecurityStatus,
  NoticeCard,
  onSecondFactorGate,
  type SecondFactorGate,
  secondFactorGate,
  Spinner,
  TEXT,
} from '@portal/shared';
import { TEXT_LAYOUT } from './texts';

/** Where the person sets up a factor: the profile's 'Seguridad' tab. */
export const SECURITY_TAB_PATH = '/perfil?tab=seguridad';

export type GateState =
  | { kind: 'loading' }
  | { kind: 'error'; message: string }
  | { kind: 'ready'; gate: SecondFactorGate };

/**
 * Whether this administrator may use the panel in this session (`GET auth/seguridad`, read when `enabled`),
 * and the API's word on any later admin call refused for want of the second factor.
 */
export function useSecondFactorGate(enabled: boolean): { state: GateState; retry: () => void } {
  const [state, setState] = useState<GateState>({ kind: 'loading' });

  const load = useCallback(async () => {
    setState({ kind: 'loading' });
    try {
      setState({ kind: 'ready', gate: secondFactorGate(await getSecurityStatus()) });
    } catch (caught) {
      setState({ kind: 'error', message: errorMessage(caught, FALLBACK.security) });
    }
  }, []);

  useEffect(() => {
    if (enabled) void load();
  }, [enabled, load]);

  useEffect(
    () =>
      onSecondFactorGate((code) =>
        setState({ kind: 'ready', gate: code === 'SECOND_FACTOR_SETUP_REQUIRED' ? 'setup' : 'session' }),
      ),
    [],
  );

  return { state, retry: () => void load() };
}

/** What stands in for the admin page while the gate is read, when it failed, or when it is closed. */
export function GateCard({ state, retry, signOut }: { state: GateState; retry: () => void; signOut: () => void }) {
  if (state.kind === 'loading') return <Spinner label={TEXT.loading} />;
  if (state.kind === 'error') {
    return (
      <NoticeCard title={TEXT_LAYOUT.securityErrorTitle} detail={state.message}>
        <Button onClick={retry}>{TEXT.retry}</Button>
      </NoticeCard>
    );
  }
  if (state.gate === 'setup') {
    return (
      <NoticeCard title={TEXT_LAYOUT.setupSecondFactorTitle} detail={TEXT_LAYOUT.setupSecondFactorDetail}>
        <ButtonLink to={SECURITY_TAB_PATH}>{TEXT_LAYOUT.setupSecondFactorAction}</ButtonLink>
      </NoticeCard>
    );
  }
  return (
    <NoticeCard title={TEXT_LAYOUT.confirmIdentityTitle} detail={TEXT_LAYOUT.confirmIdentityDetail}>
      <Button onClick={signOut}>{TEXT_LAYOUT.confirmIdentityAction}</Button>
    </NoticeCard>
  );
}
