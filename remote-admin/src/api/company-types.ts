/**
 * The company answers as the panel's pages name them: the API's own schemas (`@portal/api/types` through
 * `@portal/shared`), so a field renamed in the API fails the type check here.
 */
import type { CompanySamlConnection, SamlServiceProvider } from '@portal/contracts/saml/shapes';
import type {
  Company,
  CompanyMember,
  CompanyMemberPage,
  CompanyProvider,
  CompanyProviderSaved,
  User,
} from '@portal/shared';

export type {
  CompanySamlConnection,
  CompanySamlInput,
  SamlIdpCertificate,
  SamlServiceProvider,
} from '@portal/contracts/saml/shapes';

export type {
  Company,
  CompanyListItem,
  CompanyProvider,
  CompanyProviderInput,
  CompanyProviderSaved,
  ScimRequest,
  ScimToken,
  ScimTokenCreated,
  ScimTokenList,
  CompanySettings,
  CompanyUpdate,
  Licence,
  LicenceInput,
  SeatAssigned,
  SeatReportRow,
  CompanyDomain as Domain,
  CompanyInvitation as Invitation,
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

/** The company's OpenID Connect connection; answers from before SAML carry no `tipo`. */
export type CompanyOidcConnection = CompanyProvider & { tipo?: 'oidc' };

/** The company's own sign-in as `GET …/proveedor` shows it: OpenID Connect or SAML. */
export type CompanyConnection = CompanyOidcConnection | CompanySamlConnection;

/**
 * What the company's IT enters in its provider, known before anything is connected: the OpenID Connect redirect
 * address and, from an API that speaks SAML, the portal's service provider for the company.
 */
export type ProviderRedirect = CompanyProviderSaved & { saml?: SamlServiceProvider };
