import type { AuditAction } from '@portal/shared';

/** The words the rules put together: status.ts, format.ts, companies.ts and audit-format.ts. */
export const TEXT_RULES = {
  // A user's status and role (spec §4, §6), dates and changes of the dashboard.
  statusActive: 'Activo',
  statusPending: 'Pendiente Verificación',
  statusSuspended: 'Suspendido',
  noStatus: 'Sin estado',
  allStatuses: 'Todos',
  roleAdmin: 'Administrador',
  roleUser: 'Usuario',
  noDate: 'Sin fecha',
  noPreviousMonth: 'Sin datos del mes anterior',
  vsPreviousMonth: (change: string) => `${change} % vs. mes anterior`,
} as const;

/**
 * What the company rules (companies.ts) say; the company screens show the same words (pages/companies/texts.ts
 * takes them all).
 */
export const TEXT_COMPANY_RULES = {
  // A company's state.
  statusActive: 'Activa',
  statusSuspended: 'Suspendida',

  // Roles and states inside a company.
  memberActive: 'Activo',
  memberPending: 'Pendiente de aprobación',
  // An app role a directory group's rule still names after the role was deleted from the app.
  deletedAppRole: (clave: string) => `${clave} (rol eliminado)`,

  // Sections.
  members: 'Miembros',
  invitations: 'Invitaciones',
  seats: 'Puestos',
  licences: 'Licencias',
  domains: 'Dominios',
  access: 'Acceso de la empresa',
  directory: 'Directorio (SCIM)',
  groups: 'Grupos del directorio',
  activity: 'Registro de actividad',
  seatReport: 'Informe de puestos',
  settings: 'Ajustes',

  // Licences: what a form lacks, the seats in use, the state of the expiry.
  chooseApp: 'Elige la app',
  choosePlan: 'Elige el plan',
  seatsRange: 'Los puestos deben ser un número entero entre 1 y 100 000',
  expiryRequired: 'Elige la fecha de vencimiento',
  seatCounts: (inUse: number, bought: number, free: number) =>
    `${inUse} de ${bought} en uso · ${free} ${free === 1 ? 'libre' : 'libres'}`,
  overAllocated: (n: number) => `${n} ${n === 1 ? 'asignado' : 'asignados'} de más`,
  expiredOn: (day: string) => `Vencida el ${day}`,
  expiresSoon: (day: string, days: number) =>
    `Vence el ${day} (${days === 0 ? 'hoy' : days === 1 ? 'mañana' : `en ${days} días`})`,
  expiresOn: (day: string) => `Vence el ${day}`,
  expired: 'Vencida',
  expiringSoon: 'Vence pronto',
  inForce: 'Vigente',

  // A certificate of a company's SAML provider (masculine: 'el certificado').
  certificateExpiredOn: (day: string) => `Venció el ${day}`,
  certificateExpiresSoon: (day: string, days: number) =>
    `Vence el ${day} (${days === 0 ? 'hoy' : days === 1 ? 'mañana' : `en ${days} días`})`,
  certificateExpiresOn: (day: string) => `Vence el ${day}`,

  // Settings.
  domainJoin: 'Alta por dominio',
  requireSecondFactor: 'Exigir segundo factor',
  // docs/decisions/0143-trusted-devices.md and 0144-company-provider-second-factor.md.
  allowTrustedDevices: 'Permitir dispositivos de confianza',
  trustProviderSecondFactor: 'Confiar en el segundo factor del proveedor de la empresa',
  // The members' sign-in rules (docs/decisions/0103-company-rules.md), as a change of them reads in the activity.
  allowedNetworks: 'Redes permitidas',
  allowedMethods: 'Métodos permitidos',
  sessionMaxHours: 'Duración máxima de una sesión',
  idleMinutes: 'Cierre tras minutos sin uso',
  anyOf: 'cualquiera',
  noLimit: 'sin límite',
  hours: (n: number) => `${n.toLocaleString('es-ES')} h`,
  minutes: (n: number) => `${n.toLocaleString('es-ES')} min`,
  sessionsEnded: (n: number) => `${n.toLocaleString('es-ES')} ${n === 1 ? 'sesión cerrada' : 'sesiones cerradas'}`,

  // Activity: the details of an entry.
  joinAutomaticShort: 'automática',
  joinApprovalShort: 'con aprobación',
  yes: 'sí',
  no: 'no',
  seatsCount: (n: number) => `${n.toLocaleString('es-ES')} ${n === 1 ? 'puesto' : 'puestos'}`,
  auditByDns: 'probado por DNS',
  auditByAdmin: 'confirmado por la plataforma',
  userNumber: (id: number) => `usuario n.º ${id}`,
  auditPassword: (allowed: boolean) => (allowed ? 'también con contraseña' : 'sin contraseña del portal'),
  auditSecretChanged: 'secreto cambiado',
  auditToken: (prefix: string) => `token ${prefix}…`,
  auditSetupLink: (id: number) => `enlace n.º ${id}`,
  auditSetupLinkActions: {
    dominio_reclamado: 'dominio reclamado',
    dominio_comprobado: 'dominio comprobado',
    proveedor_guardado: 'acceso de la empresa guardado',
    token_directorio_creado: 'token del directorio creado',
  } as Record<string, string>,
  auditFrom: (address: string) => `desde ${address}`,
  refusedNetwork: (address: string) => `Fuera de las redes permitidas: ${address}`,
  refusedMethod: (method: string) => `Método no permitido: ${method}`,
  refusedToken: (prefix: string) => `Token ${prefix}…`,
  groupRenamedFrom: (name: string) => `antes ${name}`,
  groupMoves: (came: number, went: number) =>
    [came ? `${came} ${came === 1 ? 'entra' : 'entran'}` : '', went ? `${went} ${went === 1 ? 'sale' : 'salen'}` : '']
      .filter(Boolean)
      .join(', '),
  // Where a change of the activity came from (the API's `origen` of each entry).
  sources: {
    scim: 'SCIM',
    proveedor: 'Proveedor de la empresa',
    administrador: 'Administrador de la empresa',
    enlace: 'Enlace de configuración',
    plataforma: 'Plataforma',
    persona: 'La propia persona',
    consola: 'Consola del operador',
    sistema: 'El propio portal',
  } as Record<string, string>,
} as const;

/** What each audit action reads as in the log. */
export const AUDIT_ACTION_LABELS: Record<AuditAction, string> = {
  'user.verify': 'Verificó el email',
  'user.status_change': 'Cambió el estado',
  'user.plan_change': 'Cambió el plan',
  'user.edit': 'Editó el usuario',
  'user.create': 'Creó el usuario',
  'user.password_reset': 'Restableció la contraseña',
  'app.create': 'Creó la aplicación',
  'app.update': 'Modificó la aplicación',
  'app.role_create': 'Definió un rol de la aplicación',
  'app.role_update': 'Cambió un rol de la aplicación',
  'app.role_delete': 'Eliminó un rol de la aplicación',
  'user.app_roles_change': 'Cambió los roles en una aplicación',
  'auth.lockout': 'Bloqueó el inicio de sesión',
  'auth.sign_in_failure': 'Inicio de sesión fallido',
  'auth.second_factor_failure': 'Código del segundo factor incorrecto',
  'auth.sign_in_refused': 'Inicio de sesión rechazado por las reglas de la empresa',
  'user.session_end': 'Cerró una sesión',
  'oidc_client.create': 'Registró un cliente OpenID Connect',
  'oidc_client.update': 'Modificó un cliente OpenID Connect',
  'oidc_client.rotate_secret': 'Rotó el secreto de un cliente OpenID Connect',
  'oidc_client.delete': 'Eliminó un cliente OpenID Connect',
  'oidc_client.subscription_create': 'Suscribió una dirección a eventos',
  'oidc_client.subscription_delete': 'Eliminó una suscripción a eventos',
  'oidc_client.subscription_rotate_secret': 'Rotó el secreto de una suscripción a eventos',
  'oidc_client.subscription_disabled': 'Se desactivó una suscripción a eventos',
  'oidc_client.delivery_resend': 'Reenvió un evento a una app',
  'oidc.backchannel_logout': 'Avisó a una app del cierre de sesión',
  'saml_app.create': 'Registró una aplicación SAML',
  'saml_app.update': 'Cambió una aplicación SAML',
  'saml_app.delete': 'Eliminó una aplicación SAML',
  'saml_app.subscription_create': 'Suscribió una dirección a eventos',
  'saml_app.subscription_delete': 'Eliminó una suscripción a eventos',
  'saml_app.subscription_rotate_secret': 'Rotó el secreto de una suscripción a eventos',
  'saml_app.subscription_disabled': 'Se desactivó una suscripción a eventos',
  'saml_app.delivery_resend': 'Reenvió un evento a una app',
  'saml.logout': 'Avisó a una app SAML del cierre de sesión',
  'company.create': 'Creó la empresa',
  'company.rename': 'Renombró la empresa',
  'company.status_change': 'Cambió el estado de la empresa',
  'company.settings_change': 'Cambió los ajustes de la empresa',
  'company.licence_create': 'Vendió una licencia',
  'company.licence_update': 'Cambió una licencia',
  'company.member_add': 'Añadió un miembro',
  'company.member_role_change': 'Cambió el rol de un miembro',
  'company.member_remove': 'Quitó un miembro',
  'company.member_approve': 'Aprobó un miembro',
  'company.invitation_create': 'Invitó a la empresa',
  'company.invitation_resend': 'Reenvió una invitación',
  'company.invitation_revoke': 'Revocó una invitación',
  'company.invitation_accept': 'Aceptó una invitación',
  'company.invitation_decline': 'Rechazó una invitación',
  'company.domain_add': 'Añadió un dominio',
  'company.domain_verify': 'Verificó un dominio',
  'company.domain_remove': 'Quitó un dominio',
  'company.seat_assign': 'Asignó un puesto',
  'company.seat_remove': 'Quitó un puesto',
  'company.app_roles_change': 'Cambió los roles en una aplicación',
  'company.provider_update': 'Proveedor de identidad conectado o cambiado',
  'company.provider_remove': 'Proveedor de identidad desconectado',
  'company.sign_in': 'Inicio de sesión con el acceso de la empresa',
  'company.identity_link': 'Cuenta vinculada al acceso de la empresa',
  'company.scim_token_create': 'Token SCIM creado',
  'company.scim_token_revoke': 'Token SCIM revocado',
  'company.scim_token_refused': 'Intento con un token SCIM revocado',
  'company.member_provision': 'Persona dada de alta por el directorio',
  'company.member_update': 'Persona actualizada por el directorio',
  'company.member_deprovision': 'Persona dada de baja por el directorio',
  'company.setup_link_create': 'Enlace de configuración creado',
  'company.setup_link_revoke': 'Enlace de configuración revocado',
  'company.setup_link_use': 'Acción por un enlace de configuración',
  'company.group_create': 'Grupo creado por el directorio',
  'company.group_update': 'Grupo cambiado por el directorio',
  'company.group_delete': 'Grupo borrado por el directorio',
  'company.group_rule_create': 'Añadió una regla de grupo del directorio',
  'company.group_rule_delete': 'Quitó una regla de grupo del directorio',
  'company.audit_stream_create': 'Añadió un destino del registro (SIEM)',
  'company.audit_stream_update': 'Cambió un destino del registro (SIEM)',
  'company.audit_stream_delete': 'Borró un destino del registro (SIEM)',
  'company.audit_stream_paused': 'Destino del registro (SIEM) pausado tras 24 h sin entregar',
};

/** The words of an audit row's details (audit-format.ts puts them together). */
export const AUDIT_DETAIL_TEXT = {
  deliveryResend: (event: string, seq: string, url: string) => `${event} n.º ${seq} a ${url}`,
  subscriptionDisabled: (url: string, reason: string) => (reason ? `${url}: ${reason}` : url),
  noPlan: 'sin plan',
  noRoles: 'sin roles',
  wrongPassword: (address: string) => `Contraseña incorrecta desde ${address}`,
  wrongCode: (address: string) => `Código incorrecto desde ${address}`,
  rolesChange: (who: string, from: string, to: string) => `${who}: ${from} → ${to}`,
  // Why roles changed other than by hand: the entry's `motivo` (a seat's end), else its `fuenteRoles`.
  rolesWhy: {
    puesto_retirado: 'al quitarle el puesto',
    miembro_retirado: 'al salir de la empresa',
    baja_directorio: 'al darle de baja el directorio',
    grupo_directorio: 'al salir del grupo del directorio que le daba el puesto',
    puesto: 'al quitarle el puesto',
    grupo: 'por un grupo del directorio',
    plan: 'al terminar su plan propio',
    eliminacion: 'porque se borró el rol de la aplicación',
  } as Record<string, string>,
  app: (id: string) => `App ${id}`,
  planChange: (app: string, from: string, to: string) => `${app}: ${from} → ${to}`,
  expiring: (change: string, expiry: string) => `${change}, vence ${expiry}`,
  role: 'Rol',
  status: 'Estado',
  codeByEmail: 'Código enviado por email',
  temporaryPassword: 'Contraseña temporal',
  fields: 'Campos',
  noChanges: 'Sin cambios',
  empty: 'vacío',
  lockoutAccount: (address: string) => `en total (la última desde ${address})`,
  lockoutAddress: (address: string) => `desde ${address}`,
  lockout: (failures: string, where: string, seconds: string) =>
    `${failures} contraseñas incorrectas ${where}; espera de ${seconds} s`,
  sessionEnd: (browser: string, os: string, device: string, address: string) =>
    `${browser} en ${os} (${device}), desde ${address}`,
  editedFields: { name: 'Nombre', lastName: 'Apellido', phone: 'Teléfono', picture: 'Foto' } as Record<string, string>,
  /** Why the portal told an app a session ended (the API's `motivo`). */
  logoutReasons: {
    logout: 'cerró sesión en el portal',
    rp_logout: 'cerró sesión desde una app',
    access_revoked: 'quitó el acceso a la app',
    credentials_changed: 'cambio de contraseña o de rol',
    account_suspended: 'cuenta suspendida',
    account_pending_verification: 'cuenta pendiente de verificación',
    account_deleted: 'cuenta eliminada',
  } as Record<string, string>,
  logoutOutcome: (app: string, reason: string, delivered: boolean, tries: string) =>
    `${app}: ${reason}; ${delivered ? 'entregado' : 'no se pudo entregar'} (${tries} ${tries === '1' ? 'intento' : 'intentos'})`,
};

/** What stops a row of a list of people to invite (invitation-list.ts), shown beside the row before sending. */
export const TEXT_INVITATION_LIST = {
  emailMissing: 'Falta el email.',
  emailInvalid: 'El email no es válido.',
  repeated: (line: number) => `Repetido: ya está en la línea ${line}.`,
  roleUnknown: (role: string) => `El rol «${role}» no existe: usa Propietario, Administrador o Miembro.`,
  roleNotYours: 'Solo un propietario de la empresa puede invitar a un propietario.',
  appUnknown: (app: string) => `La empresa no tiene licencia de «${app}».`,
  appExpired: (app: string) => `La licencia de ${app} ha vencido.`,
  extraColumns: 'Sobran columnas: cada línea lleva email, rol y app.',
} as const;
