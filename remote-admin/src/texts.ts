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
  /** Beside the person's own plan: a plan a company seat gives them, which only that company changes. */
  seatOf: (company: string) => `Puesto de ${company}`,
  seatPlan: (plan: string, expiry: string) => `${plan}, vence el ${expiry}. Lo gestiona la empresa.`,
  /** Under the own plan's date when it has passed: the plan is kept, it no longer counts until renewed. */
  ownLapsed: (expiry: string) => `Venció el ${expiry}: renueva la fecha para que vuelva a contar.`,

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
  subjectKind: 'Identificador de la persona',
  subjectKinds: {
    opaco: 'Opaco',
    por_cliente: 'Distinto en cada app',
    numerico: 'Número de cuenta',
  },
  subjectKindHints: {
    opaco: 'Un código aleatorio de la cuenta, el mismo en todas las apps con esta opción.',
    por_cliente: 'Un código que solo esta app conoce: dos apps no pueden cruzar a sus personas.',
    numerico: 'El número de la cuenta en el portal; lo conservan las apps registradas antes de esta opción.',
  },
  subjectKindChanged:
    'Al guardar, la app recibirá identificadores nuevos para todas las personas y dejará de reconocer a quienes ya ' +
    'tenía guardados.',
  redirectUrisRequired: 'Escribe al menos una URI de redirección',
  deviceFlow: 'Inicio de sesión en dispositivos',
  deviceFlowHint:
    'Un aparato sin teclado ni navegador (un panel de planta, un quiosco, una herramienta de línea de comandos) ' +
    'muestra un código que la persona confirma en /dispositivo.',
  redirectUrisOptional: 'Una por línea. Un cliente público que solo inicia sesión en dispositivos no necesita ninguna.',
  scopeLabels: {
    openid: 'Identidad (openid, siempre)',
    profile: 'Nombre y apellido (profile)',
    email: 'Email (email)',
    phone: 'Teléfono (phone)',
    offline_access: 'Acceso sin conexión (offline_access)',
    plan: 'Plan en la app del catálogo (plan)',
    organization: 'Empresas y roles (organization)',
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
  'oidc_client.subscription_create': 'Suscribió una dirección a eventos',
  'oidc_client.subscription_delete': 'Eliminó una suscripción a eventos',
  'oidc_client.subscription_rotate_secret': 'Rotó el secreto de una suscripción a eventos',
  'oidc_client.subscription_disabled': 'Se desactivó una suscripción a eventos',
  'oidc_client.delivery_resend': 'Reenvió un evento a una app',
  'oidc.backchannel_logout': 'Avisó a una app del cierre de sesión',
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
  'company.provider_update': 'Proveedor de identidad conectado o cambiado',
  'company.provider_remove': 'Proveedor de identidad desconectado',
  'company.sign_in': 'Inicio de sesión con el acceso de la empresa',
  'company.identity_link': 'Cuenta vinculada al acceso de la empresa',
  'company.scim_token_create': 'Token SCIM creado',
  'company.scim_token_revoke': 'Token SCIM revocado',
  'company.member_provision': 'Persona dada de alta por el directorio',
  'company.member_update': 'Persona actualizada por el directorio',
  'company.member_deprovision': 'Persona dada de baja por el directorio',
};

/** The words of an audit row's details (pages/dashboard/audit-format.ts puts them together). */
export const AUDIT_DETAIL_TEXT = {
  deliveryResend: (event: string, seq: string, url: string) => `${event} n.º ${seq} a ${url}`,
  subscriptionDisabled: (url: string, reason: string) => (reason ? `${url}: ${reason}` : url),
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

/**
 * 'Eventos' of an OpenID Connect client (docs/decisions/0087-partner-events-panel.md): the receivers subscribed to a
 * person's and a plan's changes, their secrets, and what was delivered to each.
 */
export const TEXT_EVENTS = {
  events: 'Eventos',
  eventsOf: (nombre: string) => `Eventos de ${nombre}`,
  intro:
    'Direcciones https de la app que reciben, firmados, los cambios de las personas y de sus planes en cuanto ocurren.',
  loading: 'Cargando suscripciones...',
  none: 'Esta app no tiene suscripciones a eventos.',
  newSubscription: 'Nueva suscripción',
  newSubscriptionOf: (nombre: string) => `Nueva suscripción de ${nombre}`,
  url: 'URL del receptor',
  urlHint: 'Una dirección https de la app; el portal le envía cada evento con una petición POST firmada.',
  eventTypes: 'Eventos',
  eventLabels: {
    'usuario.actualizado': 'Perfil actualizado (usuario.actualizado)',
    'usuario.suspendido': 'Cuenta suspendida (usuario.suspendido)',
    'usuario.reactivado': 'Cuenta reactivada (usuario.reactivado)',
    'usuario.eliminado': 'Cuenta eliminada (usuario.eliminado)',
    'plan.asignado': 'Plan asignado (plan.asignado)',
    'plan.cambiado': 'Plan cambiado (plan.cambiado)',
    'plan.retirado': 'Plan retirado (plan.retirado)',
    'plan.vencido': 'Plan vencido (plan.vencido)',
    'consentimiento.revocado': 'Consentimiento revocado (consentimiento.revocado)',
  },
  urlRequired: 'Escribe la URL del receptor',
  urlInvalid: 'La URL del receptor debe ser una dirección completa, como https://app.example.com/eventos',
  eventsRequired: 'Marca al menos un evento',
  subscriptionCreated: 'Suscripción creada',
  subscriptionDeleted: 'Suscripción eliminada',
  secretRotated: 'Secreto de la suscripción rotado',
  active: 'Activa',
  disabled: (reason: string | null) => (reason ? `Desactivada: ${reason}` : 'Desactivada'),
  subscriptionEvents: 'Eventos suscritos',
  rotateSecret: 'Rotar secreto',
  rotateSecretOf: (url: string) => `Rotar secreto de la suscripción ${url}`,
  confirmRotateTitle: '¿Rotar el secreto de la suscripción?',
  confirmRotate:
    'El portal firmará con el secreto nuevo y, durante 24 horas, también con el actual: configura el nuevo en la app antes de que pase ese plazo.',
  deleteSubscription: 'Eliminar',
  deleteSubscriptionOf: (url: string) => `Eliminar suscripción ${url}`,
  confirmDeleteTitle: '¿Eliminar la suscripción?',
  confirmDelete: (url: string) =>
    `El portal dejará de enviar eventos a ${url} y se perderán las entregas pendientes. No se puede deshacer.`,
  secretTitle: 'Secreto de la suscripción',
  secretLabel: 'Secreto de firma (whsec_...)',
  secretOnce:
    'Copia el secreto ahora: no se volverá a mostrar. La app lo necesita para comprobar la firma de cada evento.',
  deliveries: 'Entregas recientes',
  deliveriesOf: (url: string) => `Entregas recientes a ${url}`,
  loadingDeliveries: 'Cargando entregas...',
  noDeliveries: 'Todavía no hay entregas.',
  deliveryColumns: {
    event: 'Evento',
    state: 'Estado',
    tries: 'Intentos',
    lastError: 'Último error',
    code: 'Código',
    date: 'Fecha',
    actions: 'Acciones',
  },
  deliveryStates: {
    pendiente: 'Pendiente',
    reintentando: 'Reintentando',
    entregada: 'Entregada',
    fallida: 'Fallida',
    cancelada: 'Cancelada',
  },
  nextTry: (when: string) => `Próximo intento: ${when}`,
  noError: '—',
  noCode: '—',
  resend: 'Reenviar',
  resendOf: (event: string, seq: number) => `Reenviar ${event} n.º ${seq}`,
  resent: 'Entrega puesta de nuevo en cola',
  shownOf: (shown: number) => `${shown} ${shown === 1 ? 'entrega' : 'entregas'}`,
  refresh: 'Actualizar',
  refreshDeliveriesOf: (url: string) => `Actualizar entregas a ${url}`,
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

export const PLAN_SAVED = 'Plan actualizado exitosamente!';

/** Spec §9: success and failure alerts of the admin screens disappear after 5000 ms. */
export const ADMIN_ALERT_MS = 5000;

/**
 * The company screens (docs/decisions/0078-company-screens.md): the platform's 'Empresas' and each company's page,
 * which its owners and administrators see too.
 */
export const TEXT_COMPANY = {
  navCompanies: 'Empresas',
  navCompany: 'Empresa',
  companyManagerLabel: 'Administración de empresa',
  companiesTitle: 'Empresas',
  yourCompanies: 'Tus empresas',
  companiesTable: 'Tabla de empresas',
  newCompany: 'Nueva empresa',
  name: 'Nombre',
  nameFilter: 'Buscar por nombre',
  namePlaceholder: 'Minera Andina',
  nameRequired: 'Escribe el nombre de la empresa',
  statusFilter: 'Estado',
  allStatuses: 'Todos',
  statusActive: 'Activa',
  statusSuspended: 'Suspendida',
  colCompany: 'Empresa',
  colStatus: 'Estado',
  colMembers: 'Miembros',
  colLicences: 'Licencias',
  colCreated: 'Alta',
  colActions: 'Acciones',
  rename: 'Renombrar',
  renameOf: (nombre: string) => `Renombrar ${nombre}`,
  renameTitle: (nombre: string) => `Renombrar ${nombre}`,
  suspend: 'Suspender',
  reactivate: 'Reactivar',
  suspendOf: (nombre: string) => `Suspender ${nombre}`,
  reactivateOf: (nombre: string) => `Reactivar ${nombre}`,
  suspendTitle: (nombre: string) => `¿Suspender ${nombre}?`,
  suspendText:
    'Sus administradores no podrán gestionarla y sus puestos dejarán de dar el plan a sus miembros hasta que la reactives.',
  reactivateTitle: (nombre: string) => `¿Reactivar ${nombre}?`,
  reactivateText: 'Sus administradores podrán volver a gestionarla y sus puestos volverán a dar el plan.',
  companyCreated: (nombre: string) => `Empresa «${nombre}» creada`,
  companyRenamed: 'Empresa renombrada',
  companySuspended: (nombre: string) => `${nombre} ha sido suspendida`,
  companyReactivated: (nombre: string) => `${nombre} ha sido reactivada`,
  noCompanies: 'No se encontraron empresas con esos filtros.',
  noCompaniesYet: 'Todavía no hay empresas: crea la primera con «Nueva empresa».',
  companiesFound: (n: number) => `${n.toLocaleString('es-ES')} ${n === 1 ? 'empresa' : 'empresas'}`,
  pageSize: 'Empresas por página',
  loadingCompanies: 'Cargando empresas...',
  loadingCompany: 'Cargando empresa...',
  noManagedCompany: 'No administras ninguna empresa.',
  backToCompanies: '← Empresas',
  sectionsLabel: 'Secciones de la empresa',
  companyFacts: (members: number, pending: number, role: string | null) =>
    [
      `${members.toLocaleString('es-ES')} ${members === 1 ? 'miembro activo' : 'miembros activos'}`,
      pending ? `${pending.toLocaleString('es-ES')} pendiente${pending === 1 ? '' : 's'} de aprobación` : '',
      role ? `Tu rol: ${role}` : '',
    ]
      .filter(Boolean)
      .join(' · '),

  // Roles and states inside a company.
  memberActive: 'Activo',
  memberPending: 'Pendiente de aprobación',

  // Sections.
  members: 'Miembros',
  invitations: 'Invitaciones',
  seats: 'Puestos',
  licences: 'Licencias',
  domains: 'Dominios',
  activity: 'Registro de actividad',
  seatReport: 'Informe de puestos',
  settings: 'Ajustes',

  // Licences.
  sellLicence: 'Vender licencia',
  changeLicence: 'Cambiar',
  changeLicenceOf: (app: string) => `Cambiar licencia de ${app}`,
  sellLicenceTitle: 'Vender licencia',
  changeLicenceTitle: (app: string) => `Cambiar licencia de ${app}`,
  app: 'App',
  plan: 'Plan',
  seatsBought: 'Puestos',
  expiry: 'Vencimiento',
  chooseApp: 'Elige la app',
  choosePlan: 'Elige el plan',
  seatsRange: 'Los puestos deben ser un número entero entre 1 y 100 000',
  expiryRequired: 'Elige la fecha de vencimiento',
  noLicences: 'La empresa aún no tiene licencias.',
  loadingLicences: 'Cargando licencias...',
  licenceSold: 'Licencia vendida',
  licenceChanged: 'Licencia cambiada',
  bought: 'Comprados',
  inUse: 'En uso',
  free: 'Libres',
  over: 'Excedidos',
  expires: 'Vence',
  state: 'Estado',
  seatCounts: (inUse: number, bought: number, free: number) =>
    `${inUse} de ${bought} en uso · ${free} ${free === 1 ? 'libre' : 'libres'}`,
  overAllocated: (n: number) => `${n} ${n === 1 ? 'asignado' : 'asignados'} de más`,
  expiredOn: (day: string) => `Vencida el ${day}`,
  expiresSoon: (day: string, days: number) =>
    `Vence el ${day} (${days === 0 ? 'hoy' : days === 1 ? 'mañana' : `en ${days} días`})`,
  expiresOn: (day: string) => `Vence el ${day}`,
  expired: 'Vencida',
  expiringSoon: 'Vence pronto',
  licenceHint:
    'Al vencer, los puestos dejan de dar el plan y no se asignan otros. Si bajas los puestos por debajo de los que están en uso, nadie pierde el suyo, pero no se asignan más hasta quitar los de más.',
  /** What a company's own administrators read: the seats and the expiry are the vendor's to change. */
  licenceHintCompany: 'Al vencer, los puestos dejan de dar el plan y no se asignan otros.',
  moreSeats: 'Para tener más puestos o renovar una licencia,',
  moreSeatsWrite: 'escríbenos a',
  moreSeatsNoSupport: 'pídelo a quien le vendió las licencias a tu empresa.',
  moreSeatsSubject: (company: string) => `Más puestos para ${company}`,
  /** Beside a greyed-out 'Asignar': why, and what to do. */
  noFreeSeats: (app: string) => `No quedan puestos libres de ${app}: quita el suyo a otra persona o pide más.`,
  noFreeSeatsPlatform: (app: string) =>
    `No quedan puestos libres de ${app}: quita el suyo a otra persona o cambia la licencia en «Licencias».`,

  // Members.
  emailFilter: 'Filtrar por email',
  emailPlaceholder: 'correo@empresa.com',
  search: 'Buscar',
  membersTable: 'Tabla de miembros',
  colMember: 'Miembro',
  colRole: 'Rol',
  colMemberStatus: 'Estado',
  colSeats: 'Puestos',
  colSince: 'Desde',
  secondFactor: 'Segundo factor',
  withSecondFactor: 'Con segundo factor',
  withoutSecondFactor: 'Sin segundo factor',
  roleOf: (email: string) => `Rol de ${email}`,
  remove: 'Quitar',
  removeOf: (email: string) => `Quitar a ${email}`,
  removeTitle: (email: string) => `¿Quitar a ${email} de la empresa?`,
  removeText: 'Sus puestos vuelven a quedar libres y deja de ver las apps que le daba la empresa.',
  approve: 'Aprobar',
  approveOf: (email: string) => `Aprobar a ${email}`,
  manageSeats: 'Puestos',
  manageSeatsOf: (email: string) => `Puestos de ${email}`,
  seatsOfTitle: (name: string) => `Puestos de ${name}`,
  assign: 'Asignar',
  assignOf: (app: string) => `Asignar puesto de ${app}`,
  takeBack: 'Quitar puesto',
  takeBackOf: (app: string) => `Quitar puesto de ${app}`,
  hasSeat: 'Con puesto',
  noSeat: 'Sin puesto',
  noSeats: 'Sin puestos',
  noLicencesToAssign: 'La empresa no tiene licencias: no hay puestos que asignar.',
  loadMore: 'Cargar más',
  membersShown: (shown: number, total: number) =>
    `${shown.toLocaleString('es-ES')} de ${total.toLocaleString('es-ES')} ${total === 1 ? 'miembro' : 'miembros'}`,
  noMembers: 'No se encontraron miembros con ese email.',
  noMembersYet: 'La empresa aún no tiene miembros: invita a tu equipo en «Invitaciones».',
  loadingMembers: 'Cargando miembros...',
  roleChanged: (email: string, role: string) => `${email} ahora es ${role}`,
  memberRemoved: (email: string) => `${email} ya no es miembro`,
  memberApproved: (email: string) => `${email} ya es miembro`,
  seatAssigned: (app: string) => `Puesto de ${app} asignado`,
  seatTakenBack: (app: string) => `Puesto de ${app} quitado`,

  // Invitations.
  invite: 'Invitar',
  inviteTitle: 'Invitar a la empresa',
  sendInvitation: 'Enviar invitación',
  sendingInvitation: 'Enviando...',
  email: 'Email',
  role: 'Rol',
  emailRequired: 'Escribe el email de la persona',
  inviteHint: 'Recibirá un correo con un código y un enlace, válidos 7 días.',
  invitationsTable: 'Tabla de invitaciones',
  colSent: 'Enviada',
  colExpires: 'Vence',
  resend: 'Reenviar',
  resendOf: (email: string) => `Reenviar invitación a ${email}`,
  revoke: 'Revocar',
  revokeOf: (email: string) => `Revocar invitación a ${email}`,
  revokeTitle: (email: string) => `¿Revocar la invitación a ${email}?`,
  revokeText: 'El código enviado dejará de servir. Puedes volver a invitar a esa dirección cuando quieras.',
  invited: (email: string) => `Invitación enviada a ${email}`,
  resent: (email: string) => `Invitación reenviada a ${email}`,
  revoked: (email: string) => `Invitación a ${email} revocada`,
  noInvitations: 'No hay invitaciones.',
  loadingInvitations: 'Cargando invitaciones...',
  invitationStates: {
    pendiente: 'Pendiente',
    aceptada: 'Aceptada',
    revocada: 'Revocada',
    vencida: 'Vencida',
  } as Record<string, string>,

  // Seats.
  seatsTable: 'Tabla de puestos',
  appFilter: 'App',
  allApps: 'Todas',
  colAssigned: 'Asignado',
  noSeatsAssigned: 'No se encontraron puestos con esos filtros.',
  noSeatsAssignedYet: 'Aún no hay puestos asignados: asígnalos a cada persona en «Miembros».',
  seatsShown: (shown: number, total: number) =>
    `${shown.toLocaleString('es-ES')} de ${total.toLocaleString('es-ES')} ${total === 1 ? 'puesto' : 'puestos'}`,
  takeBackTitle: (app: string, email: string) => `¿Quitar el puesto de ${app} a ${email}?`,
  takeBackText: 'El puesto queda libre para otro miembro; esa persona pasa a su propio plan desde su próxima consulta.',
  takeBackSeatOf: (app: string, email: string) => `Quitar puesto de ${app} a ${email}`,

  // Domains.
  addDomain: 'Añadir dominio',
  domain: 'Dominio',
  domainRequired: 'Escribe el dominio',
  domainAdded: (domain: string) => `Dominio ${domain} añadido: publica el registro TXT y pulsa «Verificar»`,
  domainVerified: (domain: string) => `Dominio ${domain} verificado`,
  domainRemoved: (domain: string) => `Dominio ${domain} quitado`,
  verify: 'Verificar',
  verifyOf: (domain: string) => `Verificar ${domain}`,
  verifying: 'Verificando...',
  confirm: 'Confirmar',
  confirmOf: (domain: string) => `Confirmar ${domain}`,
  confirmTitle: (domain: string) => `¿Confirmar ${domain} sin registro DNS?`,
  confirmText:
    'Confirma que comprobaste por otro medio que la empresa es dueña del dominio. Queda registrado a tu nombre.',
  removeDomainOf: (domain: string) => `Quitar ${domain}`,
  removeDomainTitle: (domain: string) => `¿Quitar el dominio ${domain}?`,
  removeDomainText:
    'Quien verifique un email de ese dominio ya no entrará en la empresa. Los miembros actuales siguen.',
  verifiedByDns: 'Verificado por DNS',
  verifiedByAdmin: 'Confirmado por la plataforma',
  notVerified: 'Sin verificar',
  txtRecord: 'Registro TXT',
  txtName: 'Nombre',
  txtValue: 'Valor',
  copy: 'Copiar',
  copyOf: (what: string) => `Copiar ${what}`,
  copied: 'Copiado',
  copyFailed: 'No se pudo copiar: selecciónalo y cópialo a mano.',
  noDomains: 'La empresa no tiene dominios.',
  loadingDomains: 'Cargando dominios...',
  domainsIntro:
    'Quien verifique un email de un dominio verificado entra en la empresa como miembro (al instante o tras tu aprobación, según los ajustes).',

  // Seat report.
  downloadCsv: 'Descargar CSV',
  reportTable: 'Informe de puestos por app y plan',
  noReport: 'Sin licencias: el informe está vacío.',
  loadingReport: 'Cargando informe...',
  csvFileName: (company: string) => `informe-puestos-${company.toLowerCase().replace(/[^a-z0-9]+/g, '-')}.csv`,

  // Activity.
  activityEmpty: 'Aún no hay actividad registrada',
  // Who did it: a member accepting an invitation as much as an administrator.
  activityWho: 'Quién',
  joinAutomaticShort: 'automática',
  joinApprovalShort: 'con aprobación',
  yes: 'sí',
  no: 'no',
  seatsCount: (n: number) => `${n.toLocaleString('es-ES')} ${n === 1 ? 'puesto' : 'puestos'}`,
  auditByDns: 'probado por DNS',
  auditByAdmin: 'confirmado por la plataforma',
  userNumber: (id: number) => `usuario n.º ${id}`,
  appNumber: (id: number) => `app n.º ${id}`,
  inForce: 'Vigente',

  // Where a change of the activity came from (the API's `origen` of each entry).
  activitySource: 'Origen',
  sources: {
    scim: 'SCIM',
    proveedor: 'Proveedor de la empresa',
    administrador: 'Administrador de la empresa',
    plataforma: 'Plataforma',
    persona: 'La propia persona',
    consola: 'Consola del operador',
  } as Record<string, string>,
  auditPassword: (allowed: boolean) => (allowed ? 'también con contraseña' : 'sin contraseña del portal'),
  auditSecretChanged: 'secreto cambiado',
  auditToken: (prefix: string) => `token ${prefix}…`,

  // The company's own sign-in (docs/decisions/0080-company-sign-in.md).
  access: 'Acceso de la empresa',
  accessIntro:
    'Las personas de la empresa inician sesión en el portal con el proveedor de identidad de la empresa (OpenID Connect: Entra ID, Okta, Google Workspace…).',
  noProvider: 'La empresa aún no ha conectado su proveedor de identidad.',
  loadingProvider: 'Cargando el acceso de la empresa...',
  providerForm: 'Proveedor de identidad',
  issuer: 'Emisor (issuer)',
  issuerHint: 'La dirección https del proveedor, la que publica /.well-known/openid-configuration.',
  clientIdLabel: 'ID de cliente',
  clientSecretLabel: 'Secreto de cliente',
  clientSecretKept: 'Vacío: se mantiene el actual.',
  accessDomains: 'Dominios',
  accessDomainsHint: 'Quien tenga un email de estos dominios entra con el proveedor de la empresa.',
  noProvedDomains:
    'La empresa no tiene dominios verificados: verifica uno en «Dominios» antes de conectar el proveedor.',
  otherDomains: 'Otros dominios (separados por comas)',
  otherDomainsHint: 'Al guardar, la plataforma los da por probados para esta empresa.',
  allowPassword: 'Permitir también la contraseña del portal',
  issuerRequired: 'Escribe el emisor (issuer) del proveedor',
  clientIdRequired: 'Escribe el ID de cliente',
  clientSecretRequired: 'Escribe el secreto de cliente',
  domainsRequired: 'Elige al menos un dominio',
  providerSaved: 'Acceso de la empresa guardado',
  redirectUri: 'Dirección de redirección',
  redirectUriHint:
    'Registra esta dirección de redirección en tu proveedor: al crear allí la aplicación del portal te da su ID y su secreto de cliente.',
  lastAccess: 'Último acceso',
  never: 'Nunca',
  lastError: (when: string, error: string) => `Último error (${when}): ${error}`,
  passwordAllowed: 'Contraseña del portal',
  passwordAllowedYes: 'También se puede entrar con la contraseña del portal',
  passwordAllowedNo: 'Solo con el proveedor de la empresa',
  disconnect: 'Desconectar',
  disconnectTitle: '¿Desconectar el proveedor de identidad?',
  disconnectText:
    'Las personas de la empresa volverán a entrar con su contraseña del portal. Los vínculos de sus cuentas se conservan por si vuelves a conectarlo.',
  disconnected: 'Proveedor de identidad desconectado',
  readOnly: 'Solo los propietarios de la empresa pueden cambiar esto.',

  // The company's directory (SCIM, docs/decisions/0081-scim-provisioning.md).
  directory: 'Directorio (SCIM)',
  directoryIntro:
    'El directorio de la empresa (Entra ID, Okta…) da de alta, actualiza y da de baja a sus personas en el portal con la URL base y un token.',
  scimBaseUrl: 'URL base',
  scimTokens: 'Tokens del directorio',
  loadingScimTokens: 'Cargando tokens...',
  noScimTokens: 'La empresa aún no tiene tokens del directorio.',
  createToken: 'Crear token',
  createTokenTitle: 'Crear token del directorio',
  tokenDescription: 'Descripción (opcional)',
  tokenDescriptionTooLong: 'La descripción admite hasta 100 caracteres',
  tokenCreatedTitle: 'Token del directorio creado',
  tokenOnce: 'Copia el token ahora: no se volverá a mostrar.',
  token: 'Token',
  colToken: 'Token',
  colDescription: 'Descripción',
  colTokenCreated: 'Creado',
  colCreatedBy: 'Creado por',
  colLastUse: 'Último uso',
  tokenActive: 'Activo',
  tokenRevoked: (when: string) => `Revocado ${when}`,
  tokenPrefix: (prefix: string) => `${prefix}…`,
  revokeTokenOf: (prefix: string) => `Revocar token ${prefix}…`,
  revokeTokenTitle: (prefix: string) => `¿Revocar el token ${prefix}…?`,
  revokeTokenText:
    'El directorio que lo use dejará de poder dar de alta, cambiar o dar de baja a personas. No se puede deshacer.',
  tokenRevokedDone: (prefix: string) => `Token ${prefix}… revocado`,
  scimLog: 'Últimas peticiones del directorio',
  scimLogTable: 'Últimas peticiones del directorio',
  loadingScimLog: 'Cargando peticiones...',
  noScimLog: 'El directorio aún no ha hecho ninguna petición.',
  refresh: 'Actualizar',
  colDate: 'Fecha',
  colMethod: 'Método',
  colPath: 'Ruta',
  colHttpStatus: 'Estado',
  colDetail: 'Detalle',
  colPerson: 'Usuario',

  // Settings.
  domainJoin: 'Alta por dominio',
  joinAutomatic: 'Automática: entra como miembro al verificar su email',
  joinApproval: 'Con aprobación: espera a que un administrador lo apruebe',
  requireSecondFactor: 'Exigir segundo factor',
  requireSecondFactorHint:
    'Los puestos de la empresa solo dan el plan a los miembros que tengan un segundo factor configurado.',
  settingsSaved: 'Ajustes guardados',
  save: 'Guardar',
  saving: 'Guardando...',
  close: 'Cerrar',
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
  scimLog: 'No se pudieron cargar las peticiones del directorio',
} as const;
