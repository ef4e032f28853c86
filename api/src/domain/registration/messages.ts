/** What the API says about registration: each Spanish text under one key, looked up where the error is made. */
export const registrationMessages = {
  emailInUse: 'Este email ya está registrado. Inicia sesión para continuar.',
  registrationExpired:
    'Los datos de tu registro ya no están guardados (caducan en un día, o este email tiene registros más nuevos). Escríbelos junto al mismo código y elige tu contraseña.',
} as const;
