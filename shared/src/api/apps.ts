import type { App, Paged } from '../types/entities';
import { FALLBACK } from '../messages/es';
import { request } from './client';
import { API_PATHS } from '@portal/contracts/api/paths';

/** Spec §9: the launcher and the apps page ask for page 1, limit 100. */
export const APPS_PAGE_SIZE = 100;

export function listApps(page = 1, limit = APPS_PAGE_SIZE): Promise<Paged<App>> {
  return request('get', API_PATHS.apps.list, { searchParams: { page, limit }, fallback: FALLBACK.listApps });
}

export function getApp(id: number): Promise<App> {
  return request('get', API_PATHS.apps.byId(id), { fallback: 'App no encontrada' });
}
