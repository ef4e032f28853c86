/** What the API says about the user directory: each Spanish text under one key, looked up where the error is made. */
export const userDirectoryMessages = {
  invalidCursor: 'El cursor de la página no es válido: vuelve a la primera página de la lista',
} as const;
