/** The users page (spec §2 'User management'): the list, verifying, editing, a user's plans and sessions. */
export const TEXT_USERS = {
  usersTitle: 'Gestión de Usuarios',
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
  // link to choose one (api: registration/activation.ts; docs/decisions/0006-registration-ids.md).
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
  loadingPlans: 'Cargando planes...',
  noPlans: 'No se encontraron planes para este usuario.',
  /** Beside the person's own plan: a plan a company seat gives them, which only that company changes. */
  seatOf: (company: string) => `Puesto de ${company}`,
  seatPlan: (plan: string, expiry: string) => `${plan}, vence el ${expiry}. Lo gestiona la empresa.`,
  /** Under the own plan's date when it has passed: the plan is kept, it no longer counts until renewed. */
  ownLapsed: (expiry: string) => `Venció el ${expiry}: renueva la fecha para que vuelva a contar.`,
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

/** Spec §8: the plan dialog's success. */
export const PLAN_SAVED = 'Plan actualizado exitosamente!';

/**
 * Spec §8: '{n} usuario(s) verificado(s) exitosamente', then what happens to their passwords, so that the
 * administrator does not tell them to sign in with the one they registered.
 */
export function verifiedMessage(count: number): string {
  const done = `${count} usuario(s) verificado(s) exitosamente`;
  return count > 0 ? `${done}. ${TEXT_USERS.verifiedMail(count)}` : done;
}
