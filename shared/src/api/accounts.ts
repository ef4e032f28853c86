import type { User, UserStatus } from '../types/entities';
import { FALLBACK } from '../messages/es';
import { request } from './client';
import { API_PATHS } from './paths';

/** The account calls of spec §7 used by the sign-in screens and the profile (login, user and logout are in auth.ts). */

export interface RegistrationPayload {
  email: string;
  password: string;
  name: string;
  lastName: string;
  phone: string;
}

export interface VerifiedSession {
  access_token: string;
  user: User;
}

export function login(email: string, password: string): Promise<{ access_token: string }> {
  return request('post', API_PATHS.auth.login, { json: { email: email.trim(), password }, fallback: FALLBACK.login });
}

export function register(payload: RegistrationPayload): Promise<{ email: string }> {
  return request('post', API_PATHS.auth.register, { json: payload, fallback: FALLBACK.register });
}

export function verifyRegistration(email: string, code: string): Promise<VerifiedSession> {
  return request('post', API_PATHS.auth.verifyRegistration, { json: { email, code }, fallback: FALLBACK.verifyCode });
}

export function resendVerification(email: string): Promise<unknown> {
  return request('post', API_PATHS.auth.resendVerification, { json: { email }, fallback: FALLBACK.resend });
}

/** Registration step 1: the account behind an email, or null when there is none. */
export function checkEmail(email: string): Promise<{ email: string; status: UserStatus | string } | null> {
  return request('post', API_PATHS.auth.checkEmail, { json: { email }, fallback: FALLBACK.unexpected });
}

/** Also the reset page's 'Reenviar código', which has its own fallback message. */
export function forgotPassword(email: string, fallback: string = FALLBACK.forgotPassword): Promise<{ message: string }> {
  return request('post', API_PATHS.auth.forgotPassword, { json: { email }, fallback });
}

export function changePassword(email: string, code: string, newPassword: string): Promise<{ message: string }> {
  return request('post', API_PATHS.auth.changePassword, {
    json: { email, code, newPassword },
    fallback: FALLBACK.changePassword,
  });
}

/** Answers with a new token for this session: the one presented stops working (API.md). */
export function updatePassword(currentPassword: string, newPassword: string): Promise<{ message: string; access_token?: string }> {
  return request('post', API_PATHS.auth.updatePassword, {
    json: { currentPassword, newPassword },
    fallback: FALLBACK.updatePassword,
  });
}

/** Spec §3: the profile update sends idUsuario, name and phone, and answers with the user. */
export function updateUserInfo(idUsuario: number, name: string, phone: string): Promise<{ user: User }> {
  return request('post', API_PATHS.auth.updateUser, {
    json: { idUsuario, name, phone },
    fallback: FALLBACK.updateProfile,
  });
}

/** Where the Google or Apple buttons send the browser: the server starts the provider's flow. */
export function socialSignInUrl(apiBaseUrl: string, provider: 'google' | 'apple', redirectUrl?: string | null): string {
  const url = new URL(`${apiBaseUrl}/${provider === 'google' ? API_PATHS.auth.google : API_PATHS.auth.apple}`);
  if (redirectUrl) url.searchParams.set('redirect_url', redirectUrl);
  return url.toString();
}

/** Spec §7: the Google callback with the provider's code answers with a token. */
export function googleCallback(code: string): Promise<{ access_token: string }> {
  return request('get', API_PATHS.auth.googleCallback, { searchParams: { code }, fallback: FALLBACK.googleCallback });
}
