// The SCIM User resources of a company (company_scim_users), and what writing them does to the portal: a person
// provisioned joins the company, one set inactive (or deleted) leaves it, in one transaction each.
import { domainToASCII } from 'node:url';
import { and, asc, eq, isNotNull, type SQL, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../../db/client.js';
import { auditLog, companyDomains, companyMembers, companyScimUsers, users } from '../../../db/schema.js';
import { type AuditActor, recordAudit } from '../../audit/log.js';
import { activateUser } from '../../registration/activation.js';
import { currentRequestId } from '../../../lib/request-scope.js';
import { HttpError } from '../../../lib/errors.js';
import { takeOutOfCompany } from '../members.js';
import { ScimError, scimMessages as M, shown } from './errors.js';
import { exactUserName, type Filter, parseFilter } from './filter.js';
import { applyPatch, draftFromResource, type UserDraft } from './patch.js';

/** Who writes in the audit log for the directory: no account behind it. */
export const scimActor: AuditActor = { user: { id: null, email: 'directorio (SCIM)' } };

export const userSchema = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const listSchema = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';

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
}

type Row = typeof companyScimUsers.$inferSelect;

const columns = {
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
export function userResource(row: Row, scope: ScimScope) {
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

// ---------------------------------------------------------------------------------------------------------------
// Filters to SQL

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A LIKE pattern that matches `value` literally (PostgreSQL's default escape is the backslash). */
const likeLiteral = (value: string) => value.replace(/[\\%_]/g, (char) => `\\${char}`);

function textCompare(column: SQL, op: string, value: string): SQL {
  switch (op) {
    case 'eq':
      return sql`${column} = ${value}`;
    case 'ne':
      return sql`${column} <> ${value}`;
    case 'co':
      return sql`${column} like ${`%${likeLiteral(value)}%`}`;
    case 'sw':
      return sql`${column} like ${`${likeLiteral(value)}%`}`;
    default:
      return sql`${column} like ${`%${likeLiteral(value)}`}`;
  }
}

/** The WHERE condition of a parsed filter (the company's condition is added by the caller). */
export function filterCondition(filter: Filter): SQL {
  const t = companyScimUsers;
  switch (filter.kind) {
    case 'and':
      return sql`(${filterCondition(filter.left)} and ${filterCondition(filter.right)})`;
    case 'or':
      return sql`(${filterCondition(filter.left)} or ${filterCondition(filter.right)})`;
    case 'present':
      if (filter.attribute === 'externalId') return sql`${t.externalId} is not null`;
      if (filter.attribute === 'displayName') return sql`${t.displayName} <> ''`;
      return sql`true`;
  }
  const { attribute, op, value } = filter;
  if (attribute === 'active') {
    return op === 'eq' ? sql`${t.active} = ${value as boolean}` : sql`${t.active} <> ${value as boolean}`;
  }
  const text = value as string;
  switch (attribute) {
    case 'userName':
    case 'emails':
      // Case-insensitive, on the index (company_id, lower(user_name)).
      return textCompare(sql`lower(${t.userName})`, op, text.toLowerCase());
    case 'displayName':
      return textCompare(sql`lower(${t.displayName})`, op, text.toLowerCase());
    case 'externalId':
      return op === 'ne'
        ? sql`(${t.externalId} is null or ${t.externalId} <> ${text})`
        : textCompare(sql`${t.externalId}`, op, text);
    case 'id':
      if (op === 'eq') return uuidPattern.test(text) ? sql`${t.id} = ${text.toLowerCase()}::uuid` : sql`false`;
      if (op === 'ne') return uuidPattern.test(text) ? sql`${t.id} <> ${text.toLowerCase()}::uuid` : sql`true`;
      return textCompare(sql`${t.id}::text`, op, text.toLowerCase());
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Reading

export interface ListQuery {
  filter?: string;
  startIndex: number;
  count: number;
}

export const maxResults = 200;

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
      return { total: row?.n ?? 0, rows: [] as Row[] };
    }
    const rows = await db
      .select({ ...columns, total: sql<number>`count(*) over ()`.mapWith(Number) })
      .from(companyScimUsers)
      .where(where)
      .orderBy(sql`lower(${companyScimUsers.userName})`, asc(companyScimUsers.id))
      .offset(query.startIndex - 1)
      .limit(query.count);
    let total = rows[0]?.total;
    if (total === undefined) {
      // Past the last one (or none): the count alone.
      const [row] = await db
        .select({ n: sql<number>`count(*)`.mapWith(Number) })
        .from(companyScimUsers)
        .where(where);
      total = row?.n ?? 0;
    }
    return { total, rows: rows.map(({ total: _total, ...row }) => row) };
  };
  let found = await page();
  let adopted = false;
  if (found.total === 0 && asked !== undefined) {
    adopted = await adoptMember(db, scope.companyId, asked);
    if (adopted) found = await page();
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

const notFound = () => new ScimError(404, M.userNotFound);

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
async function rowOf(db: Db, companyId: number, id: string, forUpdate = false): Promise<Row | undefined> {
  if (!uuidPattern.test(id)) return undefined;
  const query = db
    .select(columns)
    .from(companyScimUsers)
    .where(and(eq(companyScimUsers.id, id.toLowerCase()), eq(companyScimUsers.companyId, companyId)));
  const [row] = forUpdate ? await query.for('update') : await query;
  if (!row) return undefined;
  return (await provedDomain(db, companyId, row.userName)) ? row : undefined;
}

/** Whether the userName is an address at a domain the company has proved. */
async function provedDomain(db: Db, companyId: number, userName: string): Promise<boolean> {
  let domain: string;
  try {
    domain = emailOf(userName).domain;
  } catch {
    return false;
  }
  return proves(db, companyId, domain);
}

/** Whether the company has proved `domain`: one lookup on the primary key. */
async function proves(db: Db, companyId: number, domain: string): Promise<boolean> {
  const [proved] = await db
    .select({ one: sql`1` })
    .from(companyDomains)
    .where(
      and(
        eq(companyDomains.companyId, companyId),
        eq(companyDomains.domain, domain),
        isNotNull(companyDomains.verifiedAt),
      ),
    );
  return Boolean(proved);
}

// ---------------------------------------------------------------------------------------------------------------
// Checks

const emailShape = /^[^\s@]+@[^\s@]+$/;

/** The userName's account email (lower-cased) and its domain, or the 400 invalidValue. */
function emailOf(userName: string): { email: string; domain: string } {
  const email = userName.trim().toLowerCase();
  if (!emailShape.test(email) || email.length > 254)
    throw new ScimError(400, M.userNameNotEmail(shown(userName)), 'invalidValue');
  const raw = email.slice(email.lastIndexOf('@') + 1).replace(/\.$/, '');
  const domain = domainToASCII(raw);
  if (!domain?.includes('.')) throw new ScimError(400, M.userNameNotEmail(shown(userName)), 'invalidValue');
  return { email, domain };
}

/** Refuses (400 invalidValue) a userName outside the company's proved domains. */
async function checkDomain(db: Db, companyId: number, userName: string): Promise<string> {
  const { email, domain } = emailOf(userName);
  if (!(await proves(db, companyId, domain))) throw new ScimError(400, M.userNameDomain(domain), 'invalidValue');
  return email;
}

/** A unique index of company_scim_users broken: the 409 uniqueness naming what is taken. */
function uniqueness(error: unknown, draft: UserDraft): ScimError | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current; depth++) {
    const { code, constraint, message } = current as { code?: unknown; constraint?: unknown; message?: unknown };
    if (code === '23505') {
      const name = `${typeof constraint === 'string' ? constraint : ''} ${typeof message === 'string' ? message : ''}`;
      if (name.includes('company_scim_users_user_name_key')) {
        return new ScimError(409, M.userNameTaken(shown(draft.userName)), 'uniqueness');
      }
      if (name.includes('company_scim_users_external_id_key')) {
        return new ScimError(409, M.externalIdTaken(shown(draft.externalId)), 'uniqueness');
      }
      return new ScimError(409, M.accountTaken, 'uniqueness');
    }
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

async function inTransaction<T>(db: Db, draft: UserDraft, work: (tx: Db) => Promise<T>): Promise<T> {
  try {
    return await db.transaction(work);
  } catch (error) {
    throw uniqueness(error, draft) ?? error;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Joining and leaving the company

/** Makes the person an active miembro (an existing role is kept; a membership waiting for approval becomes active). */
async function join(tx: Db, companyId: number, userId: number): Promise<boolean> {
  const rows = await tx
    .insert(companyMembers)
    .values({ companyId, userId, role: 'miembro', status: 'active' })
    .onConflictDoUpdate({
      target: [companyMembers.companyId, companyMembers.userId],
      set: { status: 'active' },
      where: eq(companyMembers.status, 'pending_approval'),
    })
    .returning({ userId: companyMembers.userId });
  return rows.length > 0;
}

/**
 * Takes the person out of the company, in the caller's transaction (takeOutOfCompany: their seats here freed, their
 * membership gone, the company's last owner refused with 409, nothing changed), and bumps their token version, which
 * ends their portal sessions on every instance and, by migration 0018's trigger, their OpenID Connect sessions,
 * refresh tokens and queued back-channel logouts.
 */
async function leave(tx: Db, companyId: number, userId: number) {
  const { member, seats } = await takeOutOfCompany(tx, companyId, userId).catch((error: unknown) => {
    if (error instanceof HttpError && error.code === 'ULTIMO_PROPIETARIO') throw new ScimError(409, M.lastOwner);
    throw error;
  });
  await tx
    .update(users)
    .set({ tokenVersion: sql`${users.tokenVersion} + 1` })
    .where(eq(users.id, userId));
  return { role: member?.role ?? null, seats };
}

/**
 * A `userName eq` filter that found nothing: a current (active) member of the company with that email, at one of its
 * proved domains, gets a resource (the directory takes them over). Answers whether one was made.
 */
async function adoptMember(db: Db, companyId: number, userName: string): Promise<boolean> {
  let email: string;
  try {
    ({ email } = emailOf(userName));
  } catch (error) {
    if (error instanceof ScimError) return false;
    throw error;
  }
  // One indexed lookup first: in a directory's first sync every filter misses, and nobody is to adopt.
  const [member] = await db
    .select({ userId: users.id, name: users.name, lastName: users.lastName })
    .from(users)
    .innerJoin(companyMembers, and(eq(companyMembers.userId, users.id), eq(companyMembers.companyId, companyId)))
    .where(and(eq(users.email, email), eq(companyMembers.status, 'active')));
  if (!member) return false;
  try {
    await checkDomain(db, companyId, userName);
  } catch (error) {
    if (error instanceof ScimError) return false;
    throw error;
  }
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(companyScimUsers)
      .values({
        companyId,
        userId: member.userId,
        userName: userName.trim(),
        givenName: member.name.slice(0, 100),
        familyName: member.lastName.slice(0, 100),
      })
      .onConflictDoNothing()
      .returning({ id: companyScimUsers.id });
    if (!row) return false;
    await recordAudit(tx, scimActor, [
      {
        action: 'company.member_provision',
        target: { type: 'company', id: companyId },
        details: { fuente: 'scim', userName: userName.trim(), userId: member.userId, email, adoptado: true },
        companyId,
      },
    ]);
    return true;
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Writing

interface ProvisionRow {
  id: string;
  company_id: number;
  user_id: number;
  user_name: string;
  external_id: string | null;
  given_name: string;
  family_name: string;
  display_name: string;
  active: boolean;
  version: number;
  created_at: Date | string;
  updated_at: Date | string;
  account_status: string;
  account_created: boolean;
}

/**
 * The whole of a POST in one statement (a directory's first sync makes thousands): the domain proved, the account
 * taken by email or created active with no password, the resource, the membership and the audit entry. No row when
 * the domain is not proved (or an account of that email was committed by another request after this statement's
 * snapshot: the caller tells which). A taken userName, externalId or account breaks a unique index: the caller's 409.
 */
function provisionStatement(companyId: number, domain: string, email: string, draft: UserDraft) {
  const details = sql`jsonb_build_object('fuente', 'scim', 'userName', resource.user_name, 'userId', account.id,
    'email', ${email}::text, 'active', resource.active, 'cuentaNueva', account.created)
    || case when resource.active then jsonb_build_object('unido', exists (select 1 from joined)) else '{}'::jsonb end`;
  return sql`
    with proved as (
      select 1 from ${companyDomains}
      where company_id = ${companyId} and domain = ${domain} and verified_at is not null
    ),
    inserted as (
      insert into ${users} (email, name, last_name, status)
      select ${email}, ${draft.givenName}, ${draft.familyName}, 'active' from proved
      on conflict (email) do nothing
      returning id, status, true as created
    ),
    account as (
      select id, status, created from inserted
      union all
      select id, status, false from ${users}
      where email = ${email} and exists (select 1 from proved) and not exists (select 1 from inserted)
    ),
    resource as (
      insert into ${companyScimUsers}
        (company_id, user_id, user_name, external_id, given_name, family_name, display_name, active)
      select ${companyId}, account.id, ${draft.userName}, ${draft.externalId}, ${draft.givenName}, ${draft.familyName},
        ${draft.displayName}, ${draft.active} from account
      returning *
    ),
    joined as (
      insert into ${companyMembers} (company_id, user_id, role, status)
      select company_id, user_id, 'miembro', 'active' from resource where resource.active
      on conflict (company_id, user_id) do update set status = 'active'
        where ${companyMembers}.status = 'pending_approval'
      returning user_id
    ),
    audited as (
      insert into ${auditLog} (actor_id, actor_email, action, target_type, target_id, details, request_id, company_id)
      select null, ${scimActor.user.email}, 'company.member_provision', 'company', ${companyId}, ${details},
        ${currentRequestId() ?? null}, ${companyId}
      from resource, account
      returning id
    )
    select resource.*, account.status as account_status, account.created as account_created
    from resource, account, (select count(*) from audited) as audit_written`;
}

/** POST /Users: the person's account (theirs by email, or a new one) joins the company; inactive: a resource only. */
export async function createUser(db: Db, scope: ScimScope, body: unknown): Promise<Outcome<UserResource>> {
  const draft = draftFromResource(body);
  const { companyId } = scope;
  const { email, domain } = emailOf(draft.userName);
  const row = await inTransaction(db, draft, async (tx) => {
    let [created] = await rowsOf<ProvisionRow>(tx, provisionStatement(companyId, domain, email, draft));
    if (!created) {
      await checkDomain(tx, companyId, draft.userName);
      // Proved: the account was made meanwhile by another request; this statement sees it.
      [created] = await rowsOf<ProvisionRow>(tx, provisionStatement(companyId, domain, email, draft));
      if (!created) throw new Error('resource not created');
    }
    if (created.account_status === 'pending_verification') {
      // The company's directory vouches for the address, as a provider does: activated with no password, every
      // pending registration dropped (whoever typed them never proved the mailbox), the directory's name instead.
      await activateUser(tx, created.user_id);
      await tx
        .update(users)
        .set({ name: draft.givenName, lastName: draft.familyName, phone: '' })
        .where(eq(users.id, created.user_id));
    }
    return created;
  });
  const resource: Row = {
    id: row.id,
    companyId: row.company_id,
    userId: row.user_id,
    userName: row.user_name,
    externalId: row.external_id,
    givenName: row.given_name,
    familyName: row.family_name,
    displayName: row.display_name,
    active: row.active,
    version: row.version,
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
  };
  const detail = draft.active
    ? `Alta de ${shown(row.user_name)}: miembro de la empresa`
    : `Alta de ${shown(row.user_name)} inactiva: no entra en la empresa`;
  return { result: userResource(resource, scope), detail, userName: row.user_name };
}

const attributeNames: Record<keyof UserDraft, string> = {
  userName: 'userName',
  externalId: 'externalId',
  givenName: 'name.givenName',
  familyName: 'name.familyName',
  displayName: 'displayName',
  active: 'active',
};

/** PUT and PATCH: the resource becomes `next`; leaving or joining the company when `active` changes. */
async function update(
  db: Db,
  scope: ScimScope,
  id: string,
  next: (current: UserDraft) => UserDraft,
): Promise<Outcome<UserResource>> {
  const { companyId } = scope;
  let draft: UserDraft | undefined;
  let changed: (keyof UserDraft)[] = [];
  let userNameSeen: string | undefined;
  const run = async (tx: Db) => {
    const row = await rowOf(tx, companyId, id, true);
    if (!row) throw notFound();
    userNameSeen = row.userName;
    const current: UserDraft = {
      userName: row.userName,
      externalId: row.externalId,
      givenName: row.givenName,
      familyName: row.familyName,
      displayName: row.displayName,
      active: row.active,
    };
    draft = next(current);
    const wanted = draft;
    changed = (Object.keys(attributeNames) as (keyof UserDraft)[]).filter((key) => wanted[key] !== current[key]);
    if (changed.length === 0) return row;
    if (changed.includes('userName')) {
      // Another case of the same address is the same person; a new address must be at a proved domain.
      await checkDomain(tx, companyId, wanted.userName);
    }
    let left: Awaited<ReturnType<typeof leave>> | undefined;
    let joined = false;
    if (current.active && !wanted.active) left = await leave(tx, companyId, row.userId);
    if (!current.active && wanted.active) joined = await join(tx, companyId, row.userId);
    const [updated] = await tx
      .update(companyScimUsers)
      .set({ ...wanted, version: sql`${companyScimUsers.version} + 1`, updatedAt: sql`now()` })
      .where(eq(companyScimUsers.id, row.id))
      .returning(columns);
    if (!updated) throw notFound();
    await recordAudit(tx, scimActor, [
      {
        action: left ? 'company.member_deprovision' : 'company.member_update',
        target: { type: 'company', id: companyId },
        details: {
          fuente: 'scim',
          userName: wanted.userName,
          userId: row.userId,
          cambios: changed.map((key) => attributeNames[key]),
          ...(left ? { role: left.role, seats: left.seats } : {}),
          ...(!current.active && wanted.active ? { active: true, unido: joined } : {}),
        },
        companyId,
      },
    ]);
    return updated;
  };
  try {
    const row = await db.transaction(run);
    const name = shown(row.userName);
    let detail: string;
    if (changed.length === 0) detail = `Sin cambios en ${name}`;
    else if (changed.includes('active')) {
      detail = row.active
        ? `${name} activa de nuevo: vuelve a la empresa como miembro`
        : `${name} desactivada: sale de la empresa, sus puestos quedan libres y sus sesiones terminan`;
      const others = changed.filter((key) => key !== 'active');
      if (others.length) detail += `; cambia ${others.map((key) => attributeNames[key]).join(', ')}`;
    } else detail = `Cambio de ${name}: ${changed.map((key) => attributeNames[key]).join(', ')}`;
    return { result: userResource(row, scope), detail, userName: row.userName };
  } catch (error) {
    const mapped = draft ? uniqueness(error, draft) : undefined;
    if (error instanceof ScimError && userNameSeen) error.userName ??= userNameSeen;
    throw mapped ?? error;
  }
}

/** PUT /Users/:id: the whole resource replaced (what is not given is emptied; active defaults to true). */
export function replaceUser(db: Db, scope: ScimScope, id: string, body: unknown): Promise<Outcome<UserResource>> {
  const draft = draftFromResource(body);
  return update(db, scope, id, () => draft);
}

/** PATCH /Users/:id: the PatchOp's operations, in order. */
export function patchUser(db: Db, scope: ScimScope, id: string, body: unknown): Promise<Outcome<UserResource>> {
  return update(db, scope, id, (current) => applyPatch(current, body));
}

/** DELETE /Users/:id: the person leaves the company (when still in it through the directory) and the resource goes. */
export async function deleteUser(db: Db, scope: ScimScope, id: string): Promise<Outcome<null>> {
  const { companyId } = scope;
  let userName: string | undefined;
  try {
    const row = await db.transaction(async (tx) => {
      const row = await rowOf(tx, companyId, id, true);
      if (!row) throw notFound();
      userName = row.userName;
      const left = row.active ? await leave(tx, companyId, row.userId) : undefined;
      await tx.delete(companyScimUsers).where(eq(companyScimUsers.id, row.id));
      await recordAudit(tx, scimActor, [
        {
          action: 'company.member_deprovision',
          target: { type: 'company', id: companyId },
          details: {
            fuente: 'scim',
            userName: row.userName,
            userId: row.userId,
            eliminado: true,
            ...(left ? { role: left.role, seats: left.seats } : { yaInactivo: true }),
          },
          companyId,
        },
      ]);
      return row;
    });
    const detail = row.active
      ? `Baja de ${shown(row.userName)}: sale de la empresa, sus puestos quedan libres y sus sesiones terminan`
      : `Baja de ${shown(row.userName)}, que ya estaba inactiva`;
    return { result: null, detail, userName: row.userName };
  } catch (error) {
    if (error instanceof ScimError && userName) error.userName ??= userName;
    throw error;
  }
}
