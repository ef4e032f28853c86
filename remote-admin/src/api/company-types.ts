/**
 * The company answers as the panel's pages name them: the API's own schemas (`@portal/api/types` through
 * `@portal/shared`), so a field renamed in the API fails the type check here.
 */
import type { Company, CompanyMember, CompanyMemberPage, User } from '@portal/shared';

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
