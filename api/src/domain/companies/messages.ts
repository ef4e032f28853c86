/** What the API says about companies, their members, invitations, domains, licences and seats: one Spanish text per key. */
export const companyMessages = {
  companyNotFound: 'Empresa no encontrada',
  companySuspended: 'La empresa está suspendida: solo un administrador de la plataforma puede cambiarla',
  notCompanyManager: 'Solo los propietarios y administradores de la empresa pueden hacer esto',
  // Companies and licences (platform administrators).
  companyNameRequired: 'Escribe el nombre de la empresa (de 1 a 100 caracteres, en una línea)',
  companyExists: (name: string) => `Ya existe una empresa llamada «${name}»`,
  nothingToChange: 'Indica qué cambiar',
  seatsOutOfRange: 'Los puestos deben ser un número entero entre 1 y 100 000',
  expiryInvalid: "Datos inválidos: 'fechaVencimiento' no tiene un formato válido",
  expiryInPast: 'La fecha de vencimiento debe ser posterior a este momento',
  licenceExists: 'La empresa ya tiene una licencia de esta app: cámbiala en lugar de crear otra',
  licenceNotFound: 'La empresa no tiene licencia de esta app',
  seatsExceeded: (count: number) =>
    `Hay ${count} ${count === 1 ? 'puesto asignado' : 'puestos asignados'} de más: la empresa debe retirar ${count} antes de asignar otros`,
  licenceExpired:
    'La licencia ha vencido: sus puestos ya no dan el plan y no se pueden asignar otros hasta que se renueve',
} as const;
