import type { User } from '../types/entities';
import { FALLBACK } from '../messages/es';
import { request } from './client';
import { API_PATHS } from '@portal/contracts/api/paths';

export function fetchCurrentUser(): Promise<User> {
  return request('get', API_PATHS.auth.currentUser, { fallback: FALLBACK.currentUser });
}

/** Spec §7: logout is called with no payload. */
export function logoutCall(): Promise<void> {
  return request('post', API_PATHS.auth.logout, { fallback: 'Error al cerrar sesión' });
}

/** A token scoped to one partner target, minted with the current session (API `POST /auth/partner-token`). */
export interface PartnerToken {
  access_token: string;
  expires_in: number;
  audience: string;
}

export function mintPartnerToken(redirectUrl: string): Promise<PartnerToken> {
  return request('post', API_PATHS.auth.partnerToken, {
    json: { redirect_url: redirectUrl },
    fallback: 'No se pudo abrir la aplicación asociada',
  });
}
