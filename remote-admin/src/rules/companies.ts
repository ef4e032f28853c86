import { ADMIN_ROLE, companyRoleLabel, managesWith, SIGN_IN_METHOD_NAMES, type SignInMethod } from '@portal/shared';

// The role labels are the portal's, shared with what a member reads on /apps and /invitacion.
export { companyRoleLabel };
import type {
  CompanyMembership,
  CompanyRole,
  CompanyStatus,
  Licence,
  Member,
  SeatReportRow,
} from '../api/company-types';
import { rolesChange } from './audit-format';
import { TEXT_COMPANY_RULES } from './texts';
import { formatExpiryDate } from './format';

export const COMPANY_ROLES: readonly CompanyRole[] = ['propietario', 'administrador', 'miembro'];

export function companyStatusLabel(status: CompanyStatus): string {
  return status === 'activa' ? TEXT_COMPANY_RULES.statusActive : TEXT_COMPANY_RULES.statusSuspended;
}

export function memberStatusLabel(status: Member['estado']): string {
  return status === 'activo' ? TEXT_COMPANY_RULES.memberActive : TEXT_COMPANY_RULES.memberPending;
}

/** Who looks at a company: a platform administrator (`role` null when not a member), or one of its managers. */
export interface CompanyViewer {
  platform: boolean;
  role: CompanyRole | null;
}

/**
 * The roles the viewer may give or take away: only an owner (or a platform administrator) grants or removes
 * 'Propietario', as the API enforces; offering it to an administrator would only earn a refusal.
 */
export function grantableRoles(viewer: CompanyViewer): CompanyRole[] {
  return viewer.platform || viewer.role === 'propietario' ? [...COMPANY_ROLES] : ['administrador', 'miembro'];
}

/** Whether the viewer may change this member's role or remove them (an owner's, only an owner or the platform). */
export function mayManageMember(viewer: CompanyViewer, member: Pick<Member, 'rol'>): boolean {
  return member.rol !== 'propietario' || viewer.platform || viewer.role === 'propietario';
}

export type CompanySection =
  | 'licencias'
  | 'miembros'
  | 'invitaciones'
  | 'puestos'
  | 'dominios'
  | 'acceso'
  | 'directorio'
  | 'grupos'
  | 'actividad'
  | 'informe'
  | 'ajustes';

/** The company page's sections, in order; every one is the company's own, for the platform and its managers alike. */
export const COMPANY_SECTIONS: readonly { id: CompanySection; label: string }[] = [
  { id: 'miembros', label: TEXT_COMPANY_RULES.members },
  { id: 'invitaciones', label: TEXT_COMPANY_RULES.invitations },
  { id: 'puestos', label: TEXT_COMPANY_RULES.seats },
  { id: 'licencias', label: TEXT_COMPANY_RULES.licences },
  { id: 'dominios', label: TEXT_COMPANY_RULES.domains },
  { id: 'acceso', label: TEXT_COMPANY_RULES.access },
  { id: 'directorio', label: TEXT_COMPANY_RULES.directory },
  { id: 'grupos', label: TEXT_COMPANY_RULES.groups },
  { id: 'actividad', label: TEXT_COMPANY_RULES.activity },
  { id: 'informe', label: TEXT_COMPANY_RULES.seatReport },
  { id: 'ajustes', label: TEXT_COMPANY_RULES.settings },
];

/** What only a platform administrator does on a company page: sell and change licences, confirm a domain by hand. */
export interface PlatformActions {
  sellLicences: boolean;
  confirmDomains: boolean;
}

export function platformActions(viewer: CompanyViewer): PlatformActions {
  return { sellLicences: viewer.platform, confirmDomains: viewer.platform };
}

/**
 * Whether the viewer changes the company's own sign-in and directory (provider, SCIM tokens): its owners and the
 * platform's administrators; a company administrator only reads them.
 */
export function mayEditAccess(viewer: CompanyViewer): boolean {
  return viewer.platform || viewer.role === 'propietario';
}

/** Where a company audit entry came from: its `details.fuente` ('scim', 'proveedor'); none is an administrator's. */
export function companyAuditSource(entry: { origen?: string; details: Record<string, unknown> }): string {
  // An API before `origen` said only the change's own `fuente`.
  const source = entry.origen ?? (typeof entry.details.fuente === 'string' ? entry.details.fuente : 'administrador');
  return TEXT_COMPANY_RULES.sources[source] ?? source;
}

/** The companies a person manages (owner or administrator, active), from `GET /auth/user`'s `empresas`. */
export function managedCompanies(user: object | null): CompanyMembership[] {
  // `empresas` of `GET /auth/user`; read defensively, so a session of an older API (without it) manages none.
  const companies = (user as { empresas?: readonly CompanyMembership[] } | null)?.empresas ?? [];
  return companies.filter((company) => company.estado === 'activo' && managesWith(company.rol));
}

/** Whether the signed-in person is a platform administrator (today's role 1). */
export function isPlatformAdmin(user: { role: number } | null): boolean {
  return user?.role === ADMIN_ROLE;
}

/** Whether the person may open company `id`'s page: the platform's administrators, and its managers. */
export function mayOpenCompany(user: { role: number } | null, id: number): boolean {
  return isPlatformAdmin(user) || managedCompanies(user).some((company) => company.id === id);
}

/** '3 de 5 en uso · 2 libres', with the seats over those bought when there are any. */
export function seatCountsText(licence: Pick<Licence, 'puestos' | 'enUso' | 'libres' | 'excedidos'>): string {
  const base = TEXT_COMPANY_RULES.seatCounts(licence.enUso, licence.puestos, licence.libres);
  return licence.excedidos > 0 ? `${base} · ${TEXT_COMPANY_RULES.overAllocated(licence.excedidos)}` : base;
}

export type LicenceTone = 'ok' | 'warning' | 'expired';

/**
 * A licence's state as it reads beside its expiry: 'Vencida el …' (its seats no longer give the plan), 'Vence el …
 * (en N días)' within 30 days, else 'Vence el …'. `now` is the reader's clock, in milliseconds.
 */
export function licenceStatus(
  licence: Pick<Licence, 'fechaVencimiento' | 'vencida' | 'excedidos'>,
  now: number,
): { text: string; tone: LicenceTone } {
  const day = formatExpiryDate(licence.fechaVencimiento);
  if (licence.vencida) return { text: TEXT_COMPANY_RULES.expiredOn(day), tone: 'expired' };
  const days = Math.ceil((new Date(licence.fechaVencimiento).getTime() - now) / 86_400_000);
  if (days <= 30) return { text: TEXT_COMPANY_RULES.expiresSoon(day, Math.max(days, 0)), tone: 'warning' };
  return { text: TEXT_COMPANY_RULES.expiresOn(day), tone: licence.excedidos > 0 ? 'warning' : 'ok' };
}

/** How near a certificate is to its end: 'expired' and 'warning' (30 days or fewer) are said aloud beside it. */
export type CertificateTone = 'ok' | 'warning' | 'expired';

/**
 * A SAML provider's certificate as it reads beside its fingerprint: 'Venció el …', 'Vence el … (en N días)' within 30
 * days, else 'Vence el …'. A response signed with an expired certificate is refused, so both are warned about before
 * the day comes. `now` is the reader's clock, in milliseconds.
 */
export function certificateStatus(venceEn: string, now: number): { text: string; tone: CertificateTone } {
  const day = formatExpiryDate(venceEn);
  const end = new Date(venceEn).getTime();
  if (Number.isNaN(end)) return { text: TEXT_COMPANY_RULES.certificateExpiresOn(day), tone: 'ok' };
  if (end <= now) return { text: TEXT_COMPANY_RULES.certificateExpiredOn(day), tone: 'expired' };
  // Days as the calendar counts them (UTC, the day the date says), so that 'hoy' and 'mañana' match it.
  const days = Math.floor(end / 86_400_000) - Math.floor(now / 86_400_000);
  if (days <= 30) return { text: TEXT_COMPANY_RULES.certificateExpiresSoon(day, days), tone: 'warning' };
  return { text: TEXT_COMPANY_RULES.certificateExpiresOn(day), tone: 'ok' };
}

/** The report row's state: 'Vencida', 'Vence pronto' (30 days, the API's word) or nothing. */
export function reportRowState(row: Pick<SeatReportRow, 'vencida' | 'vencePronto'>): string {
  if (row.vencida) return TEXT_COMPANY_RULES.expired;
  return row.vencePronto ? TEXT_COMPANY_RULES.expiringSoon : TEXT_COMPANY_RULES.inForce;
}

/** A member's line: 'Ana Pérez · ana@minera.pe', or the email alone. */
export function memberName(member: Pick<Member, 'nombre' | 'apellido' | 'email'>): string {
  const name = [member.nombre, member.apellido]
    .filter((part) => part?.trim())
    .join(' ')
    .trim();
  return name || member.email;
}

/** A day typed in a date field ('2027-03-31') as the API's instant: the end of that day, UTC. */
export function expiryFromDay(day: string): string {
  return `${day}T23:59:59.000Z`;
}

/** The date field's value for an instant of the API ('2027-03-31'), the UTC day it falls on. */
export function dayFromExpiry(instant: string): string {
  const date = new Date(instant);
  return Number.isNaN(date.getTime()) ? '' : date.toISOString().slice(0, 10);
}

/** The licence dialog's own refusal before sending, or null. */
export function licenceProblem(form: { idApp: number; idPlan: number; puestos: string; day: string }): string | null {
  if (!form.idApp) return TEXT_COMPANY_RULES.chooseApp;
  if (!form.idPlan) return TEXT_COMPANY_RULES.choosePlan;
  const seats = Number(form.puestos);
  if (!Number.isInteger(seats) || seats < 1 || seats > 100_000) return TEXT_COMPANY_RULES.seatsRange;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(form.day)) return TEXT_COMPANY_RULES.expiryRequired;
  return null;
}

/** A role or state word of the API's audit details ('miembro', 'activa'…) as the screens say it. */
function auditWord(value: unknown): string {
  const word = String(value);
  if (word === 'activa' || word === 'suspendida') return companyStatusLabel(word);
  if (word === 'automatica') return TEXT_COMPANY_RULES.joinAutomaticShort;
  if (word === 'aprobacion') return TEXT_COMPANY_RULES.joinApprovalShort;
  if (typeof value === 'boolean') return value ? TEXT_COMPANY_RULES.yes : TEXT_COMPANY_RULES.no;
  return companyRoleLabel(word);
}

/** A rule's list ('10.0.0.0/8, 203.0.113.0/24'); an empty one reads as `empty` (no restriction). */
function listWord(value: unknown, empty: string, name: (item: string) => string = String): string {
  return Array.isArray(value) && value.length > 0 ? value.map((item) => name(String(item))).join(', ') : empty;
}

const methodName = (method: string) => SIGN_IN_METHOD_NAMES[method as SignInMethod] ?? method;

/** A rule's limit in its unit ('8 h'); none is 'sin límite'. */
function limitWord(value: unknown, unit: (n: number) => string): string {
  return typeof value === 'number' ? unit(value) : TEXT_COMPANY_RULES.noLimit;
}

/**
 * The details of a company audit row in one Spanish line ('ana@minera.pe · Miembro', 'Control Max 360 · 3 → 5
 * puestos'), never the API's JSON: its keys are internal. `appName` names an app by id (the company's licences).
 */
export function companyAuditDetails(
  action: string,
  d: Record<string, unknown>,
  appName: (id: number) => string,
): string | null {
  const line = changeDetails(action, d, appName);
  // What came through a setup link names the address it came from, whatever it changed.
  return line !== null && typeof d.direccion === 'string'
    ? [line, TEXT_COMPANY_RULES.auditFrom(d.direccion)].filter(Boolean).join(' · ')
    : line;
}

function changeDetails(action: string, d: Record<string, unknown>, appName: (id: number) => string): string | null {
  const T = TEXT_COMPANY_RULES;
  const role = d.role ?? d.rol;
  const app = () => appName(Number(d.appId));
  const change = (key: string, label: string, word: (value: unknown) => string = auditWord) => {
    const c = d[key] as { de?: unknown; a?: unknown } | undefined;
    return c ? `${label}: ${word(c.de)} → ${word(c.a)}` : null;
  };
  switch (action) {
    case 'company.create':
      return String(d.nombre ?? '');
    case 'company.rename':
      return `${String(d.de)} → ${String(d.a)}`;
    case 'company.status_change':
      return `${auditWord(d.de)} → ${auditWord(d.a)}`;
    case 'company.settings_change':
      return [
        change('altaPorDominio', T.domainJoin),
        change('exigirSegundoFactor', T.requireSecondFactor),
        change('permitirDispositivosConfiables', T.allowTrustedDevices),
        change('confiarSegundoFactorDelProveedor', T.trustProviderSecondFactor),
        change('redesPermitidas', T.allowedNetworks, (networks) => listWord(networks, T.anyOf)),
        change('metodosPermitidos', T.allowedMethods, (methods) => listWord(methods, T.anyOf, methodName)),
        change('sesionMaximaHoras', T.sessionMaxHours, (n) => limitWord(n, T.hours)),
        change('inactividadMinutos', T.idleMinutes, (n) => limitWord(n, T.minutes)),
        typeof d.sesionesTerminadas === 'number' ? T.sessionsEnded(d.sesionesTerminadas) : null,
      ]
        .filter(Boolean)
        .join(' · ');
    case 'company.licence_create':
      return `${app()} · ${T.seatsCount(Number(d.puestos))} · ${T.expiresOn(formatExpiryDate(String(d.fechaVencimiento)))}`;
    case 'company.licence_update': {
      const from = (d.de ?? {}) as { puestos?: number; fechaVencimiento?: string };
      const to = (d.a ?? {}) as { puestos?: number; fechaVencimiento?: string };
      const seats =
        from.puestos === to.puestos
          ? T.seatsCount(Number(to.puestos))
          : `${from.puestos} → ${T.seatsCount(Number(to.puestos))}`;
      return `${app()} · ${seats} · ${T.expiresOn(formatExpiryDate(String(to.fechaVencimiento)))}`;
    }
    case 'company.member_role_change':
      return `${String(d.email)}: ${auditWord(d.from)} → ${auditWord(d.to)}`;
    case 'company.member_add':
    case 'company.member_remove':
    case 'company.member_approve':
    case 'company.invitation_create':
    case 'company.invitation_resend':
    case 'company.invitation_revoke':
    case 'company.invitation_accept':
    case 'company.invitation_decline':
      return role === undefined ? String(d.email ?? '') : `${String(d.email ?? '')} · ${auditWord(role)}`;
    case 'auth.sign_in_refused':
      return d.motivo === 'red'
        ? `${T.refusedNetwork(String(d.address))} · ${methodName(String(d.metodo))}`
        : `${T.refusedMethod(methodName(String(d.metodo)))} · ${T.auditFrom(String(d.address))}`;
    case 'company.scim_token_refused':
      return `${T.refusedToken(String(d.prefijo))} · ${T.auditFrom(String(d.address))}`;
    case 'company.domain_add':
    case 'company.domain_remove':
      return String(d.domain ?? '');
    case 'company.domain_verify':
      return `${String(d.domain ?? '')} · ${d.by === 'admin' ? T.auditByAdmin : T.auditByDns}`;
    case 'company.app_roles_change':
      return `${app()} · ${rolesChange(d)}`;
    case 'company.seat_assign':
    case 'company.seat_remove':
      return `${app()} · ${typeof d.email === 'string' ? d.email : T.userNumber(Number(d.userId))}`;
    case 'company.provider_update':
      return [
        d.issuer,
        Array.isArray(d.dominios) ? d.dominios.join(', ') : null,
        typeof d.permitirContrasena === 'boolean' ? T.auditPassword(d.permitirContrasena) : null,
        d.secretoCambiado === true ? T.auditSecretChanged : null,
      ]
        .filter((part) => typeof part === 'string' && part)
        .join(' · ');
    case 'company.provider_remove':
      return String(d.issuer ?? '');
    case 'company.scim_token_create':
    case 'company.scim_token_revoke':
      return [typeof d.prefijo === 'string' ? T.auditToken(d.prefijo) : null, d.descripcion]
        .filter((part) => typeof part === 'string' && part)
        .join(' · ');
    case 'company.setup_link_create':
    case 'company.setup_link_revoke':
    case 'company.setup_link_use':
      return [
        T.auditSetupLink(Number(d.enlaceId)),
        typeof d.accion === 'string' ? T.auditSetupLinkActions[d.accion] : null,
        d.domain,
      ]
        .filter((part) => typeof part === 'string' && part)
        .join(' · ');
    case 'company.group_create':
    case 'company.group_update':
    case 'company.group_delete':
      return [
        String(d.grupo ?? ''),
        d.antes ? T.groupRenamedFrom(String(d.antes)) : null,
        T.groupMoves(Number(d.altas), Number(d.bajas)),
      ]
        .filter((part) => typeof part === 'string' && part)
        .join(' · ');
    case 'company.group_rule_create':
    case 'company.group_rule_delete':
      return [String(d.grupo ?? ''), d.appId ? app() : null, d.rol ? auditWord(d.rol) : null]
        .filter((part) => typeof part === 'string' && part)
        .join(' · ');
    case 'company.audit_stream_create':
    case 'company.audit_stream_update':
    case 'company.audit_stream_delete':
    case 'company.audit_stream_paused':
      return [d.tipo, d.destino, d.estado, d.motivo].filter((part) => typeof part === 'string' && part).join(' · ');
    case 'company.sign_in':
    case 'company.identity_link':
    case 'company.member_provision':
    case 'company.member_update':
    case 'company.member_deprovision':
      return String(d.userName ?? d.email ?? '');
    default:
      return null;
  }
}

/** A path of the directory's log as a person reads it: the filter's quotes and spaces, not their percent-encoding. */
export function readablePath(path: string): string {
  try {
    return decodeURIComponent(path.replace(/\+/g, ' '));
  } catch {
    return path;
  }
}
