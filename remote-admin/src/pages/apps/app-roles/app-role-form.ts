import { isRoleKey } from '@portal/contracts/apps/role-key';
import type { AppRole, AppRoleChange, AppRoleInput } from '@portal/shared';
import { TEXT_ROLES } from './texts';

/** The role form's fields as the inputs hold them; the key only when the role is new (it cannot change). */
export interface AppRoleForm {
  clave: string;
  nombre: string;
  descripcion: string;
}

export const emptyAppRoleForm: AppRoleForm = { clave: '', nombre: '', descripcion: '' };

export const roleToForm = (role: AppRole): AppRoleForm => ({
  clave: role.clave,
  nombre: role.nombre,
  descripcion: role.descripcion,
});

/** A rename's refusal before sending: a name. */
export function validateRoleName(form: AppRoleForm): string | null {
  return form.nombre.trim() ? null : TEXT_ROLES.roleNameRequired;
}

/** A new role's refusal before sending: a key the API takes (@portal/contracts) and a name. */
export function validateNewRole(form: AppRoleForm): string | null {
  const clave = form.clave.trim();
  if (!clave) return TEXT_ROLES.roleKeyRequired;
  if (!isRoleKey(clave)) return TEXT_ROLES.roleKeyInvalid;
  return validateRoleName(form);
}

export function newRoleInput(form: AppRoleForm): AppRoleInput {
  const descripcion = form.descripcion.trim();
  return { clave: form.clave.trim(), nombre: form.nombre.trim(), ...(descripcion ? { descripcion } : {}) };
}

/** A rename sends the name and the description as the form has them (an emptied description clears it). */
export function renameInput(form: AppRoleForm): AppRoleChange {
  return { nombre: form.nombre.trim(), descripcion: form.descripcion.trim() };
}
