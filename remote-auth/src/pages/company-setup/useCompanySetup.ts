import { useCallback, useEffect, useState } from 'react';
import { ApiError, getSetupPage, type SetupPage } from '@portal/shared';
import { forgetSetupSecret, keepSetupSecret, readSetupSecret, readTestResult } from './setup-secret';

/** What /configurar-empresa shows: loading, the company's three steps, or why the link opens nothing. */
export type SetupState =
  | { step: 'loading' }
  | { step: 'ready'; secret: string; page: SetupPage }
  | { step: 'closed'; reason: 'invalid' | 'expired' | 'revoked'; message: string | null }
  | { step: 'failed'; message: string };

/**
 * The page's secret (read from the fragment, kept for the tab, off the address bar) and the page's data read with it.
 * An unknown link (401) is forgotten; an expired or revoked one (410) says so, naming who to ask (the API's message).
 */
export function useCompanySetup() {
  const [secret] = useState(readSetupSecret);
  const [testResult] = useState(readTestResult);
  const [state, setState] = useState<SetupState>(() =>
    secret ? { step: 'loading' } : { step: 'closed', reason: 'invalid', message: null },
  );

  const load = useCallback(async () => {
    if (!secret) return;
    try {
      const page = await getSetupPage(secret);
      setState({ step: 'ready', secret, page });
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) {
        forgetSetupSecret();
        setState({ step: 'closed', reason: 'invalid', message: error.message });
      } else if (error instanceof ApiError && error.status === 410) {
        const reason = error.code === 'ENLACE_VENCIDO' ? 'expired' : 'revoked';
        setState({ step: 'closed', reason, message: error.message });
      } else {
        setState({ step: 'failed', message: error instanceof Error ? error.message : String(error) });
      }
    }
  }, [secret]);

  useEffect(() => {
    if (secret) keepSetupSecret(secret);
    void load();
  }, [secret, load]);

  const retry = useCallback(() => {
    setState({ step: 'loading' });
    void load();
  }, [load]);

  /** Reads the page's data again after a change (a domain proved, the provider saved). */
  const reload = useCallback(() => void load(), [load]);

  return { state, retry, reload, testResult };
}
