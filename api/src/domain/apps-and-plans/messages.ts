/** What the API says about apps and plans: each Spanish text under one key, looked up where the error is made. */
export const appMessages = {
  planRequired: 'Selecciona un plan: no se puede guardar sin plan asignado',
  appNotFound: 'App no encontrada',
  planNotInApp: 'El plan elegido no pertenece a esta aplicación',
  invalidExpiryDate: "Datos inválidos: 'fechaVencimiento' no tiene un formato válido",
} as const;
