import type { AppWithPlans, AuditEntry, CreatedSetupLink, Paged, SetupLink } from '@portal/shared';
import { API_PATHS, ApiError, getRuntimeConfig, readToken, request } from '@portal/shared';
import type {
  Company,
  CompanyAppRoles,
  CompanyConnection,
  CompanyListItem,
  CompanyProviderInput,
  CompanyProviderSaved,
  CompanyRole,
  CompanySettings,
  CompanyStatus,
  CompanyUpdate,
  CursorPage,
  Domain,
  Invitation,
  InvitationListResult,
  InvitationListRow,
  Licence,
  LicenceInput,
  Member,
  ProviderRedirect,
  SamlServiceProvider,
  GroupRule,
  GroupRuleInput,
  HeldRoles,
  MemberAppRoles,
  ScimRequest,
  ScimTokenCreated,
  ScimTokenList,
  AuditStream,
  AuditStreamChange,
  AuditStreamInput,
  AuditStreamTestResult,
  Seat,
  SeatAssigned,
  SeatReportRow,
  WaitingPerson,
} from './company-types';
import { COMPANY_FALLBACK } from './texts';

const P = API_PATHS.companies;
const F = COMPANY_FALLBACK;

// Platform administrators.

export function listCompanies(query: {
  page: number;
  limit: number;
  nombre?: string;
  estado?: CompanyStatus | '';
}): Promise<Paged<CompanyListItem>> {
  return request('get', P.list, {
    searchParams: { page: query.page, limit: query.limit, nombre: query.nombre, estado: query.estado },
    fallback: F.list,
  });
}

export function createCompany(nombre: string): Promise<{ id: number }> {
  return request('post', P.list, { json: { nombre }, fallback: F.save });
}

export function updateCompany(id: number, changes: CompanyUpdate): Promise<Company> {
  return request('patch', P.platformCompany(id), { json: changes, fallback: F.save });
}

export function sellLicence(id: number, licence: LicenceInput & { idApp: number }): Promise<Licence> {
  return request('post', P.sellLicence(id), { json: licence, fallback: F.licence });
}

export function changeLicence(id: number, appId: number, licence: LicenceInput): Promise<Licence> {
  return request('put', P.changeLicence(id, appId), { json: licence, fallback: F.licence });
}

export function listAppsWithPlans(): Promise<AppWithPlans[]> {
  return request('get', API_PATHS.apps.withPlans, { fallback: F.apps });
}

// A company (its owners and administrators, or a platform administrator).

export function getCompany(id: number): Promise<Company> {
  return request('get', P.company(id), { fallback: F.company });
}

export function updateSettings(id: number, settings: CompanySettings): Promise<Company> {
  return request('patch', P.settings(id), { json: settings, fallback: F.save });
}

export function listLicences(id: number): Promise<Licence[]> {
  return request('get', P.licences(id), { fallback: F.licences });
}

export function listMembers(
  id: number,
  query: { email?: string; cursor?: string | null; limit?: number },
): Promise<CursorPage<Member>> {
  return request('get', P.members(id), {
    searchParams: { email: query.email, cursor: query.cursor ?? undefined, limit: query.limit },
    fallback: F.members,
  });
}

export function changeMemberRole(id: number, userId: number, rol: CompanyRole): Promise<Member> {
  return request('patch', P.member(id, userId), { json: { rol }, fallback: F.member });
}

export function removeMember(id: number, userId: number): Promise<void> {
  return request('delete', P.member(id, userId), { fallback: F.member });
}

export function approveMember(id: number, userId: number): Promise<Member> {
  return request('post', P.approve(id, userId), { fallback: F.member });
}

export function assignSeat(id: number, userId: number, appId: number): Promise<SeatAssigned> {
  return request('post', P.seats(id), { json: { idUsuario: userId, idApp: appId }, fallback: F.seat });
}

export function takeBackSeat(id: number, userId: number, appId: number): Promise<void> {
  return request('delete', P.seat(id, userId, appId), { fallback: F.seat });
}

/** The roles of each app of the company's licences: the ones it may give, by hand or with a directory group. */
export async function listCompanyAppRoles(id: number): Promise<CompanyAppRoles[]> {
  const answer = await request<{ data: CompanyAppRoles[] }>('get', P.appRoles(id), { fallback: F.roles });
  return answer.data;
}

/** Each app whose seat the member holds in the company, with the roles the company gave and those the app has. */
export async function memberAppRoles(id: number, userId: number): Promise<MemberAppRoles[]> {
  const answer = await request<{ data: MemberAppRoles[] }>('get', P.memberAppRoles(id, userId), { fallback: F.roles });
  return answer.data;
}

/** The roles of an app the company gives the member: exactly these. */
export function setMemberAppRoles(id: number, userId: number, appId: number, roles: string[]): Promise<HeldRoles> {
  return request('put', P.memberRolesOfApp(id, userId, appId), { json: { roles }, fallback: F.rolesSave });
}

export function listSeats(
  id: number,
  query: { idApp?: number; email?: string; cursor?: string | null; limit?: number },
): Promise<CursorPage<Seat>> {
  return request('get', P.seats(id), {
    searchParams: { idApp: query.idApp, email: query.email, cursor: query.cursor ?? undefined, limit: query.limit },
    fallback: F.seats,
  });
}

export function listInvitations(id: number): Promise<Invitation[]> {
  return request('get', P.invitations(id), { fallback: F.invitations });
}

export function invite(id: number, email: string, rol: CompanyRole): Promise<Invitation> {
  return request('post', P.invitations(id), { json: { email, rol }, fallback: F.invitation });
}

/** Invites a part of a list (at most 500 rows): one result per row, in the order sent. */
export function inviteList(id: number, filas: InvitationListRow[]): Promise<InvitationListResult[]> {
  return request<{ resultados: InvitationListResult[] }>('post', P.invitationList(id), {
    json: { filas },
    fallback: F.invitationList,
  }).then((answer) => answer.resultados);
}

export function resendInvitation(id: number, invitationId: number): Promise<Invitation> {
  return request('post', P.resend(id, invitationId), { fallback: F.invitation });
}

export function revokeInvitation(id: number, invitationId: number): Promise<void> {
  return request('delete', P.invitation(id, invitationId), { fallback: F.invitation });
}

export function listDomains(id: number): Promise<Domain[]> {
  return request('get', P.domains(id), { fallback: F.domains });
}

export function addDomain(id: number, dominio: string): Promise<Domain> {
  return request('post', P.domains(id), { json: { dominio }, fallback: F.domain });
}

export function verifyDomain(id: number, dominio: string): Promise<Domain> {
  return request('post', P.verifyDomain(id, dominio), { fallback: F.domain });
}

export function confirmDomain(id: number, dominio: string): Promise<Domain> {
  return request('post', P.confirmDomain(id, dominio), { fallback: F.domain });
}

export function removeDomain(id: number, dominio: string): Promise<void> {
  return request('delete', P.domain(id, dominio), { fallback: F.domain });
}

export function getSeatReport(id: number): Promise<SeatReportRow[]> {
  return request('get', P.report(id), { fallback: F.report });
}

export function listCompanyAudit(id: number, page: number, limit: number): Promise<Paged<AuditEntry>> {
  return request('get', P.audit(id), { searchParams: { page, limit }, fallback: F.audit });
}

// The company's own sign-in and its directory.

/** The company's provider (OpenID Connect or SAML), or null while it has none (the API's 404 SIN_PROVEEDOR). */
export async function getProvider(id: number): Promise<CompanyConnection | null> {
  try {
    return await request<CompanyConnection>('get', P.provider(id), { fallback: F.provider });
  } catch (failure) {
    if (failure instanceof ApiError && failure.status === 404 && failure.code === 'SIN_PROVEEDOR') return null;
    throw failure;
  }
}

/**
 * What the company's IT registers with its provider, known before anything is connected: the OpenID Connect redirect
 * address, and the SAML service provider's entity ID, ACS and metadata address.
 */
export function getProviderRedirect(id: number): Promise<ProviderRedirect> {
  return request('get', P.providerRedirect(id), { fallback: F.provider });
}

/**
 * Connects or changes the provider, by OpenID Connect or SAML (the body's `tipo`): a platform administrator through
 * `admin/…` (which proves the domains it names), an owner through the company's own route (the domains must be
 * proved already). The answer is what to register with the provider: the redirect address, or the SAML values.
 */
export function saveProvider(
  id: number,
  input: CompanyProviderInput,
  platform: boolean,
): Promise<CompanyProviderSaved | SamlServiceProvider> {
  return request('put', platform ? P.platformProvider(id) : P.provider(id), { json: input, fallback: F.saveProvider });
}

export function removeProvider(id: number, platform: boolean): Promise<void> {
  return request('delete', platform ? P.platformProvider(id) : P.provider(id), { fallback: F.removeProvider });
}

export function listScimTokens(id: number): Promise<ScimTokenList> {
  return request('get', P.scimTokens(id), { fallback: F.scimTokens });
}

export function createScimToken(id: number, descripcion?: string): Promise<ScimTokenCreated> {
  return request('post', P.scimTokens(id), { json: descripcion ? { descripcion } : {}, fallback: F.scimToken });
}

export function revokeScimToken(id: number, tokenId: number): Promise<void> {
  return request('delete', P.scimToken(id, tokenId), { fallback: F.scimToken });
}

export function listGroupRules(id: number): Promise<GroupRule[]> {
  return request('get', P.groupRules(id), { fallback: F.groupRules });
}

export function createGroupRule(id: number, input: GroupRuleInput): Promise<{ id: number }> {
  return request('post', P.groupRules(id), { json: input, fallback: F.groupRule });
}

export function deleteGroupRule(id: number, ruleId: number): Promise<void> {
  return request('delete', P.groupRule(id, ruleId), { fallback: F.groupRule });
}

export function listGroupWaiting(id: number): Promise<WaitingPerson[]> {
  return request('get', P.groupWaiting(id), { fallback: F.groupWaiting });
}

export function listScimLog(id: number, limit = 50): Promise<{ data: ScimRequest[] }> {
  return request('get', P.scimLog(id), { searchParams: { limit }, fallback: F.scimLog });
}

/**
 * The seat report as the CSV file the API writes. Read as text with the session's token (the shared client answers
 * JSON only); the page hands it to the browser as a download.
 */
export async function downloadSeatReport(id: number): Promise<Blob> {
  const token = readToken();
  const response = await fetch(`${getRuntimeConfig().apiBaseUrl.replace(/\/$/, '')}/${P.reportCsv(id)}`, {
    headers: token ? { Authorization: `Bearer ${token}` } : {},
  }).catch(() => null);
  if (!response?.ok) {
    const body = (await response?.json().catch(() => null)) as { message?: unknown } | null;
    throw new ApiError(typeof body?.message === 'string' ? body.message : F.report, response?.status);
  }
  // The bytes as they came: reading them as text would drop the byte order mark that tells Excel it is UTF-8.
  return new Blob([await response.arrayBuffer()], { type: 'text/csv;charset=utf-8' });
}

/** The company's setup links for its IT (owners create them; owners and the platform list and revoke them). */
export function listSetupLinks(id: number): Promise<SetupLink[]> {
  return request<{ data: SetupLink[] }>('get', P.setupLinks(id), { fallback: F.setupLinks }).then((list) => list.data);
}

/** A new setup link: its URL is in this answer only. */
export function createSetupLink(id: number, horas: number): Promise<CreatedSetupLink> {
  return request('post', P.setupLinks(id), { json: { horas }, fallback: F.createSetupLink });
}

export function revokeSetupLink(id: number, linkId: number): Promise<void> {
  return request('delete', P.setupLink(id, linkId), { fallback: F.revokeSetupLink });
}

// The company's SIEM destinations (docs/registro-para-siem.md).

export async function listAuditStreams(id: number): Promise<AuditStream[]> {
  return (await request<{ data: AuditStream[] }>('get', P.auditStreams(id), { fallback: F.auditStreams })).data;
}

export function createAuditStream(id: number, input: AuditStreamInput): Promise<AuditStream> {
  return request('post', P.auditStreams(id), { json: input, fallback: F.auditStream });
}

export function updateAuditStream(id: number, streamId: string, change: AuditStreamChange): Promise<AuditStream> {
  return request('patch', P.auditStream(id, streamId), { json: change, fallback: F.auditStream });
}

export function deleteAuditStream(id: number, streamId: string): Promise<void> {
  return request('delete', P.auditStream(id, streamId), { fallback: F.auditStream });
}

export function testAuditStream(id: number, streamId: string): Promise<AuditStreamTestResult> {
  return request('post', P.auditStreamTest(id, streamId), { fallback: F.auditStreamTest });
}
