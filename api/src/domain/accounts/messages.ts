/** What the API says about accounts (password sign-in, status, role, password, profile): each Spanish text under one key, looked up where the error is made. */
export const accountMessages = {
  invalidCredentials: 'Credenciales inválidas',
  /** An active account with no password: activated by an administrator, or made with Google or Apple. */
  passwordNotSet:
    'Tu cuenta está activa pero aún no tiene contraseña. Elígela con «¿Olvidaste tu contraseña?»: te enviaremos un código a tu email.',
  statusNotAllowed: 'Una cuenta no puede volver a quedar pendiente de verificación',
  cannotChangeOwnStatus: 'No puedes cambiar el estado de tu propia cuenta',
  cannotChangeOwnRole: 'No puedes quitarte el rol de administrador',
  userNotFound: 'Usuario no encontrado',
  userPending: 'El usuario aún no ha verificado su email: verifícalo antes de suspenderlo',
  lastAdmin: 'Es el último administrador activo: crea o promueve otro antes',
  noPassword:
    'Tu cuenta no tiene contraseña porque entras con Google o Apple. Crea una con «¿Olvidaste tu contraseña?».',
  invalidCurrentPassword: 'La contraseña actual es incorrecta',
} as const;
