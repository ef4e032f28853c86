/**
 * The company answers as the panel's pages name them: the API's own schemas (`@portal/api/types` through
 * `@portal/shared`), so a field renamed in the API fails the type check here.
 */
import type {
  Company,
  CompanyMember,
  CompanyMemberPage,
  CompanyProvider,
  CompanyProviderAddresses,
  CompanySamlProvider,
  CompanySamlServiceProvider,
  User,
} from '@portal/shared';

export type {
  Company,
  CompanyListItem,
  CompanyProvider,
  CompanyProviderInput,
  CompanyProviderSaved,
  GroupRule,
  GroupRuleInput,
  WaitingPerson,
  MemberAppRoles,
  HeldRoles,
  CompanyAppRoles,
  ScimRequest,
  ScimToken,
  ScimTokenCreated,
  ScimTokenList,
  AuditStream,
  AuditStreamInput,
  AuditStreamChange,
  AuditStreamTestResult,
  CompanySettings,
  CompanyUpdate,
  Licence,
  LicenceInput,
  SeatAssigned,
  SeatReportRow,
  CompanyDomain as Domain,
  CompanyInvitation as Invitation,
  InvitationListResult,
  InvitationListRow,
  CompanyMember as Member,
  CompanySeat as Seat,
} from '@portal/shared';

export type CompanyRole = CompanyMember['rol'];
export type CompanyStatus = Company['estado'];
export type DomainJoin = Company['altaPorDominio'];

/** A list paged by cursor (members, seats): `siguiente` is the next page's cursor, null on the last. */
export type CursorPage<T> = Omit<CompanyMemberPage, 'data'> & { data: T[] };

/** A company in the signed-in person's `GET /auth/user` (`empresas[]`). */
export type CompanyMembership = User['empresas'][number];

/** The company's OpenID Connect connection (`tipo: 'oidc'`, which a reader of OpenID Connect alone need not name). */
export type CompanyOidcConnection = CompanyProvider;

/** The company's SAML connection: its identity provider read from the metadata, and the portal's service provider. */
export type CompanySamlConnection = CompanySamlProvider;

/** A signing certificate of the company's identity provider: its SHA-256 fingerprint and the end of its validity. */
export type SamlIdpCertificate = CompanySamlConnection['idp']['certificados'][number];

/** The company's own sign-in as `GET …/proveedor` shows it: OpenID Connect or SAML. */
export type CompanyConnection = CompanyOidcConnection | CompanySamlConnection;

/** The portal's service provider for the company: what its IT enters in its identity provider. */
export type SamlServiceProvider = CompanySamlServiceProvider;

/**
 * What the company's IT enters in its provider, known before anything is connected: the OpenID Connect redirect
 * address and the portal's SAML service provider for the company.
 */
export type ProviderRedirect = CompanyProviderAddresses;
