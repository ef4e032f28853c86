/** What the API says about sessions: each Spanish text under one key, looked up where the error is made. */
export const sessionMessages = {
  sessionNotFound: 'Sesión no encontrada',
} as const;
