import type { User } from '../types/entities';
import { FALLBACK } from '../messages/es';
import { request } from './client';
import { API_PATHS } from './paths';

export function fetchCurrentUser(): Promise<User> {
  return request('get', API_PATHS.auth.currentUser, { fallback: FALLBACK.currentUser });
}

/** Spec §7: logout is called with no payload. */
export function logoutCall(): Promise<void> {
  return request('post', API_PATHS.auth.logout, { fallback: 'Error al cerrar sesión' });
}
