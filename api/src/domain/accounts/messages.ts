/** What the API says about accounts (status, role, password, profile): each Spanish text under one key, looked up where the error is made. */
export const accountMessages = {
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
