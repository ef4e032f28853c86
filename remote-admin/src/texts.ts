import type { AuditAction } from '@portal/shared';
import { APP_LINK_LABELS } from '@portal/shared';

/**
 * Every Spanish string of the admin panel, in one module: the spec's (§2, §8), and where it is silent the decision
 * records'. Code elsewhere in the panel names a key here, never a literal.
 */
export const TEXT_ADMIN = {
  // Layout (spec §2 'Admin panel layout').
  users: 'Usuarios',
  // The page keeps the spec's title 'Dashboard de Administración'; its menu entry is Spanish. Not 'Panel': the avatar
  // menu's 'Panel' (spec §2) already names the whole admin area.
  dashboard: 'Resumen',
  apps: 'Aplicaciones',
  auditLog: 'Registro de auditoría',
  adminFallbackName: 'Admin',
  adminLabel: 'Administrador',
  goHome: 'Ir al inicio',
  logout: 'Cerrar Sesión',
  openMenu: 'Abrir menú',
  closeMenu: 'Cerrar menú',
  panelNav: 'Panel de administración',

  // The panel's gate for an administrator without a second factor in this session.
  setupSecondFactorTitle: 'Configura tu segundo factor',
  setupSecondFactorDetail:
    'Para usar el panel de administración necesitas una aplicación de autenticación o una llave de acceso.',
  setupSecondFactorAction: 'Configurar ahora',
  confirmIdentityTitle: 'Confirma tu identidad',
  confirmIdentityDetail:
    'Cierra sesión y vuelve a iniciarla con tu segundo factor para usar el panel de administración.',
  confirmIdentityAction: 'Cerrar sesión',
  securityErrorTitle: 'No se pudo abrir el panel de administración',

  // User management (spec §2 'User management').
  usersTitle: 'Gestión de Usuarios',
  totalUsers: 'Total de usuarios',
  activeUsers: 'Usuarios activos',
  pendingVerification: 'Pendientes de verificación',
  administrators: 'Administradores',
  emailFilter: 'Filtrar por email',
  emailPlaceholder: 'correo@ejemplo.com',
  statusFilter: 'Estado',
  search: 'Buscar',
  verify: 'Verificar',
  /** Why 'Verificar' and the checkboxes are greyed out (spec §5: only under the pending filter), and what comes next. */
  verifyNeedsPendingFilter:
    'Para verificar, elige el estado «Pendiente Verificación»: solo entonces se pueden marcar personas.',
  verifyNeedsSelection: 'Marca a las personas que quieras verificar.',
  // Verifying by hand drops the password typed at registration (nobody proved the mailbox) and mails the person a
  // link to choose one (api: accounts/activation.ts; docs/decisions/0006-registration-ids.md).
  verifyTitle: 'Verificar usuarios',
  verifyWhat: (n: number) =>
    n === 1
      ? 'Vas a activar 1 cuenta sin el código que se envió a su correo.'
      : `Vas a activar ${n} cuentas sin el código que se envió a cada correo.`,
  verifyPassword:
    'La contraseña que se escribió al registrarse no se guarda: nadie comprobó que quien la escribió sea el dueño del correo.',
  verifyMail: (n: number) =>
    n === 1
      ? 'Recibirá el correo «Tu cuenta está activa» con el enlace «Elegir mi contraseña». No le digas que entre con la contraseña que registró: que elija una desde ese correo o con «¿Olvidaste tu contraseña?».'
      : 'Cada persona recibirá el correo «Tu cuenta está activa» con el enlace «Elegir mi contraseña». No les digas que entren con la contraseña que registraron: que elijan una desde ese correo o con «¿Olvidaste tu contraseña?».',
  verifiedMail: (n: number) =>
    n === 1
      ? 'Recibirá un correo para elegir su contraseña: la que escribió al registrarse no se guardó.'
      : 'Cada uno recibirá un correo para elegir su contraseña: la que escribieron al registrarse no se guardó.',
  usersTable: 'Tabla de usuarios',
  colSelect: 'Seleccionar',
  colUser: 'Usuario',
  colRole: 'Rol',
  colStatus: 'Estado',
  colCreated: 'Fecha de registro',
  colPlans: 'Planes',
  colActions: 'Acciones',
  plans: 'Planes',
  suspend: 'Suspender',
  reactivate: 'Reactivar',
  pageSize: 'Usuarios por página',
  previous: 'Anterior',
  next: 'Siguiente',
  pagination: 'Paginación',
  noUsers: 'No se encontraron usuarios',
  /**
   * A text filter stops counting at 1 000 matches (the API's TOTAL_CAP). The panel's only text filter is the email
   * (spec §4: email and status; the API's `name` filter has no box here), so a capped count always comes from it.
   */
  usersFound: (total: number, capped: boolean) =>
    capped
      ? `Más de ${total.toLocaleString('es-ES')} usuarios: escribe más del email para acotar la búsqueda`
      : `${total.toLocaleString('es-ES')} ${total === 1 ? 'usuario' : 'usuarios'}`,
  loadingUsers: 'Cargando usuarios...',
  usersLoadFailed: 'No se pudo cargar la lista de usuarios.',
  selectUser: (email: string) => `Seleccionar ${email}`,
  editUserTitle: 'Editar usuario',
  lastName: 'Apellido',
  phone: 'Teléfono',
  phoneHint: 'Con + y el código del país, por ejemplo +51 912 345 678. Vacío lo borra.',
  ownAccountNote: 'No puedes cambiar tu propio rol ni tu estado.',
  userUpdated: (email: string) => `${email} ha sido actualizado`,
  confirmSuspendTitle: 'Suspender usuario',
  confirmSuspend: (email: string) =>
    `¿Suspender a ${email}? Su sesión se cerrará y no podrá entrar hasta que lo reactives.`,
  statusChanged: (email: string, suspended: boolean) =>
    suspended ? `${email} ha sido suspendido` : `${email} ha sido reactivado`,

  // Plans modal (spec §2).
  plansTitle: 'Planes del Usuario',
  noPlan: 'Sin plan asignado',
  plan: 'Plan',
  expiry: 'Fecha de vencimiento',
  /** A free plan's expiry: nothing ends a free plan, so no date is shown or asked for. */
  noExpiry: 'No vence',
  save: 'Guardar',
  saving: 'Guardando...',
  close: 'Cerrar',
  loadingPlans: 'Cargando planes...',
  noPlans: 'No se encontraron planes para este usuario.',

  // Dashboard (spec §2 'Admin dashboard').
  dashboardTitle: 'Dashboard de Administración',
  activeApps: 'Apps activas',
  activeSubscriptions: 'Suscripciones activas',
  newSubscriptions: 'Nuevas suscripciones',
  newUsersPerDay: 'Nuevos usuarios por día',
  monthlyRevenue: 'Ingresos mensuales (USD)',
  revenueCounts:
    'Cobros de suscripciones pagadas en la facturación. Los planes asignados por un administrador no cuentan.',
  revenueNoBilling:
    'La facturación no está configurada: no hay cobros que contar. Los planes asignados por un administrador no son ingresos.',
  planDistribution: 'Distribución de planes',
  quickActions: 'Acciones rápidas',
  manageUsers: 'Gestionar usuarios',
  configureApps: 'Configurar apps',
  viewReports: 'Ver reportes',
  loadingDashboard: 'Cargando...',
  usersCount: (n: number) => `${n} ${n === 1 ? 'usuario' : 'usuarios'}`,
  auditEmpty: 'Aún no hay acciones registradas',
  auditWhen: 'Fecha',
  auditWho: 'Administrador',
  auditWhat: 'Acción',
  auditWhom: 'Sobre',
  auditDetails: 'Detalles',

  // Apps page (spec §2: 'Pagina de apps' is where this belongs).
  appsTitle: 'Pagina de apps',
  appsPageSize: 'Aplicaciones por página',
  newApp: 'Nueva aplicación',
  edit: 'Editar',
  cancel: 'Cancelar',
  create: 'Crear aplicación',
  name: 'Nombre',
  description: 'Descripción',
  longDescription: 'Descripción larga',
  iconUrl: 'URL del icono',
  // The link labels live beside their rules (the API's messages name them): @portal/shared apps/links.
  webUrl: APP_LINK_LABELS.webUrl,
  iosUrl: APP_LINK_LABELS.iosUrl,
  androidUrl: APP_LINK_LABELS.androidUrl,
  enabledWeb: 'Habilitada en web',
  enabledMobile: 'Habilitada en móvil',
  tags: 'Etiquetas (separadas por comas)',
  web: 'Web',
  mobile: 'Móvil',
  yes: 'Sí',
  no: 'No',
  nameRequired: 'El nombre es requerido',
  appCreated: 'Aplicación agregada',
  appUpdated: 'Aplicación actualizada',
  editApp: (nombre: string) => `Editar ${nombre}`,

  // OpenID Connect clients, on the apps page (docs/decisions/0056-openid-connect-screens.md).
  oidcClients: 'Clientes OpenID Connect',
  oidcClientsIntro: 'Las aplicaciones que inician sesión con la cuenta del portal por OpenID Connect.',
  newOidcClient: 'Nuevo cliente',
  editOidcClient: (nombre: string) => `Editar cliente ${nombre}`,
  loadingOidcClients: 'Cargando clientes...',
  noOidcClients: 'No hay clientes OpenID Connect registrados.',
  confidential: 'Confidencial',
  public: 'Público',
  firstParty: 'Primera parte',
  thirdParty: 'Tercera parte',
  clientId: 'ID de cliente',
  clientType: 'Tipo',
  linkedApp: 'App del catálogo',
  noLinkedApp: 'Ninguna',
  redirectUris: 'URIs de redirección',
  postLogoutRedirectUris: 'URIs tras cerrar sesión',
  backchannelLogoutUri: 'URI de cierre de sesión por canal trasero',
  initiateLoginUri: 'URI de inicio de sesión iniciado por terceros',
  scopes: 'Permisos',
  onePerLine: 'Una por línea.',
  initiateLoginHint:
    'Si la tiene, «Abrir» en Aplicaciones lleva a esta dirección y la app inicia sesión con el portal.',
  typeFixed: 'El tipo no se puede cambiar después de crear el cliente.',
  firstPartyHint: 'Las aplicaciones de primera parte no piden permiso a la persona.',
  redirectUrisRequired: 'Escribe al menos una URI de redirección',
  scopeLabels: {
    openid: 'Identidad (openid, siempre)',
    profile: 'Nombre y apellido (profile)',
    email: 'Email (email)',
    phone: 'Teléfono (phone)',
    offline_access: 'Acceso sin conexión (offline_access)',
    plan: 'Plan en la app del catálogo (plan)',
  },
  planNeedsApp: 'El permiso plan solo tiene sentido con una app del catálogo.',
  rotateSecret: 'Rotar secreto',
  rotateSecretOf: (nombre: string) => `Rotar secreto de ${nombre}`,
  confirmRotateTitle: (nombre: string) => `¿Rotar el secreto de ${nombre}?`,
  confirmRotate:
    'El secreto actual dejará de funcionar en ese momento: la aplicación no podrá iniciar sesión hasta que configures el nuevo.',
  deleteClient: 'Eliminar',
  deleteClientOf: (nombre: string) => `Eliminar cliente ${nombre}`,
  confirmDeleteTitle: (nombre: string) => `¿Eliminar el cliente ${nombre}?`,
  confirmDelete: 'La aplicación dejará de poder iniciar sesión con el portal. No se puede deshacer.',
  clientCreated: 'Cliente creado',
  clientUpdated: 'Cliente actualizado',
  clientDeleted: 'Cliente eliminado',
  secretRotated: 'Secreto rotado',
  secretTitle: (nombre: string) => `Secreto de ${nombre}`,
  clientSecret: 'Secreto del cliente',
  secretOnce: 'Copia el secreto ahora: no se volverá a mostrar.',
  copy: 'Copiar',
  copied: 'Secreto copiado',
  copyFailed: 'No se pudo copiar: selecciónalo y cópialo a mano.',

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
  pageNumber: (page: number) => `Página ${page}`,
  plansOf: (email: string) => `Planes de ${email}`,
  editUser: (email: string) => `Editar a ${email}`,

  // 'Editar' of a user: the one phone rule registration and profile do not have, and the sessions warnings.
  phoneInternational: 'El teléfono debe empezar por + y el código del país',
  suspendEndsSessions: 'Al suspenderlo se cerrarán sus sesiones y no podrá entrar.',
  demoteEndsSessions: 'Al quitarle el rol de administrador se cerrarán sus sesiones.',

  // A user's sessions.
  sessions: 'Sesiones',
  sessionsOf: (email: string) => `Sesiones de ${email}`,
  sessionEnded: (label: string) => `Sesión de ${label} cerrada`,
  loadingSessions: 'Cargando sesiones',
  noSessions: 'Este usuario no tiene sesiones abiertas.',
  openSessions: 'Sesiones abiertas',
  sessionAddress: 'Dirección',
  sessionStarted: 'Inicio',
  sessionLastSeen: 'Último uso',
  endSession: 'Cerrar sesión',
  endSessionOf: (label: string) => `Cerrar sesión de ${label}`,
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
  'auth.lockout': 'Bloqueó el inicio de sesión',
  'user.session_end': 'Cerró una sesión',
  'oidc_client.create': 'Registró un cliente OpenID Connect',
  'oidc_client.update': 'Modificó un cliente OpenID Connect',
  'oidc_client.rotate_secret': 'Rotó el secreto de un cliente OpenID Connect',
  'oidc_client.delete': 'Eliminó un cliente OpenID Connect',
  'oidc.backchannel_logout': 'Avisó a una app del cierre de sesión',
};

/** The words of an audit row's details (pages/dashboard/audit-format.ts puts them together). */
export const AUDIT_DETAIL_TEXT = {
  noPlan: 'sin plan',
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
} as const;

/**
 * Spec §8: '{n} usuario(s) verificado(s) exitosamente', then what happens to their passwords, so that the
 * administrator does not tell them to sign in with the one they registered.
 */
export function verifiedMessage(count: number): string {
  const done = `${count} usuario(s) verificado(s) exitosamente`;
  return count > 0 ? `${done}. ${TEXT_ADMIN.verifiedMail(count)}` : done;
}

export const PLAN_SAVED = 'Plan actualizado exitosamente!';

/** Spec §9: success and failure alerts of the admin screens disappear after 5000 ms. */
export const ADMIN_ALERT_MS = 5000;
