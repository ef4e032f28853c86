import type { CompanyAppRoles } from '../api/company-types';
import { TEXT_COMPANY_RULES } from './texts';

/**
 * The roles a company may give, by app (`GET /empresas/:id/roles-app`): the names of `keys` of the app `appId` as
 * people read them. A key the app no longer has is said to be deleted; before the roles are read (or when they could
 * not be), the keys themselves.
 */
export function appRoleNames(catalogue: readonly CompanyAppRoles[] | null, appId: number, keys: readonly string[]) {
  if (!catalogue) return [...keys];
  const roles = catalogue.find((app) => app.idApp === appId)?.roles ?? [];
  return keys.map((key) => roles.find((role) => role.clave === key)?.nombre ?? TEXT_COMPANY_RULES.deletedAppRole(key));
}

/** The roles of the app `appId` a company may give now (none for an app it has no licence of). */
export function appRolesOf(catalogue: readonly CompanyAppRoles[] | null, appId: number) {
  return catalogue?.find((app) => app.idApp === appId)?.roles ?? [];
}
