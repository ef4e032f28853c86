import type { AppWithPlans } from '@portal/shared';
import { API_PATHS, request } from '@portal/shared';

/** Spec §8: a failure of the apps-with-plans call yields an empty list (the page then says 'Sin planes disponibles'). */
export async function listAppsWithPlans(): Promise<AppWithPlans[]> {
  try {
    const apps = await request<AppWithPlans[]>('get', API_PATHS.apps.withPlans, { fallback: 'Sin planes disponibles' });
    return Array.isArray(apps) ? apps : [];
  } catch {
    return [];
  }
}
