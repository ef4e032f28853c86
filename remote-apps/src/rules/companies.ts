import type { UserCompany } from '@portal/shared';

/** Where a person sets up a second factor: the profile's 'Seguridad' tab. */
export const SECOND_FACTOR_SETUP_PATH = '/perfil?tab=seguridad';

/** The person's active companies whose seats wait for a second factor they have not set up. */
export function companiesAskingSecondFactor(companies: readonly UserCompany[] | undefined): UserCompany[] {
  return (companies ?? []).filter((company) => company.estado === 'activo' && company.segundoFactorPendiente === true);
}

/** Why a company's seat does not show yet, and what to do about it. */
export function secondFactorAskedText(company: Pick<UserCompany, 'nombre'>): string {
  return `${company.nombre} pide un segundo factor para usar sus puestos: configúralo en Seguridad`;
}
