// The SCIM User resource of a company (company_scim_users): its schema URNs and how a row reads back to the directory.
import { companyScimUsers } from '../../../db/schema.js';

export const userSchema = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const listSchema = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';

/** The most resources one ListResponse page holds (and what discovery.ts announces). */
export const maxResults = 200;

/** The company a directory token opened, and the address its resources live at. */
export interface ScimScope {
  companyId: number;
  /** `${apiPublicUrl}/scim/v2` */
  baseUrl: string;
}

/** What a request did, for the company's registro. */
export interface Outcome<T> {
  result: T;
  detail: string;
  userName?: string;
  /**
   * The change touches nothing an instance keeps in its session memory (an account this very request created, to which
   * nobody can be signed in; a group made without members): the answer needs no write barrier
   * (plugins/app/session-memory.ts).
   */
  noSessionChange?: boolean;
}

export type ResourceRow = typeof companyScimUsers.$inferSelect;

/** The columns of a resource row, for selects and returning. */
export const resourceColumns = {
  id: companyScimUsers.id,
  companyId: companyScimUsers.companyId,
  userId: companyScimUsers.userId,
  userName: companyScimUsers.userName,
  externalId: companyScimUsers.externalId,
  givenName: companyScimUsers.givenName,
  familyName: companyScimUsers.familyName,
  displayName: companyScimUsers.displayName,
  active: companyScimUsers.active,
  version: companyScimUsers.version,
  createdAt: companyScimUsers.createdAt,
  updatedAt: companyScimUsers.updatedAt,
};

/** The User resource of a row, as the directory reads it back. */
export function userResource(row: ResourceRow, scope: ScimScope) {
  const formatted = [row.givenName, row.familyName].filter(Boolean).join(' ');
  return {
    schemas: [userSchema],
    id: row.id,
    ...(row.externalId !== null ? { externalId: row.externalId } : {}),
    userName: row.userName,
    name: {
      ...(row.givenName ? { givenName: row.givenName } : {}),
      ...(row.familyName ? { familyName: row.familyName } : {}),
      ...(formatted ? { formatted } : {}),
    },
    ...(row.displayName ? { displayName: row.displayName } : {}),
    emails: [{ value: row.userName, type: 'work', primary: true }],
    active: row.active,
    meta: {
      resourceType: 'User',
      created: new Date(row.createdAt).toISOString(),
      lastModified: new Date(row.updatedAt).toISOString(),
      location: `${scope.baseUrl}/Users/${row.id}`,
      version: `W/"${row.version}"`,
    },
  };
}
export type UserResource = ReturnType<typeof userResource>;

/** A resource id is a uuid: anything else names no resource. */
export const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
