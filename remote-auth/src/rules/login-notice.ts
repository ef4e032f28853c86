import { SUSPENDED_LOGIN_ERROR } from '@portal/shared';
import type { TimedMessage } from '@portal/shared';
import { providerUnavailable } from '../texts';

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
  // The company's own sign-in refused the person (the API adds `provider=empresa`; docs/decisions/0080).
  company_email_unverified: 'Tu empresa no ha confirmado tu correo: no puedes iniciar sesión con su acceso.',
  company_domain_mismatch: 'Tu correo no pertenece a los dominios que el acceso de tu empresa tiene autorizados.',
  company_other_account:
    'Ese correo pertenece a una cuenta gestionada por otra empresa. Pide ayuda al administrador de tu empresa.',
  company_access_disabled: 'Tu empresa ha desactivado tu acceso al portal.',
  company_unavailable: 'El acceso de tu empresa no está disponible en este momento. Inténtalo más tarde.',
  company_rate_limited: 'Demasiados intentos de inicio de sesión desde tu red. Espera un minuto e inténtalo de nuevo.',
};

/** A failed Apple sign-in names Apple (the API adds `provider=apple`; Google keeps the spec's address). */
export const APPLE_AUTH_FAILED = 'Error en la autenticación con Apple. Por favor, inténtalo de nuevo.';

/** A failed sign-in with the company's own access names it, not Google (`provider=empresa`). */
export const COMPANY_AUTH_FAILED = 'No se pudo iniciar sesión con el acceso de tu empresa. Inténtalo de nuevo.';

/** auth_failed's message for the provider the API names: Apple, the company's access, else Google (the spec's). */
export function authFailedText(provider: string | null): string {
  if (provider === 'apple') return APPLE_AUTH_FAILED;
  if (provider === 'empresa') return COMPANY_AUTH_FAILED;
  return LOGIN_ERRORS.auth_failed as string;
}

/** The banner above the form: a social sign-in error from the address, else registration's message. */
export function loginNotice(
  errorParam: string | null,
  state: LoginNoticeState | null,
  provider: string | null = null,
): TimedMessage | null {
  if (errorParam === 'provider_unavailable')
    return { tone: 'info', text: providerUnavailable(provider === 'apple' ? 'apple' : 'google') };
  const socialError =
    errorParam === 'auth_failed'
      ? authFailedText(provider)
      : errorParam && Object.hasOwn(LOGIN_ERRORS, errorParam) && LOGIN_ERRORS[errorParam];
  if (socialError) return { tone: 'error', text: socialError };
  if (state?.message) return { tone: state.tone ?? 'info', text: state.message };
  return null;
}
