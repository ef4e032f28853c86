/** What the API says about billing: each Spanish text under one key, looked up where the error is made. */
export const billingMessages = {
  unavailable: 'La facturación no está disponible',
  priceNotFound: 'El precio indicado no existe',
  providerError: 'El proveedor de pagos no respondió correctamente. Inténtalo de nuevo más tarde.',
} as const;
