// Reading the directory's resources: a page by a filter (ListResponse), or one by id.
import { and, asc, eq, type SQL, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../../db/client.js';
import { companyMembers, companyScimUsers, users } from '../../../db/schema.js';
import { emailOf, provedDomain } from './checks.js';
import { ScimError, scimMessages as M, shown } from './errors.js';
import { exactUserName, parseFilter } from './filter.js';
import { filterCondition } from './filter-sql.js';
import { adoptMember } from './membership.js';
import {
  listSchema,
  type Outcome,
  type ResourceRow,
  resourceColumns,
  type ScimScope,
  type UserResource,
  userResource,
  uuidPattern,
} from './users.js';

export interface ListQuery {
  filter?: string;
  startIndex: number;
  count: number;
}

/** A page of the company's resources (ListResponse), by userName; `userName eq` for a member without one adopts them. */
export async function listUsers(db: Db, scope: ScimScope, query: ListQuery): Promise<Outcome<object>> {
  const filter = query.filter?.trim() ? parseFilter(query.filter) : undefined;
  const where = and(eq(companyScimUsers.companyId, scope.companyId), filter ? filterCondition(filter) : undefined);
  const asked = filter ? exactUserName(filter) : undefined;
  const page = async () => {
    if (query.count === 0) {
      const [row] = await db
        .select({ n: sql<number>`count(*)`.mapWith(Number) })
        .from(companyScimUsers)
        .where(where);
      return { total: row?.n ?? 0, rows: [] as ResourceRow[] };
    }
    const rows = await db
      .select({ ...resourceColumns, total: sql<number>`count(*) over ()`.mapWith(Number) })
      .from(companyScimUsers)
      .where(where)
      .orderBy(sql`lower(${companyScimUsers.userName})`, asc(companyScimUsers.id))
      .offset(query.startIndex - 1)
      .limit(query.count);
    let total = rows[0]?.total;
    // None from the first on: there are none (a sync's `userName eq` that finds nobody).
    if (total === undefined && query.startIndex === 1) total = 0;
    if (total === undefined) {
      // Past the last one: the count alone.
      const [row] = await db
        .select({ n: sql<number>`count(*)`.mapWith(Number) })
        .from(companyScimUsers)
        .where(where);
      total = row?.n ?? 0;
    }
    return { total, rows: rows.map(({ total: _total, ...row }) => row) };
  };
  let found: { total: number; rows: ResourceRow[] };
  let adopted = false;
  const exact =
    asked !== undefined && query.startIndex === 1 && query.count > 0
      ? await exactPage(db, scope.companyId, where, asked, query.count)
      : undefined;
  if (exact && asked !== undefined) {
    // A directory's sync asks this for every person: the page and whether a member is there to adopt, in one go.
    found = exact.found;
    if (exact.adoptable) {
      adopted = await adoptMember(db, scope.companyId, asked);
      if (adopted) found = await page();
    }
  } else {
    found = await page();
    if (found.total === 0 && asked !== undefined) {
      adopted = await adoptMember(db, scope.companyId, asked);
      if (adopted) found = await page();
    }
  }
  const body = {
    schemas: [listSchema],
    totalResults: found.total,
    startIndex: query.startIndex,
    itemsPerPage: found.rows.length,
    ...(query.count === 0 ? {} : { Resources: found.rows.map((row) => userResource(row, scope)) }),
  };
  const what = filter ? `con el filtro ${shown(query.filter)}` : 'sin filtro';
  const detail = adopted
    ? `Búsqueda ${what}: ${shown(asked)} ya era miembro de la empresa y queda en el directorio`
    : `Búsqueda ${what}: ${found.total} ${found.total === 1 ? 'persona' : 'personas'}`;
  return { result: body, detail, ...(asked !== undefined ? { userName: asked } : {}) };
}

/**
 * The first page of a `userName eq` filter (none or one resource: userNames are unique in any case) and, when there
 * is none, whether an active member of the company has that email (`adoptMember` then checks all it checks).
 */
async function exactPage(
  db: Db,
  companyId: number,
  where: SQL | undefined,
  userName: string,
  count: number,
): Promise<{ found: { total: number; rows: ResourceRow[] }; adoptable: boolean } | undefined> {
  let email: string | undefined;
  try {
    ({ email } = emailOf(userName));
  } catch (error) {
    if (!(error instanceof ScimError)) throw error;
  }
  const member =
    email === undefined
      ? sql`false`
      : sql`exists (select 1 from ${users} a join ${companyMembers} m on m.user_id = a.id and m.company_id = ${companyId}
          where a.email = ${email} and m.status = 'active')`;
  const t = companyScimUsers;
  const rows = await rowsOf<ResourceRow & { adoptable: boolean }>(
    db,
    sql`select r.id, r.company_id as "companyId", r.user_id as "userId", r.user_name as "userName",
      r.external_id as "externalId", r.given_name as "givenName", r.family_name as "familyName",
      r.display_name as "displayName", r.active, r.version, r.created_at as "createdAt", r.updated_at as "updatedAt",
      (r.id is null and ${member}) as adoptable
    from (select 1) as one
    left join lateral (
      select * from ${t} where ${where} order by lower(${t.userName}), ${t.id} limit ${count}
    ) r on true`,
  );
  const adoptable = rows[0]?.adoptable === true;
  const resources = rows
    .filter((row) => row.id !== null)
    .map(({ adoptable: _adoptable, ...row }) => ({
      ...row,
      createdAt: new Date(row.createdAt),
      updatedAt: new Date(row.updatedAt),
    }));
  // A full page: there may be more (the usual page counts them).
  if (resources.length >= count) return undefined;
  return { found: { total: resources.length, rows: resources }, adoptable };
}

export const notFound = () => new ScimError(404, M.userNotFound);

/** One resource of the company (404 for an id of another company, or none, or not a uuid). */
export async function getUser(db: Db, scope: ScimScope, id: string): Promise<Outcome<UserResource>> {
  const row = await rowOf(db, scope.companyId, id);
  if (!row) throw notFound();
  return { result: userResource(row, scope), detail: `Lectura de ${shown(row.userName)}`, userName: row.userName };
}

/**
 * The company's resource of that id, while its userName is at a domain the company has proved: the directory holds
 * only the people of its company's domains, whatever happened to a domain since the resource was made (removing a
 * domain deletes its resources, domains.ts `removeDomain`; this check stands for every operation).
 */
export async function rowOf(
  db: Db,
  companyId: number,
  id: string,
  forUpdate = false,
): Promise<ResourceRow | undefined> {
  if (!uuidPattern.test(id)) return undefined;
  const query = db
    .select(resourceColumns)
    .from(companyScimUsers)
    .where(and(eq(companyScimUsers.id, id.toLowerCase()), eq(companyScimUsers.companyId, companyId)));
  const [row] = forUpdate ? await query.for('update') : await query;
  if (!row) return undefined;
  return (await provedDomain(db, companyId, row.userName)) ? row : undefined;
}
