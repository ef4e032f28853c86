/** What the API says about apps and plans: each Spanish text under one key, looked up where the error is made. */
export const appMessages = {
  planRequired: 'Selecciona un plan: no se puede guardar sin plan asignado',
  appNotFound: 'App no encontrada',
  planNotInApp: 'El plan elegido no pertenece a esta aplicación',
  invalidExpiryDate: "Datos inválidos: 'fechaVencimiento' no tiene un formato válido",
  roleNotFound: 'Esta aplicación no tiene ese rol',
  roleExists: (clave: string) => `Esta aplicación ya tiene un rol con la clave '${clave}'`,
  unknownRole: (clave: string) => `Esta aplicación no tiene el rol '${clave}'`,
  noSeat: 'Esa persona no tiene un puesto de esta aplicación en la empresa: asígnale uno antes de darle roles',
  userNotFound: 'Usuario no encontrado',
  noOwnPlan: 'Esa persona no tiene un plan propio de esta aplicación',
} as const;
