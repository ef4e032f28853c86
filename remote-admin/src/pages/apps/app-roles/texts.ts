/**
 * An app's roles in the apps page (docs/decisions/0134-app-roles.md): what partner apps read in the OpenID Connect claim
 * and the SAML attribute `roles`.
 */
export const TEXT_ROLES = {
  roles: 'Roles',
  rolesOf: (app: string) => `Roles de ${app}`,
  rolesIntro:
    'Las aplicaciones conectadas reciben las claves de los roles de cada persona (permiso roles de OpenID Connect, ' +
    'atributo roles de SAML). Las empresas los dan a quienes tienen sus puestos. Quien tiene la app sin ningún rol ' +
    'recibe el rol por defecto, si hay uno.',
  loadingRoles: 'Cargando roles...',
  noRoles: 'Esta aplicación aún no tiene roles.',
  rolesTable: (app: string) => `Roles de ${app}`,
  roleKey: 'Clave',
  roleKeyHint:
    'Lo que leen las aplicaciones: letras minúsculas, dígitos, - y _, hasta 40. No se puede cambiar después.',
  roleDescription: 'Descripción (opcional)',
  roleDefault: 'Por defecto',
  isDefault: 'Rol por defecto',
  notDefault: 'No',
  colActions: 'Acciones',
  newRole: 'Nuevo rol',
  newRoleOf: (app: string) => `Nuevo rol de ${app}`,
  renameRole: 'Renombrar',
  renameRoleOf: (role: string) => `Renombrar rol ${role}`,
  renameRoleTitle: (role: string) => `Renombrar el rol ${role}`,
  makeDefault: 'Hacer por defecto',
  makeDefaultOf: (role: string) => `Hacer por defecto el rol ${role}`,
  unsetDefault: 'Quitar por defecto',
  unsetDefaultOf: (role: string) => `Quitar por defecto el rol ${role}`,
  deleteRole: 'Eliminar',
  deleteRoleOf: (role: string) => `Eliminar rol ${role}`,
  deleteRoleTitle: (role: string, app: string) => `¿Eliminar el rol ${role} de ${app}?`,
  deleteRoleText: (clave: string, isDefault: boolean) =>
    `Se quitará a todas las personas que lo tienen, se lo haya dado una empresa, un grupo del directorio o la ` +
    `plataforma (cada cambio queda en el registro de auditoría), y las aplicaciones dejarán de recibir la clave ` +
    `«${clave}» desde su próximo inicio de sesión o actualización; las que reciben eventos reciben roles.cambiados. ` +
    `Las reglas de grupos del directorio que lo daban dejan de darlo.${
      isDefault ? ' Es el rol por defecto: quien tiene la app sin otro rol se queda sin ninguno.' : ''
    } No se puede deshacer.`,
  roleKeyRequired: 'Escribe la clave del rol',
  roleKeyInvalid: 'La clave solo puede tener letras minúsculas, dígitos, - y _ (hasta 40)',
  roleNameRequired: 'Escribe el nombre del rol',
  roleCreated: (role: string) => `Rol ${role} creado`,
  roleRenamed: (role: string) => `Rol ${role} guardado`,
  roleMadeDefault: (role: string) => `${role} es ahora el rol por defecto`,
  roleUnsetDefault: (role: string) => `${role} ya no es el rol por defecto`,
  roleDeleted: (role: string) => `Rol ${role} eliminado`,
} as const;
