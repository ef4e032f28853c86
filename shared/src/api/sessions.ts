import { FALLBACK } from '../messages/es';
import { request } from './client';
import type { PortalSession } from '../types/entities';
import { API_PATHS } from '@portal/contracts/api/paths';

export function listMySessions(): Promise<PortalSession[]> {
  return request('get', API_PATHS.auth.sessions, { fallback: FALLBACK.sessions });
}

export function endMySession(id: string): Promise<void> {
  return request('delete', API_PATHS.auth.session(id), { fallback: FALLBACK.endSession });
}

export function endMyOtherSessions(): Promise<{ ended: number }> {
  return request('post', API_PATHS.auth.endOtherSessions, { fallback: FALLBACK.endSession });
}

export function listUserSessions(userId: number): Promise<PortalSession[]> {
  return request('get', API_PATHS.admin.userSessions(userId), { fallback: FALLBACK.sessions });
}

export function endUserSession(userId: number, sessionId: string): Promise<void> {
  return request('delete', API_PATHS.admin.userSession(userId, sessionId), { fallback: FALLBACK.endSession });
}
