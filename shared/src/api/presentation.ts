import type { User } from '../types/entities';
import { FALLBACK } from '../messages/es';
import { request } from './client';
import { API_PATHS } from './paths';

/** Spec §4: finishing the presentation records it as seen; the answer carries the updated user. */
export function updatePresentation(userId: number): Promise<{ user: User }> {
  return request('post', API_PATHS.auth.updatePresentation, { json: { userId }, fallback: FALLBACK.presentation });
}
