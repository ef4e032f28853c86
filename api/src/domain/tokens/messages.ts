/** What the API says about tokens: each Spanish text under one key, looked up where the error is made. */
export const tokenMessages = {
  redirectNotAllowed: 'La dirección de destino no está permitida',
} as const;
