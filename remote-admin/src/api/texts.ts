// What each call of the panel says when it fails and the server gives no message of its own.

/** Fallbacks shown when an admin call fails without a server message (spec §8, and the README for the new calls). */
export const ADMIN_FALLBACK = {
  loadPlans: 'Error al obtener planes de usuario',
  /** What the plan dialog shows when the failure carries no message at all (spec §8, 'Plan save'). */
  savePlan: 'Error al actualizar el plan. Por favor, intenta de nuevo.',
  /** The plan update call's own fallback, when the server sends no message (spec §8, 'update store fallback'). */
  updateUserPlan: 'Error al actualizar plan de usuario',
  /** Spec §8: what a failed 'Verificar' shows for 5 s (the thrown 'Error al verificar Ids' and its reason are logged). */
  verifyUsers: 'Error al verificar usuarios. Por favor, intenta de nuevo.',
  dashboard: 'No se pudieron obtener las cifras del dashboard',
  auditLog: 'No se pudo obtener el registro de auditoría',
  oidcClients: 'No se pudieron cargar los clientes OpenID Connect',
  saveOidcClient: 'No se pudo guardar el cliente',
  rotateSecret: 'No se pudo rotar el secreto',
  deleteOidcClient: 'No se pudo eliminar el cliente',
  samlApps: 'No se pudieron cargar las aplicaciones SAML',
  saveSamlApp: 'No se pudo guardar la aplicación SAML',
  deleteSamlApp: 'No se pudo eliminar la aplicación SAML',
  appRoles: 'No se pudieron cargar los roles de la aplicación',
  saveAppRole: 'No se pudo guardar el rol',
  deleteAppRole: 'No se pudo eliminar el rol',
} as const;

/** What a company call's failure says when the server gives no message. */
export const COMPANY_FALLBACK = {
  list: 'No se pudo cargar la lista de empresas',
  company: 'No se pudo cargar la empresa',
  save: 'No se pudo guardar la empresa',
  apps: 'No se pudieron cargar las apps y sus planes',
  licences: 'No se pudieron cargar las licencias',
  licence: 'No se pudo guardar la licencia',
  members: 'No se pudieron cargar los miembros',
  member: 'No se pudo cambiar el miembro',
  seat: 'No se pudo cambiar el puesto',
  seats: 'No se pudieron cargar los puestos',
  invitations: 'No se pudieron cargar las invitaciones',
  invitation: 'No se pudo cambiar la invitación',
  invitationList: 'No se pudieron enviar las invitaciones',
  domains: 'No se pudieron cargar los dominios',
  domain: 'No se pudo cambiar el dominio',
  report: 'No se pudo obtener el informe de puestos',
  audit: 'No se pudo obtener el registro de actividad',
  settings: 'No se pudieron guardar los ajustes',
  provider: 'No se pudo cargar el acceso de la empresa',
  saveProvider: 'No se pudo guardar el acceso de la empresa',
  removeProvider: 'No se pudo desconectar el proveedor de identidad',
  scimTokens: 'No se pudieron cargar los tokens del directorio',
  scimToken: 'No se pudo cambiar el token del directorio',
  setupLinks: 'No se pudieron cargar los enlaces de configuración',
  createSetupLink: 'No se pudo crear el enlace de configuración',
  revokeSetupLink: 'No se pudo revocar el enlace de configuración',
  scimLog: 'No se pudieron cargar las peticiones del directorio',
  auditStreams: 'No se pudieron cargar los destinos del registro de actividad',
  auditStream: 'No se pudo cambiar el destino del registro de actividad',
  auditStreamTest: 'No se pudo enviar el evento de prueba',
  groupRules: 'No se pudieron cargar los grupos del directorio',
  groupRule: 'No se pudo guardar la regla del grupo',
  roles: 'No se pudieron cargar los roles',
  rolesSave: 'No se pudieron guardar los roles',
  groupWaiting: 'No se pudo cargar quién espera un puesto',
} as const;

/** Fallbacks of the events calls when the server gives no message. */
export const EVENTS_FALLBACK = {
  subscriptions: 'No se pudieron cargar las suscripciones',
  createSubscription: 'No se pudo crear la suscripción',
  rotateSecret: 'No se pudo rotar el secreto de la suscripción',
  deleteSubscription: 'No se pudo eliminar la suscripción',
  deliveries: 'No se pudieron cargar las entregas',
  resend: 'No se pudo reenviar la entrega',
} as const;
