import type { User } from '@portal/shared';
import { FALLBACK, API_PATHS, request } from '@portal/shared';

/** Spec §4: finishing the presentation records it as seen; the answer carries the updated user. */
export function updatePresentation(userId: number): Promise<{ user: User }> {
  return request('post', API_PATHS.auth.updatePresentation, { json: { userId }, fallback: FALLBACK.presentation });
}
