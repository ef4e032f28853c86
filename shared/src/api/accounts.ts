import type { ConfiguredProviders, RegisterAnswer, User, UserStatus } from '../types/entities';
import { FALLBACK } from '../messages/es';
import { forgetRegistration, registrationIdFor, rememberRegistration } from '../session/registrations';
import { startResendCooldown } from '../session/resend-cooldown';
import { ApiError, request } from './client';
import { API_PATHS } from '@portal/contracts/api/paths';

/** The account calls of spec §7 used by the sign-in screens and the profile (login, user and logout are in auth.ts). */

export interface RegistrationPayload {
  email: string;
  password: string;
  name: string;
  lastName: string;
  phone: string;
  /** The 6-digit code of a company invitation to this email: it proves the address, so no emailed code follows. */
  codigoInvitacion?: string;
}

/** What a registration answers: the code step's data, or a session at once when an invitation proved the address. */
export type Registered = RegisterAnswer;

export interface VerifiedSession {
  access_token: string;
  user: User;
  /** false: the account was activated without a password (this browser held no registration id for the email). */
  passwordSet?: boolean;
}

/**
 * A pending account answers EMAIL_NOT_VERIFIED with the id of the registration whose password was typed: this
 * browser keeps it, so the code then activates that password (API.md).
 */
/** Spec §3 login payload; the answer carries the user beside the token, so a sign-in is one round trip. */
export async function login(email: string, password: string): Promise<{ access_token: string; user: User }> {
  try {
    return await request('post', API_PATHS.auth.login, {
      json: { email: email.trim(), password },
      fallback: FALLBACK.login,
      // A trusted device's cookie skips the second step (docs/decisions/0143-trusted-devices.md).
      credentials: 'include',
    });
  } catch (error) {
    if (error instanceof ApiError && error.code === 'EMAIL_NOT_VERIFIED' && error.registrationId) {
      rememberRegistration(email, error.registrationId);
    }
    throw error;
  }
}

/** Keeps the answered registration id in this browser for the verification page (session/registrations.ts). */
export async function register(payload: RegistrationPayload): Promise<Registered> {
  const registered = await request<Registered>('post', API_PATHS.auth.register, {
    json: payload,
    fallback: FALLBACK.register,
  });
  // Proved by an invitation: the account is active and signed in, with no code to wait for.
  if ('access_token' in registered) return registered;
  if (registered.registrationId) rememberRegistration(registered.email || payload.email, registered.registrationId);
  // The verification page counts down the server's wait before 'Reenviar código' can mail again.
  startResendCooldown('verify_email', registered.email || payload.email, registered.resendAfter);
  return registered;
}

/** The password and profile typed beside the code on a device that did not register (API: `profile`). */
export interface AccountProfile {
  name: string;
  lastName: string;
  /** E.164. */
  phone: string;
  password: string;
}

/** The API's refusal of a registration id it no longer has, sent without a profile: the code was not used. */
export const REGISTRATION_EXPIRED_CODE = 'REGISTRATION_EXPIRED';

/**
 * Sends the code with this browser's registration id for the email: the account gets the password typed here. A
 * browser without one (the registration was made on another device) sends the `profile` its person typed with the
 * code instead. `passwordSet: false` means the account came out with no password (neither was sent). An id the
 * server refuses as no longer kept (`REGISTRATION_EXPIRED_CODE`) is forgotten, so the next try sends the profile.
 */
export async function verifyRegistration(
  email: string,
  code: string,
  profile?: AccountProfile,
): Promise<VerifiedSession> {
  const registrationId = registrationIdFor(email);
  try {
    const verified = await request<VerifiedSession>('post', API_PATHS.auth.verifyRegistration, {
      json: { email, code, ...(registrationId ? { registrationId } : profile ? { profile } : {}) },
      fallback: FALLBACK.verifyCode,
    });
    forgetRegistration(email);
    return verified;
  } catch (error) {
    if (error instanceof ApiError && error.code === REGISTRATION_EXPIRED_CODE) forgetRegistration(email);
    throw error;
  }
}

/** Asks for a new verification code; either way, the server's wait before the next one is kept. */
export async function resendVerification(email: string): Promise<unknown> {
  try {
    const answer = await request<{ message?: string; resendAfter?: number } | undefined>(
      'post',
      API_PATHS.auth.resendVerification,
      {
        json: { email },
        fallback: FALLBACK.resend,
      },
    );
    startResendCooldown('verify_email', email, answer?.resendAfter);
    return answer;
  } catch (error) {
    if (error instanceof ApiError && error.retryAfter) startResendCooldown('verify_email', email, error.retryAfter);
    throw error;
  }
}

/** Registration step 1: the account behind an email, or null when there is none. */
export function checkEmail(email: string): Promise<{ email: string; status: UserStatus | string } | null> {
  return request('post', API_PATHS.auth.checkEmail, { json: { email }, fallback: FALLBACK.unexpected });
}

/** Also the reset page's 'Reenviar código', which has its own fallback message. */
export function forgotPassword(
  email: string,
  fallback: string = FALLBACK.forgotPassword,
): Promise<{ message: string }> {
  return request('post', API_PATHS.auth.forgotPassword, { json: { email }, fallback });
}

export function changePassword(email: string, code: string, newPassword: string): Promise<{ message: string }> {
  return request('post', API_PATHS.auth.changePassword, {
    json: { email, code, newPassword },
    fallback: FALLBACK.changePassword,
  });
}

/** Answers with a new token for this session: the one presented stops working (API.md). */
export function updatePassword(
  currentPassword: string,
  newPassword: string,
): Promise<{ message: string; access_token?: string }> {
  return request('post', API_PATHS.auth.updatePassword, {
    json: { currentPassword, newPassword },
    fallback: FALLBACK.updatePassword,
  });
}

/**
 * Spec §3: the profile update sends idUsuario, name and phone, and answers with the user; the last name too
 * (docs/decisions/0131-minors-from-a-browser-walk.md).
 */
export function updateUserInfo(
  idUsuario: number,
  profile: { name: string; lastName: string; phone: string },
): Promise<{ user: User }> {
  return request('post', API_PATHS.auth.updateUser, {
    json: { idUsuario, ...profile },
    // The call's own fallback (spec §8 'update info'); the profile form shows it, or its own when the call gives none.
    fallback: FALLBACK.updateInfo,
  });
}

/**
 * Where the Google or Apple buttons send the browser: the server starts the provider's flow. `binding` is the SHA-256
 * of this tab's secret (`beginSignInBinding`); without it the API refuses the start.
 */
export function socialSignInUrl(
  apiBaseUrl: string,
  provider: 'google' | 'apple',
  redirectUrl?: string | null,
  binding?: string | null,
): string {
  const url = new URL(`${apiBaseUrl}/${provider === 'google' ? API_PATHS.auth.google : API_PATHS.auth.apple}`);
  if (redirectUrl) url.searchParams.set('redirect_url', redirectUrl);
  if (binding) url.searchParams.set('binding', binding);
  return url.toString();
}

/**
 * Whether this portal's API has Google and Apple configured: asked when a button is pressed, so a provider it lacks
 * is said to be unavailable instead of failing at the API (docs/decisions/0072).
 */
export function configuredProviders(): Promise<ConfiguredProviders> {
  return request('get', API_PATHS.auth.socialProviders, { fallback: FALLBACK.unexpected });
}

/**
 * The callback page's exchange (spec §7's Google callback with a code): the one-time code of the Google/Apple return
 * and the secret of the tab that started the sign-in, by POST, for a session. Refused (400) for any other tab, a
 * second time, or after 60 s.
 */
export function exchangeSignInReturn(code: string, secret: string): Promise<{ access_token: string; user: User }> {
  return request('post', API_PATHS.auth.signInReturn, { json: { code, secret }, fallback: FALLBACK.googleCallback });
}
