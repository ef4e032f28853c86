/** What the API says about registration: each Spanish text under one key, looked up where the error is made. */
export const registrationMessages = {
  emailInUse: 'Este email ya está registrado. Inicia sesión para continuar.',
} as const;
