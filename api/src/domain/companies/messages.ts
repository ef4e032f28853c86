/** What the API says about companies, their members, invitations, domains, licences and seats: one Spanish text per key. */
export const companyMessages = {
  companyNotFound: 'Empresa no encontrada',
  companySuspended: 'La empresa está suspendida: solo un administrador de la plataforma puede cambiarla',
  notCompanyManager: 'Solo los propietarios y administradores de la empresa pueden hacer esto',
} as const;
