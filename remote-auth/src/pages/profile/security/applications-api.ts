import { API_PATHS, type AuthorizedApp, request } from '@portal/shared';

/** The third-party apps the person allowed through the portal's sign-in (ApplicationsSection). */

export const APPLICATIONS_LOAD_FAILED = 'No se pudieron cargar las aplicaciones con acceso';
export const REVOKE_FAILED = 'No se pudo quitar el acceso a la aplicación';

export async function listAuthorizedApps(): Promise<AuthorizedApp[]> {
  const { data } = await request<{ data: AuthorizedApp[] }>('get', API_PATHS.auth.authorizedApps, {
    fallback: APPLICATIONS_LOAD_FAILED,
  });
  return data;
}

/** The app loses access: its tokens are revoked and its sessions end. */
export function revokeAuthorizedApp(clientId: string): Promise<void> {
  return request('delete', API_PATHS.auth.authorizedApp(clientId), { fallback: REVOKE_FAILED });
}
