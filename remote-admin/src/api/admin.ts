import type {
  AdminUser,
  App,
  AppInput,
  AppRole,
  AppRoleChange,
  AppRoleInput,
  AuditEntry,
  DashboardData,
  OidcClient,
  OidcClientCreated,
  OidcClientInput,
  OidcClientSecret,
  Paged,
  PlanChange,
  User,
  UserAppPlanInfo,
  UserEdit,
  UserListQuery,
  UserPage,
  UserStats,
} from '@portal/shared';
import type { SamlApp, SamlAppCreated, SamlAppChange as SamlAppInput } from '@portal/shared';
import { API_PATHS, FALLBACK, getRuntimeConfig, request } from '@portal/shared';
import { ADMIN_FALLBACK } from './texts';

export function listUsers(query: UserListQuery): Promise<UserPage> {
  return request('get', API_PATHS.users.list, {
    searchParams: {
      page: query.page,
      limit: query.limit,
      name: query.name,
      email: query.email,
      status: query.status,
      after: query.after,
      before: query.before,
    },
    fallback: FALLBACK.listUsers,
  });
}

export function getUserStats(): Promise<UserStats> {
  return request('get', API_PATHS.users.stats, { fallback: FALLBACK.stats });
}

/** Activates the pending users among `userIds`; answers how many were verified. */
export function verifyEmails(userIds: number[]): Promise<{ verified: number; userIds: number[] }> {
  return request('post', API_PATHS.users.verifyEmails, { json: { userIds }, fallback: FALLBACK.verifyByIds });
}

/** Toggles a user between active and suspended (suspension ends the user's sessions). */
export function changeUserStatus(id: number): Promise<{ user: AdminUser }> {
  return request('put', API_PATHS.auth.changeStatus(id), { fallback: FALLBACK.changeStatus });
}

/** 'Editar' in the users table (spec §7): only the changed fields; the server writes the audit entry. */
export function editUser(id: number, changes: UserEdit): Promise<{ user: User }> {
  return request('put', API_PATHS.auth.edit(id), { json: changes, fallback: FALLBACK.editUser });
}

export function getUserAppPlans(idUsuario: number): Promise<UserAppPlanInfo[]> {
  return request('post', API_PATHS.userPlans.userAppPlans, { json: { idUsuario }, fallback: ADMIN_FALLBACK.loadPlans });
}

export function changeUserAppPlan(change: PlanChange): Promise<UserAppPlanInfo> {
  return request('post', API_PATHS.userPlans.changePlan, { json: change, fallback: ADMIN_FALLBACK.updateUserPlan });
}

export function createApp(app: AppInput & { nombre: string }): Promise<App> {
  return request('post', API_PATHS.apps.register, { json: app, fallback: FALLBACK.createApp });
}

export function updateApp(id: number, fields: AppInput): Promise<App> {
  return request('put', API_PATHS.apps.update(id), { json: fields, fallback: FALLBACK.updateApp });
}

export function getDashboard(): Promise<DashboardData> {
  return request('get', API_PATHS.admin.dashboard, { fallback: ADMIN_FALLBACK.dashboard });
}

export function listAuditLog(page = 1, limit = 20): Promise<Paged<AuditEntry>> {
  return request('get', API_PATHS.admin.auditLog, { searchParams: { page, limit }, fallback: ADMIN_FALLBACK.auditLog });
}

export async function listOidcClients(): Promise<OidcClient[]> {
  const { data } = await request<{ data: OidcClient[] }>('get', API_PATHS.admin.oidcClients, {
    fallback: ADMIN_FALLBACK.oidcClients,
  });
  return data;
}

/** A confidential client's secret comes back here once, and never again. */
export function createOidcClient(client: OidcClientInput): Promise<OidcClientCreated> {
  return request('post', API_PATHS.admin.oidcClients, { json: client, fallback: ADMIN_FALLBACK.saveOidcClient });
}

/** Every field is sent: the client becomes what the form says. */
export function updateOidcClient(clientId: string, client: OidcClientInput): Promise<OidcClient> {
  return request('put', API_PATHS.admin.oidcClient(clientId), {
    json: client,
    fallback: ADMIN_FALLBACK.saveOidcClient,
  });
}

/** A new secret, shown once; the old one stops working at once. */
export function rotateOidcClientSecret(clientId: string): Promise<OidcClientSecret> {
  return request('post', API_PATHS.admin.oidcClientSecret(clientId), { fallback: ADMIN_FALLBACK.rotateSecret });
}

export function deleteOidcClient(clientId: string): Promise<void> {
  return request('delete', API_PATHS.admin.oidcClient(clientId), { fallback: ADMIN_FALLBACK.deleteOidcClient });
}

export async function listSamlApps(): Promise<SamlApp[]> {
  const { data } = await request<{ data: SamlApp[] }>('get', API_PATHS.admin.samlApps, {
    fallback: ADMIN_FALLBACK.samlApps,
  });
  return data;
}

/** The app's entity ID and its ACS addresses come from its metadata, read by the API. */
export function createSamlApp(app: SamlAppInput): Promise<SamlAppCreated> {
  return request('post', API_PATHS.admin.samlApps, { json: app, fallback: ADMIN_FALLBACK.saveSamlApp });
}

/** A replacement: without `appId` the app is tied to none; without `metadata` the saved metadata stays. */
export function updateSamlApp(id: number, app: SamlAppInput): Promise<SamlApp> {
  return request('put', API_PATHS.admin.samlApp(id), { json: app, fallback: ADMIN_FALLBACK.saveSamlApp });
}

export function deleteSamlApp(id: number): Promise<void> {
  return request('delete', API_PATHS.admin.samlApp(id), { fallback: ADMIN_FALLBACK.deleteSamlApp });
}

/**
 * The portal's SAML identity provider metadata, for partner apps to trust: on the API's public address, the one the
 * panel itself calls (the runtime configuration's `apiBaseUrl`).
 */
export function samlIdpMetadataUrl(): string {
  return `${getRuntimeConfig().apiBaseUrl}/${API_PATHS.saml.idpMetadata}`;
}

/** A catalogue app's roles, by key (docs/decisions/0134-app-roles.md). */
export async function listAppRoles(appId: number): Promise<AppRole[]> {
  const { data } = await request<{ data: AppRole[] }>('get', API_PATHS.admin.appRoles(appId), {
    fallback: ADMIN_FALLBACK.appRoles,
  });
  return data;
}

/** 409 ROL_EXISTE when the app has a role with that key already. */
export function createAppRole(appId: number, role: AppRoleInput): Promise<AppRole> {
  return request('post', API_PATHS.admin.appRoles(appId), { json: role, fallback: ADMIN_FALLBACK.saveAppRole });
}

/** Only the fields sent change; a role made the default takes that from the app's previous default. */
export function updateAppRole(appId: number, clave: string, change: AppRoleChange): Promise<AppRole> {
  return request('patch', API_PATHS.admin.appRole(appId, clave), {
    json: change,
    fallback: ADMIN_FALLBACK.saveAppRole,
  });
}

/** Taken from everyone who holds it, each change audited and the apps told. */
export function deleteAppRole(appId: number, clave: string): Promise<void> {
  return request('delete', API_PATHS.admin.appRole(appId, clave), { fallback: ADMIN_FALLBACK.deleteAppRole });
}
