import { FALLBACK } from '../messages/es';
import { request } from './client';
import { API_PATHS } from './paths';

/** One open portal session (issue 20; api/README.md, "Sesiones"). */
export interface PortalSession {
  id: string;
  device: string;
  browser: string;
  os: string;
  /** 'Chrome en Linux'. */
  label: string;
  address: string;
  createdAt: string;
  lastSeenAt: string;
  /** The session of this browser's token. */
  current: boolean;
}

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
