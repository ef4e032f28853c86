import { API_PATHS, type RecoveryCodes, request, type TotpSetup } from '@portal/shared';

/** The authenticator app of the 'Seguridad' tab (TwoFactorSection). Codes go without the spaces typed. */

const compact = (code: string) => code.replace(/\s+/g, '');

/** A code of the app: six digits (spaces aside). */
export function isTotpCode(code: string): boolean {
  return /^[0-9]{6}$/.test(compact(code));
}

/** A new secret and its QR, not in use until confirmed with a code of the app. */
export function startTotp(): Promise<TotpSetup> {
  return request('post', API_PATHS.auth.totp, { fallback: 'No se pudo preparar la aplicación de autenticación' });
}

/** Turns the app on; answers the ten recovery codes, shown once. */
export function confirmTotp(code: string): Promise<RecoveryCodes> {
  return request('post', API_PATHS.auth.confirmTotp, {
    json: { code: compact(code) },
    fallback: 'No se pudo activar la aplicación de autenticación',
  });
}

/** Removes the app (and its recovery codes) with a code of the app or a recovery code. */
export function disableTotp(code: string): Promise<void> {
  return request('delete', API_PATHS.auth.totp, {
    json: { code: compact(code) },
    fallback: 'No se pudo desactivar la aplicación de autenticación',
  });
}

/** Ten new recovery codes in place of the old ones. */
export function renewRecoveryCodes(code: string): Promise<RecoveryCodes> {
  return request('post', API_PATHS.auth.recoveryCodes, {
    json: { code: compact(code) },
    fallback: 'No se pudieron generar códigos nuevos',
  });
}
