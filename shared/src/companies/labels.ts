import type { AcceptedInvitation, CompanyRole, MyInvitation, RulesOfMyCompany, UserCompany } from '../types/entities';

/** The roles inside a company as people read them. */
export const COMPANY_ROLE_LABELS: Readonly<Record<CompanyRole, string>> = {
  propietario: 'Propietario',
  administrador: 'Administrador',
  miembro: 'Miembro',
};

/** A role's label; a role this build does not know yet is shown as the API names it. */
export function companyRoleLabel(role: string): string {
  return COMPANY_ROLE_LABELS[role as CompanyRole] ?? role;
}

/** 'Minera Andina S.A. te invitó a unirte como Miembro'. */
export function invitationText(invitation: Pick<MyInvitation, 'empresa' | 'rol'>): string {
  return `${invitation.empresa.nombre} te invitó a unirte como ${companyRoleLabel(invitation.rol)}`;
}

/** After accepting: 'Te uniste a Minera Andina S.A. como Miembro.' */
export function joinedText(accepted: AcceptedInvitation): string {
  return `Te uniste a ${accepted.empresa.nombre} como ${companyRoleLabel(accepted.rol)}.`;
}

/** A domain join a company administrator has still to approve. */
export function pendingJoinText(company: Pick<UserCompany, 'nombre'>): string {
  return `Tu solicitud para unirte a ${company.nombre} está pendiente de aprobación`;
}

/** The person's companies whose membership waits for approval (an older session's user may have no list). */
export function pendingCompanies(companies: readonly UserCompany[] | undefined): UserCompany[] {
  return (companies ?? []).filter((company) => company.estado === 'pendiente');
}

/** Whether two addresses are the same mailbox as the API compares them: case and surrounding spaces aside. */
export function sameAddress(a: string | null | undefined, b: string | null | undefined): boolean {
  return Boolean(a && b) && a?.trim().toLowerCase() === b?.trim().toLowerCase();
}

/** Where a company's owners and administrators manage it (remote-admin's company page). */
export function companyPagePath(companyId: number): string {
  return `/admin/empresas/${companyId}`;
}

/** Whether a role inside a company manages it (its owners and administrators). */
export function managesWith(role: string): boolean {
  return role === 'propietario' || role === 'administrador';
}

/** 'Ya eres Propietario de Minera Andina S.A.' (one full stop, also after a name that ends in one). */
export function alreadyMemberText(company: Pick<UserCompany, 'nombre' | 'rol'>): string {
  const name = company.nombre.trim();
  return `Ya eres ${companyRoleLabel(company.rol)} de ${name}${name.endsWith('.') ? '' : '.'}`;
}

/** A way of signing in a company may allow or refuse (docs/decisions/0103-company-rules.md). */
export type SignInMethod = RulesOfMyCompany['metodosPermitidos'][number];

/** Every sign-in method, in the order the screens list them. */
export const SIGN_IN_METHODS: readonly SignInMethod[] = ['contrasena', 'google', 'apple', 'llave', 'empresa'];

/** The sign-in methods as a list names them. */
export const SIGN_IN_METHOD_NAMES: Readonly<Record<SignInMethod, string>> = {
  contrasena: 'Contraseña',
  google: 'Google',
  apple: 'Apple',
  llave: 'Llave de acceso',
  empresa: 'Inicio de sesión de la empresa',
};

/** The sign-in methods inside a sentence ('Has iniciado sesión con …', 'solo con … o …'). */
export const SIGN_IN_METHOD_PHRASES: Readonly<Record<SignInMethod, string>> = {
  contrasena: 'tu contraseña',
  google: 'Google',
  apple: 'Apple',
  llave: 'una llave de acceso',
  empresa: 'el inicio de sesión de la empresa',
};

/** 'A, B o C'. */
const alternatives = (words: readonly string[]) =>
  words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} o ${words[words.length - 1]}`;

/** What each rule of a company means for the person it binds, one sentence each (the profile's 'Seguridad'). */
export function companyRuleSentences(rules: Omit<RulesOfMyCompany, 'empresa'>): string[] {
  const sentences: string[] = [];
  if (rules.redesPermitidas.length > 0)
    sentences.push(`Solo puedes iniciar sesión desde sus redes: ${rules.redesPermitidas.join(', ')}.`);
  if (rules.metodosPermitidos.length < SIGN_IN_METHODS.length)
    sentences.push(
      `Solo puedes iniciar sesión con ${alternatives(rules.metodosPermitidos.map((method) => SIGN_IN_METHOD_PHRASES[method] ?? method))}.`,
    );
  if (rules.sesionMaximaHoras !== null)
    sentences.push(
      `Tus sesiones duran como mucho ${rules.sesionMaximaHoras} ${rules.sesionMaximaHoras === 1 ? 'hora' : 'horas'}.`,
    );
  if (rules.inactividadMinutos !== null)
    sentences.push(`Tu sesión se cierra tras ${rules.inactividadMinutos} minutos sin uso.`);
  return sentences;
}
