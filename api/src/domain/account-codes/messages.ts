/** What the API says about emailed account codes: each Spanish text under one key, looked up where the error is made. */
export const codeMessages = {
  invalidCode: 'Código inválido o expirado',
  codeAttemptsExceeded: 'Demasiados intentos fallidos. Solicita un código nuevo.',
} as const;
