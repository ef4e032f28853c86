/** What the API says about the second factor (TOTP, passkeys, sign-in tickets, the admin rule): each Spanish text under one key, looked up where the error is made. */
export const secondFactorMessages = {
  signInTicketExpired: 'El tiempo para confirmar tu identidad terminó. Inicia sesión de nuevo',
  lastSecondFactor: 'Un administrador debe conservar un segundo factor: agrega otro antes de quitar este',
  verifiedSessionRequired:
    'Para cambiar tu verificación en dos pasos o tus llaves de acceso, vuelve a iniciar sesión con tu segundo factor',
  invalidSecondFactor: 'Código incorrecto',
  totpAlreadyEnabled: 'Ya tienes una aplicación de autenticación activa',
  totpNotStarted: 'Primero genera el código QR',
  totpNotEnabled: 'No tienes una aplicación de autenticación activa',
  passkeyCeremonyExpired: 'La solicitud de la llave de acceso expiró o ya se usó. Inténtalo de nuevo',
  passkeyNotVerified: 'No se pudo verificar la llave de acceso',
  passkeyExists: 'Esta llave de acceso ya está registrada',
  passkeyNotFound: 'Llave de acceso no encontrada',
  secondFactorSetupRequired:
    'Configura un segundo factor (aplicación de autenticación o llave de acceso) para usar el panel de administración',
  secondFactorSessionRequired: 'Vuelve a iniciar sesión con tu segundo factor para usar el panel de administración',
  passkeySignInRefused: 'No se pudo iniciar sesión con esta llave de acceso',
  trustedDevicesForbidden:
    'Una de tus empresas no permite recordar dispositivos: confirmarás tu identidad en cada inicio de sesión',
  trustedDeviceNotFound: 'Ese dispositivo de confianza no existe o ya se quitó',
  adminTrustedDevicesForbidden:
    'Las cuentas de administrador confirman el segundo factor en cada inicio de sesión: no se recuerda ningún dispositivo',
} as const;

/** Why the sign-in asks the code although the browser is a trusted device of the account, a sentence per reason. */
export const trustedDeviceStoppedMessages = {
  quitado: 'Este dispositivo dejó de ser de confianza porque lo quitaste en Seguridad.',
  factor_quitado: 'Este dispositivo dejó de ser de confianza porque quitaste un segundo factor de tu cuenta.',
  sesiones_cerradas: 'Este dispositivo dejó de ser de confianza porque cerraste tus otras sesiones.',
  contrasena: 'Este dispositivo dejó de ser de confianza porque tu contraseña cambió.',
  suspension: 'Este dispositivo dejó de ser de confianza porque tu cuenta fue suspendida.',
  rol: 'Este dispositivo dejó de ser de confianza porque tu rol en el portal cambió.',
  cuenta: 'Este dispositivo dejó de ser de confianza porque se cerraron todas las sesiones de tu cuenta.',
  expirado: 'Este dispositivo dejó de ser de confianza: pasaron los 30 días en que no se pedía el código.',
  administrador: 'Las cuentas de administrador confirman el segundo factor en cada inicio de sesión.',
  empresa: secondFactorMessages.trustedDevicesForbidden,
} as const;
