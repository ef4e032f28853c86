/** The Spanish fallback messages of spec §8: shown when the server sends no message of its own. */
export const FALLBACK = {
  login: 'Error al iniciar sesión',
  register: 'Error al registrar usuario',
  verifyCode: 'Error al verificar el código',
  resend: 'Error al reenviar el código',
  currentUser: 'Error al obtener usuario',
  googleStart: 'Error al iniciar autenticación con Google',
  appleStart: 'Error al iniciar autenticación con Apple',
  googleCallback: 'Error al procesar autenticación con Google',
  listUsers: 'Error al listar usuarios',
  changeStatus: 'Error al cambiar estado del usuario',
  editUser: 'Error al editar usuario',
  presentation: 'Error al actualizar presentación',
  updateInfo: 'Error al actualizar información del usuario',
  verifyByIds: 'Error al verificar usuarios por IDs',
  stats: 'Error al obtener stat cards',
  billingProducts: 'Error al obtener los productos',
  billingPortal: 'Error al crear la sesión de portal',
  billingCustomerSession: 'Error al crear sesion del cliente',
  listApps: 'No se pudieron obtener las aplicaciones',
  createApp: 'No se pudo agregar la aplicación',
  updateApp: 'No se pudo actualizar la aplicación',
  forgotPassword: 'Error al procesar la solicitud. Inténtalo de nuevo.',
  changePassword: 'Error al cambiar la contraseña. Inténtalo de nuevo.',
  updatePassword: 'Error al actualizar la contraseña, verifica los campos de entrada',
  sessions: 'No se pudieron cargar las sesiones',
  endSession: 'No se pudo cerrar la sesión',
  updateProfile: 'Error al actualizar la información',
  /** The 'Seguridad' tab and the admin panel's gate read the account's second factors. */
  security: 'No se pudo comprobar la seguridad de tu cuenta',
  /** Registration's email check and other unexpected failures (spec §4). */
  unexpected: 'Ups! Ocurrió un error inesperado, inténtalo de nuevo',
  /** Shown when the API cannot be reached at all (down, network, timeout). */
  network: 'No se pudo conectar con el servidor. Revisa tu conexión e inténtalo de nuevo.',
} as const;

/** Texts the shell and several remotes show. */
export const TEXT = {
  loading: 'Cargando...',
  /** A sign-in finishing (the OAuth return, the hand-over to a partner app): says what the wait is for. */
  signingIn: 'Iniciando sesión...',
  loadingApps: 'Cargando aplicaciones...',
  noApps: 'No hay aplicaciones disponibles',
  accessDenied: 'Acceso Denegado',
  accessDeniedDetail: 'No tienes permisos para acceder a esta área.',
  notFound: 'Página no encontrada',
  remoteUnavailable: 'Esta sección no está disponible en este momento.',
  remoteUnavailableDetail: 'No pudimos cargar esta parte del portal. El resto sigue funcionando.',
  retry: 'Reintentar',
} as const;
