import { FALLBACK } from '../messages/es';
import { ADMIN_ROLE, type SecurityStatus, type User } from '../types/entities';
import { request } from './client';
import { API_PATHS } from '@portal/contracts/api/paths';

/** The account's second factors and whether this session proved one (the 'Seguridad' tab, the admin gate). */
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
  // A trusted device's session never does (decision 0150): the panel wants the factor proved in this session.
  if (!status.secondFactorRequired || status.sessionVerified) return null;
  return hasNoSecondFactor(status) ? 'setup' : 'session';
}

/** 'Seguridad' in /perfil: where an administrator who must still set up a second factor lands. */
export const SECURITY_SETUP_PATH = '/perfil?tab=seguridad';

/**
 * The portal page a signed-in person lands on when no partner takes them (spec §4): /apps, except an administrator
 * who must still set up a second factor (ADMIN_SECOND_FACTOR=required, none set up), who lands on 'Seguridad', which
 * asks for it. If the status cannot be read the person lands on /apps: the admin panel asks again. The one fallback of
 * both landing places, the shell's guard and the auth screens' own (standalone) landing.
 */
export async function portalLanding(user: Pick<User, 'role'> | null): Promise<string> {
  if (user?.role !== ADMIN_ROLE) return '/apps';
  try {
    return secondFactorGate(await getSecurityStatus()) === 'setup' ? SECURITY_SETUP_PATH : '/apps';
  } catch {
    return '/apps';
  }
}
