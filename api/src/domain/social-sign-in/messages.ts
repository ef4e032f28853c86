/** What the API says about sign-in with Google or Apple: each Spanish text under one key, looked up where the error is made. */
export const socialSignInMessages = {
  tokenInvalid: 'Token de autenticación inválido. Por favor, inicia sesión nuevamente.',
} as const;
