import { FALLBACK } from '../messages/es';
import type { SecurityStatus } from '../types/entities';
import { request } from './client';
import { API_PATHS } from './paths';

/** Issue 20: the account's second factors and whether this session proved one (the 'Seguridad' tab, the admin gate). */
export function getSecurityStatus(): Promise<SecurityStatus> {
  return request('get', API_PATHS.auth.security, { fallback: FALLBACK.security });
}

/** Neither an authenticator app nor a passkey. */
export function hasNoSecondFactor(status: SecurityStatus): boolean {
  return !status.totp && status.passkeys === 0;
}

/** What keeps an administrator out of the panel: no factor to prove ('setup'), or this session did not ('session'). */
export type SecondFactorGate = 'setup' | 'session' | null;

export function secondFactorGate(status: SecurityStatus): SecondFactorGate {
  if (!status.secondFactorRequired || status.sessionVerified) return null;
  return hasNoSecondFactor(status) ? 'setup' : 'session';
}
