import { API_PATHS, ApiError, type CeremonyOptions, type Session, request } from '@portal/shared';
import { trustField } from '../second-factor/trust-device';
import { CANCELLED, isCancelledCeremony, signWithPasskey } from './webauthn';

/** The sign-ins that follow or replace the password (the second step, a passkey). */

export const PASSKEY_SIGN_IN_FAILED = 'No se pudo iniciar sesión con esta llave de acceso';
const SECOND_STEP_FAILED = 'No se pudo verificar el código';

/** The API's code when the ticket of the second step is used up or too old: back to the password. */
export const TICKET_EXPIRED = 'SIGN_IN_TICKET_EXPIRED';

/** The second step with a 6-digit code or a recovery code (the spaces typed are taken out); `trust`: the box ticked. */
export function signInWithCode(ticket: string, code: string, trust = false): Promise<Session> {
  return request('post', API_PATHS.auth.secondStep, {
    json: { ticket, code: code.replace(/\s+/g, ''), ...trustField(trust) },
    fallback: SECOND_STEP_FAILED,
    credentials: 'include',
  });
}

/** The server's challenge for a passkey sign-in (with the ticket, the passkey is the second step of a password). */
export function passkeySignInOptions(ticket?: string): Promise<CeremonyOptions> {
  return request('post', API_PATHS.auth.passkeySignInOptions, {
    json: ticket ? { ticket } : {},
    fallback: PASSKEY_SIGN_IN_FAILED,
  });
}

/** Sends what the browser signed: answers a session like a password sign-in (a second step may trust the device). */
export function finishPasskeySignIn(
  ceremonyId: string,
  response: unknown,
  ticket?: string,
  trust = false,
): Promise<Session> {
  return request('post', API_PATHS.auth.passkeySignIn, {
    json: { ceremonyId, response, ...(ticket ? { ticket, ...trustField(trust) } : {}) },
    fallback: PASSKEY_SIGN_IN_FAILED,
    ...(ticket ? { credentials: 'include' as const } : {}),
  });
}

/** A passkey sign-in through the browser's dialog: the challenge, the person's pick, the session. */
export async function signInWithPasskey(ticket?: string, trust = false): Promise<Session> {
  const { ceremonyId, options } = await passkeySignInOptions(ticket);
  const response = await signWithPasskey(options);
  return finishPasskeySignIn(ceremonyId, response, ticket, trust);
}

/** What to tell the person about a failed passkey sign-in. */
export function passkeyFailure(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  return isCancelledCeremony(error) ? CANCELLED : PASSKEY_SIGN_IN_FAILED;
}
