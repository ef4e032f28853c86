/**
 * The company answers as the panel's pages name them: the API's own schemas (`@portal/api/types` through
 * `@portal/shared`), so a field renamed in the API fails the type check here.
 */
import type { Company, CompanyMember, CompanyMemberPage, User } from '@portal/shared';

export type {
  Company,
  CompanyListItem,
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

/**
 * The company's own sign-in (`GET /empresas/:id/proveedor`, docs/decisions/0080-company-sign-in.md): written by hand
 * from the contract of issue 48 until the API's schemas export them.
 */
export interface CompanyProvider {
  issuer: string;
  clientId: string;
  dominios: string[];
  permitirContrasena: boolean;
  /** Where the provider sends the person back: the company registers it in its provider. */
  redirectUri: string;
  /** The last failure of a sign-in through the provider, in Spanish, and when it happened. */
  ultimoError: string | null;
  ultimoErrorEn: string | null;
  ultimoAcceso: string | null;
  actualizado: string;
}

/** What `PUT …/proveedor` takes: the secret only when it changes (required on the first connection). */
export interface CompanyProviderInput {
  issuer: string;
  clientId: string;
  clientSecret?: string;
  dominios: string[];
  permitirContrasena: boolean;
}

/** A token of the company's directory (SCIM): only its first characters are ever shown again. */
export interface ScimToken {
  id: number;
  prefijo: string;
  descripcion: string | null;
  creado: string;
  creadoPor: string | null;
  ultimoUso: string | null;
  /** When it was revoked; null while it works. */
  revocado: string | null;
}

export interface ScimTokenList {
  data: ScimToken[];
  /** The directory's base URL (`…/scim/v2`). */
  urlBase: string;
}

/** A token just created: `token` is shown this once. */
export interface ScimTokenCreated {
  id: number;
  token: string;
  prefijo: string;
  descripcion: string | null;
  creado: string;
  urlBase: string;
}

/** One request of the company's directory, as the API logged it. */
export interface ScimRequest {
  id: number;
  fecha: string;
  metodo: string;
  ruta: string;
  /** The HTTP status answered. */
  estado: number;
  detalle: string;
  usuario: string | null;
}
