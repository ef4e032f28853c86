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
  // Members, seats and the seat report (company administrators).
  memberNotFound: 'Esa persona no es miembro de la empresa',
  memberPending: 'Esa persona aún espera la aprobación de un administrador de la empresa',
  memberNotPending: 'Esa persona ya es miembro activo de la empresa',
  lastOwner: 'La empresa debe conservar al menos un propietario: nombra otro antes de quitar este',
  onlyOwnerGrantsOwner: 'Solo un propietario de la empresa puede dar o quitar el rol de propietario',
  noFreeSeats: (app: string) => `No quedan puestos libres de ${app} en la licencia de la empresa`,
  seatExists: 'Esa persona ya tiene un puesto de esta app',
  seatNotFound: 'Esa persona no tiene un puesto de esta app',
  // Invitations.
  alreadyMember: 'Esa dirección ya es de un miembro de la empresa',
  invitationPending: 'Esa dirección ya tiene una invitación pendiente: reenvíala o revócala',
  onlyOwnerInvitesOwner: 'Solo un propietario de la empresa puede invitar a un propietario',
  invitationNotFound: 'Invitación no encontrada',
  invitationNotPending: 'La invitación ya fue aceptada o revocada',
  invitationInvalid: 'La invitación no es válida: el código es incorrecto, venció o fue revocada, o es para otro email',
  noSeatsToPromise: (app: string, free: number) =>
    free === 0
      ? `No quedan puestos libres de ${app} en la licencia de la empresa`
      : `Las invitaciones pendientes ya reservan ${free === 1 ? 'el puesto libre' : `los ${free} puestos libres`} de ${app}: revoca alguna o pide más puestos`,
  // Inviting a list of people at once.
  listEmailInvalid: 'El email no es válido: escribe una dirección como nombre@empresa.com',
  /** `role`: what was sent, between quotes (`quoted`). */
  listRoleInvalid: (role: string) => `El rol ${role} no existe: usa propietario, administrador o miembro`,
  listRowNotReached: 'Esta fila no se llegó a procesar y no se envió nada: envíala de nuevo.',
  listEmpty: 'Envía al menos una fila',
  listTooLong: (max: number) => `Envía como máximo ${max} filas por petición: divide la lista en varias`,
  invitationCodeResting: (date: string, time: string) =>
    `Se probaron demasiados códigos para este correo. Crea tu cuenta sin el código de la invitación (te enviaremos uno para verificar el correo) y acéptala después desde tus aplicaciones, o vuelve a intentarlo el ${date} a las ${time} (hora UTC).`,
  // Email domains: claiming, proving (DNS TXT or a platform administrator) and joining by one.
  domainInvalid: 'El dominio no es válido: escribe solo el dominio de los emails de la empresa, como empresa.cl',
  domainPublic: (domain: string) =>
    `${domain} es un dominio de correo gratuito o público: la empresa solo puede probar un dominio propio`,
  domainOfAnotherCompany: (domain: string) => `El dominio ${domain} ya está probado por otra empresa`,
  domainNotFound: 'La empresa no tiene ese dominio',
  domainTooMany: (max: number) => `Una empresa puede tener a lo sumo ${max} dominios`,
  txtRecordNotFound: (name: string, value: string) =>
    `No encontramos el registro TXT ${name} con el valor ${value}. Publícalo en el DNS del dominio y vuelve a intentarlo (los cambios pueden tardar en verse)`,
  dnsUnavailable: 'No pudimos consultar el DNS del dominio; inténtalo de nuevo en unos minutos',
  // Directory groups' rules.
  ruleGroupRequired: 'Escribe el nombre del grupo tal como está en el directorio (de 1 a 200 caracteres, en una línea)',
  ruleGivesNothing: 'Indica qué da el grupo: una app (idApp), un rol (rol) o los dos',
  ruleExists: 'Ya hay una regla igual para ese grupo',
  ruleRolesNeedApp: 'Los roles de una app necesitan la app: elige también su puesto (idApp)',
  ruleNotFound: 'Esa regla no existe en la empresa',
  domainConfirmPlatformOnly: 'Solo un administrador de la plataforma puede confirmar un dominio sin el registro TXT',
} as const;
