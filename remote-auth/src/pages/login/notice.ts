import { SUSPENDED_LOGIN_ERROR } from '@portal/shared';
import type { TimedMessage } from '@portal/shared';
import { providerUnavailable } from '../../texts';

/**
 * A navigation notice: what registration passes to /login (spec §2, §4), and /login to /verify-email; a changed
 * password passes /login its address too.
 */
export interface LoginNoticeState {
  message?: string;
  tone?: TimedMessage['tone'];
  email?: string;
}

export const LOGIN_ERRORS: Record<string, string> = {
  auth_failed: 'Error en la autenticación con Google. Por favor, inténtalo de nuevo.',
  token_invalid: 'Token de autenticación inválido. Por favor, inicia sesión nuevamente.',
  // The session ended because an administrator suspended the account (the API's 403 USER_SUSPENDED).
  [SUSPENDED_LOGIN_ERROR]: 'Tu cuenta está suspendida. Contacta con soporte.',
};

/** A failed Apple sign-in names Apple (the API adds `provider=apple`; Google keeps the spec's address). */
export const APPLE_AUTH_FAILED = 'Error en la autenticación con Apple. Por favor, inténtalo de nuevo.';

/** The banner above the form: a social sign-in error from the address, else registration's message. */
export function loginNotice(
  errorParam: string | null,
  state: LoginNoticeState | null,
  provider: string | null = null,
): TimedMessage | null {
  if (errorParam === 'provider_unavailable')
    return { tone: 'info', text: providerUnavailable(provider === 'apple' ? 'apple' : 'google') };
  const socialError =
    errorParam === 'auth_failed' && provider === 'apple' ? APPLE_AUTH_FAILED : errorParam && LOGIN_ERRORS[errorParam];
  if (socialError) return { tone: 'error', text: socialError };
  if (state?.message) return { tone: state.tone ?? 'info', text: state.message };
  return null;
}
