// /Groups: a company's directory creates, renames, fills, empties and deletes its groups; every change to who is in a
// group moves the seats and roles the company's rules tie to it (directory-follow.ts) in the same transaction.
import { and, asc, eq, getTableColumns, inArray, notInArray, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../../db/client.js';
import { companyGroupRules, companyScimGroupMembers, companyScimGroups, companyScimUsers } from '../../../db/schema.js';
import { recordAudit } from '../../audit/log.js';
import { accountsInGroup, accountsOf, followDirectory, rulesOfGroups } from '../directory-follow.js';
import { ScimError, scimMessages as M, shown } from './errors.js';
import { type Filter, parseFilter } from './filter.js';
import { textCompare } from './filter-sql.js';
import {
  type GroupDraft,
  type GroupMember,
  type GroupResource,
  type GroupRow,
  givenMembers,
  groupFromResource,
  groupPatch,
  groupResource,
} from './groups.js';
import { scimActor } from './membership.js';
import { listSchema, type Outcome, type ScimScope, uuidPattern } from './users.js';

const notFound = () => new ScimError(404, M.groupNotFound);

/** A broken unique index of company_scim_groups: the 409 uniqueness naming what is taken. */
function uniqueness(error: unknown, draft: GroupDraft): ScimError | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current; depth++) {
    const { code, constraint, message } = current as { code?: unknown; constraint?: unknown; message?: unknown };
    if (code === '23505') {
      const name = `${typeof constraint === 'string' ? constraint : ''} ${typeof message === 'string' ? message : ''}`;
      return name.includes('company_scim_groups_external_id_key')
        ? new ScimError(409, M.groupExternalIdTaken(shown(draft.externalId)), 'uniqueness')
        : new ScimError(409, M.groupNameTaken(shown(draft.displayName)), 'uniqueness');
    }
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

async function inTransaction<T>(db: Db, draft: () => GroupDraft | undefined, work: (tx: Db) => Promise<T>) {
  try {
    return await db.transaction(work);
  } catch (error) {
    const current = draft();
    throw (current && uniqueness(error, current)) ?? error;
  }
}

/** The company's group of that id, locked for the transaction when asked (404 for anything else). */
async function groupOf(db: Db, companyId: number, id: string, forUpdate = false): Promise<GroupRow> {
  if (!uuidPattern.test(id)) throw notFound();
  const query = db
    .select()
    .from(companyScimGroups)
    .where(and(eq(companyScimGroups.id, id.toLowerCase()), eq(companyScimGroups.companyId, companyId)));
  const [row] = forUpdate ? await query.for('update') : await query;
  if (!row) throw notFound();
  return row;
}

/** The members of groups, by group, in the order they joined. */
async function membersOf(db: Db, groupIds: string[]): Promise<Map<string, GroupMember[]>> {
  const byGroup = new Map<string, GroupMember[]>(groupIds.map((id) => [id, []]));
  if (groupIds.length === 0) return byGroup;
  const rows = await db
    .select({
      groupId: companyScimGroupMembers.groupId,
      id: companyScimUsers.id,
      userName: companyScimUsers.userName,
    })
    .from(companyScimGroupMembers)
    .innerJoin(companyScimUsers, eq(companyScimUsers.id, companyScimGroupMembers.scimUserId))
    .where(inArray(companyScimGroupMembers.groupId, groupIds))
    .orderBy(asc(companyScimGroupMembers.seq));
  for (const row of rows) byGroup.get(row.groupId)?.push({ id: row.id, userName: row.userName });
  return byGroup;
}

/** Refuses (400) a member that is not one of the company's SCIM users. */
async function checkMembers(tx: Db, companyId: number, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  const found = await tx
    .select({ id: companyScimUsers.id })
    .from(companyScimUsers)
    .where(and(eq(companyScimUsers.companyId, companyId), inArray(companyScimUsers.id, ids)));
  const known = new Set(found.map((row) => row.id));
  const unknown = ids.find((id) => !known.has(id));
  if (unknown !== undefined) throw new ScimError(400, M.groupMemberUnknown(shown(unknown)), 'invalidValue');
}

/** Rules that named this group before the directory sent it follow it from now on (by id, across renames). */
async function tieRules(tx: Db, companyId: number, group: GroupRow, isNew = false): Promise<number> {
  // A group just made has no rule following it yet.
  if (!isNew) {
    await tx
      .update(companyGroupRules)
      .set({ groupName: group.displayName })
      .where(eq(companyGroupRules.groupId, group.id));
  }
  const tied = await tx
    .update(companyGroupRules)
    .set({ groupId: group.id, groupName: group.displayName })
    .where(
      and(
        eq(companyGroupRules.companyId, companyId),
        sql`${companyGroupRules.groupId} is null`,
        sql`lower(${companyGroupRules.groupName}) = lower(${group.displayName})`,
      ),
    )
    .returning({ id: companyGroupRules.id });
  return tied.length;
}

/**
 * Writes who is in the group as the draft says, then moves the seats and roles its rules give: of the people who
 * came in or went out, or of all its members when a rule has just found the group. Answers how many came and went.
 */
async function writeMembers(tx: Db, companyId: number, group: GroupRow, draft: GroupDraft, newlyTied: number) {
  if (!draft.members && draft.removed.size === 0 && draft.added.size > 0 && !newlyTied) {
    return addMembers(tx, companyId, group.id, givenMembers(draft));
  }
  await checkMembers(tx, companyId, givenMembers(draft));
  let added: string[];
  let removed: string[];
  if (draft.members) {
    const final = [...new Set([...draft.members, ...draft.added])].filter((id) => !draft.removed.has(id));
    const gone = await tx
      .delete(companyScimGroupMembers)
      .where(
        and(
          eq(companyScimGroupMembers.groupId, group.id),
          final.length ? notInArray(companyScimGroupMembers.scimUserId, final) : undefined,
        ),
      )
      .returning({ id: companyScimGroupMembers.scimUserId });
    removed = gone.map((row) => row.id);
    added = await insertMembers(tx, group.id, final);
  } else {
    added = await insertMembers(tx, group.id, [...draft.added]);
    const removable = [...draft.removed].filter((id) => uuidPattern.test(id));
    const gone = removable.length
      ? await tx
          .delete(companyScimGroupMembers)
          .where(
            and(eq(companyScimGroupMembers.groupId, group.id), inArray(companyScimGroupMembers.scimUserId, removable)),
          )
          .returning({ id: companyScimGroupMembers.scimUserId })
      : [];
    removed = gone.map((row) => row.id);
  }
  const rules = await rulesOfGroups(tx, [group.id]);
  if (rules.appIds.length > 0 || rules.roles) {
    const userIds = newlyTied
      ? [...(await accountsInGroup(tx, group.id)), ...(await accountsOf(tx, companyId, removed))]
      : await accountsOf(tx, companyId, [...added, ...removed]);
    await followDirectory(tx, companyId, { ...rules, userIds, arrivalsOnly: removed.length === 0 });
  }
  return { added: added.length, removed: removed.length };
}

/**
 * Only additions (Entra's PATCH of up to 50 members), in one statement: the members checked to be the company's, the
 * new ones added in the order given (those already in keep their place in the queue), with their accounts, and what
 * the group's rules give; then the seats and roles of the newcomers. Refused whole (400) for an unknown member.
 */
async function addMembers(tx: Db, companyId: number, groupId: string, ids: string[]) {
  const rows = await rowsOf<{
    kind: 'unknown' | 'added' | 'rule';
    id: string | null;
    number: number | null;
    role: string | null;
  }>(
    tx,
    sql`
      with given as (
        select g.id, g.n from unnest(${`{${ids.join(',')}}`}::text[]) with ordinality as g(id, n)
      ),
      known as (
        select g.id, g.n, su.user_id from given g
        join ${companyScimUsers} su on su.id = g.id::uuid and su.id::text = g.id and su.company_id = ${companyId}
      ),
      inserted as (
        insert into ${companyScimGroupMembers} (group_id, scim_user_id)
        select ${groupId}::uuid, k.id::uuid from known k order by k.n
        on conflict do nothing
        returning scim_user_id
      )
      (select 'unknown' as kind, g.id, g.n::int as number, null::text as role from given g
        where not exists (select 1 from known k where k.id = g.id) order by g.n limit 1)
      union all
      select 'added', i.scim_user_id::text, k.user_id, null from inserted i join known k on k.id = i.scim_user_id::text
      union all
      select 'rule', null, r.app_id, r.role from ${companyGroupRules} r where r.group_id = ${groupId}::uuid`,
  );
  const unknown = rows.find((row) => row.kind === 'unknown');
  if (unknown) throw new ScimError(400, M.groupMemberUnknown(shown(unknown.id ?? '')), 'invalidValue');
  const userIds = rows.flatMap((row) => (row.kind === 'added' && row.number !== null ? [Number(row.number)] : []));
  const rules = rows.filter((row) => row.kind === 'rule');
  const appIds = [...new Set(rules.flatMap((rule) => (rule.number === null ? [] : [Number(rule.number)])))].sort(
    (a, b) => a - b,
  );
  const roles = rules.some((rule) => rule.role !== null);
  if (userIds.length > 0 && (appIds.length > 0 || roles)) {
    await followDirectory(tx, companyId, { appIds, roles, userIds, arrivalsOnly: true });
  }
  return { added: userIds.length, removed: 0 };
}

/** Adds members (those already in keep their place in the queue), in the order given; answers the new ones. */
async function insertMembers(tx: Db, groupId: string, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await tx
    .insert(companyScimGroupMembers)
    .values(ids.map((scimUserId) => ({ groupId, scimUserId })))
    .onConflictDoNothing()
    .returning({ id: companyScimGroupMembers.scimUserId });
  return rows.map((row) => row.id);
}

function changeDetail(name: string, counts: { added: number; removed: number }, renamed?: string): string {
  const parts = [];
  if (renamed !== undefined) parts.push(`se llama ahora ${shown(renamed)}`);
  if (counts.added) parts.push(`${counts.added} ${counts.added === 1 ? 'miembro entra' : 'miembros entran'}`);
  if (counts.removed) parts.push(`${counts.removed} ${counts.removed === 1 ? 'miembro sale' : 'miembros salen'}`);
  return parts.length
    ? `Cambio del grupo ${shown(name)}: ${parts.join(', ')}`
    : `Sin cambios en el grupo ${shown(name)}`;
}

/** POST /Groups: a group, with or without members. */
export async function createGroup(db: Db, scope: ScimScope, body: unknown): Promise<Outcome<GroupResource>> {
  const draft = groupFromResource(body);
  const { companyId } = scope;
  const { row, counts } = await inTransaction(
    db,
    () => draft,
    async (tx) => {
      const [row] = await tx
        .insert(companyScimGroups)
        .values({ companyId, displayName: draft.displayName, externalId: draft.externalId })
        .returning();
      if (!row) throw notFound();
      const tied = await tieRules(tx, companyId, row, true);
      // Made without members: nobody is in it, so nobody's seats or roles move.
      const counts =
        givenMembers(draft).length === 0
          ? { added: 0, removed: 0 }
          : await writeMembers(tx, companyId, row, draft, tied);
      await audit(tx, companyId, 'company.group_create', row, counts);
      return { row, counts };
    },
  );
  // A group made without members has none to read back.
  const members = givenMembers(draft).length === 0 ? [] : (await membersOf(db, [row.id])).get(row.id);
  const detail = `Alta del grupo ${shown(row.displayName)} con ${counts.added} ${counts.added === 1 ? 'miembro' : 'miembros'}`;
  // Nobody's seats, roles or memberships changed: no session state to wait for.
  return { result: groupResource(row, members, scope), detail, noSessionChange: counts.added === 0 };
}

async function audit(
  tx: Db,
  companyId: number,
  action: 'company.group_create' | 'company.group_update' | 'company.group_delete',
  row: GroupRow,
  counts: { added: number; removed: number },
  renamedFrom?: string,
) {
  await recordAudit(tx, scimActor, [
    {
      action,
      target: { type: 'company', id: companyId },
      details: {
        fuente: 'scim',
        grupo: row.displayName,
        idGrupo: row.id,
        altas: counts.added,
        bajas: counts.removed,
        ...(renamedFrom !== undefined ? { antes: renamedFrom } : {}),
      },
      companyId,
    },
  ]);
}

/** PATCH (operations) and PUT (the whole group) of /Groups/:id. */
async function update(
  db: Db,
  scope: ScimScope,
  id: string,
  next: (current: GroupRow) => GroupDraft,
): Promise<{ row: GroupRow; detail: string }> {
  const { companyId } = scope;
  let draft: GroupDraft | undefined;
  return inTransaction(
    db,
    () => draft,
    async (tx) => {
      let row = await groupOf(tx, companyId, id, true);
      const wanted = next(row);
      draft = wanted;
      const renamed = wanted.displayName !== row.displayName ? row.displayName : undefined;
      const rewritten = renamed !== undefined || wanted.externalId !== row.externalId;
      let tied = 0;
      if (rewritten) {
        const [updated] = await tx
          .update(companyScimGroups)
          .set({ displayName: wanted.displayName, externalId: wanted.externalId })
          .where(eq(companyScimGroups.id, row.id))
          .returning();
        if (!updated) throw notFound();
        row = updated;
        if (renamed !== undefined) tied = await tieRules(tx, companyId, row);
      }
      const counts = await writeMembers(tx, companyId, row, wanted, tied);
      if (rewritten || counts.added || counts.removed) {
        const [bumped] = await tx
          .update(companyScimGroups)
          .set({ version: sql`${companyScimGroups.version} + 1`, updatedAt: sql`now()` })
          .where(eq(companyScimGroups.id, row.id))
          .returning();
        row = bumped ?? row;
        await audit(tx, companyId, 'company.group_update', row, counts, renamed);
      }
      return { row, detail: changeDetail(renamed ?? row.displayName, counts, renamed ? row.displayName : undefined) };
    },
  );
}

/** PATCH /Groups/:id: Entra's and Okta's operations, in order; answered 204. */
export async function patchGroup(db: Db, scope: ScimScope, id: string, body: unknown): Promise<Outcome<null>> {
  const { detail } = await update(db, scope, id, (current) => groupPatch(current, body));
  return { result: null, detail };
}

/** PUT /Groups/:id: the whole group, its member list included (Okta's push groups). */
export async function replaceGroup(
  db: Db,
  scope: ScimScope,
  id: string,
  body: unknown,
): Promise<Outcome<GroupResource>> {
  const draft = groupFromResource(body);
  const { row, detail } = await update(db, scope, id, () => draft);
  const members = (await membersOf(db, [row.id])).get(row.id);
  return { result: groupResource(row, members, scope), detail };
}

/** DELETE /Groups/:id: the group goes; its members lose what only it gave them. */
export async function deleteGroup(db: Db, scope: ScimScope, id: string): Promise<Outcome<null>> {
  const { companyId } = scope;
  const row = await db.transaction(async (tx) => {
    const row = await groupOf(tx, companyId, id, true);
    const rules = await rulesOfGroups(tx, [row.id]);
    const userIds = await accountsInGroup(tx, row.id);
    // Its memberships go with it; its rules keep the name and find a group of that name sent again.
    await tx.delete(companyScimGroups).where(eq(companyScimGroups.id, row.id));
    if (rules.appIds.length > 0 || rules.roles) await followDirectory(tx, companyId, { ...rules, userIds });
    await audit(tx, companyId, 'company.group_delete', row, { added: 0, removed: userIds.length });
    return row;
  });
  return { result: null, detail: `Baja del grupo ${shown(row.displayName)}` };
}

/** GET /Groups/:id (without its members when the directory excludes them). */
export async function getGroup(
  db: Db,
  scope: ScimScope,
  id: string,
  withMembers: boolean,
): Promise<Outcome<GroupResource>> {
  const row = await groupOf(db, scope.companyId, id);
  const members = withMembers ? (await membersOf(db, [row.id])).get(row.id) : undefined;
  return { result: groupResource(row, members, scope), detail: `Lectura del grupo ${shown(row.displayName)}` };
}

/** The WHERE condition of a group filter: displayName (any case), externalId or id. */
function groupCondition(filter: Filter): ReturnType<typeof sql> {
  const t = companyScimGroups;
  switch (filter.kind) {
    case 'and':
      return sql`(${groupCondition(filter.left)} and ${groupCondition(filter.right)})`;
    case 'or':
      return sql`(${groupCondition(filter.left)} or ${groupCondition(filter.right)})`;
    case 'present':
      if (filter.attribute === 'externalId') return sql`${t.externalId} is not null`;
      if (filter.attribute === 'displayName' || filter.attribute === 'id') return sql`true`;
      throw new ScimError(400, M.groupFilterAttribute(filter.attribute), 'invalidFilter');
  }
  const value = String(filter.value);
  switch (filter.attribute) {
    case 'displayName':
      return textCompare(sql`lower(${t.displayName})`, filter.op, value.toLowerCase());
    case 'externalId':
      return filter.op === 'ne'
        ? sql`(${t.externalId} is null or ${t.externalId} <> ${value})`
        : textCompare(sql`${t.externalId}`, filter.op, value);
    case 'id':
      return textCompare(sql`${t.id}::text`, filter.op, value.toLowerCase());
    default:
      throw new ScimError(400, M.groupFilterAttribute(filter.attribute), 'invalidFilter');
  }
}

export interface GroupListQuery {
  filter?: string;
  startIndex: number;
  count: number;
  withMembers: boolean;
}

/** GET /Groups: a page of the company's groups by name, filtered (Entra and Okta ask `displayName eq "…"`). */
export async function listGroups(db: Db, scope: ScimScope, query: GroupListQuery): Promise<Outcome<object>> {
  const filter = query.filter?.trim() ? parseFilter(query.filter) : undefined;
  const where = and(eq(companyScimGroups.companyId, scope.companyId), filter ? groupCondition(filter) : undefined);
  const count = () =>
    db
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(companyScimGroups)
      .where(where)
      .then(([counted]) => counted?.n ?? 0);
  let total: number | undefined;
  let rows: GroupRow[] = [];
  if (query.count > 0) {
    const page = await db
      .select({ ...getTableColumns(companyScimGroups), total: sql<number>`count(*) over ()`.mapWith(Number) })
      .from(companyScimGroups)
      .where(where)
      .orderBy(sql`lower(${companyScimGroups.displayName})`, asc(companyScimGroups.id))
      .offset(query.startIndex - 1)
      .limit(query.count);
    rows = page.map(({ total: _total, ...row }) => row);
    // None from the first on: there are none (the directory's `displayName eq` before it creates a group).
    total = page[0]?.total ?? (query.startIndex === 1 ? 0 : undefined);
  }
  total ??= await count();
  const members = query.withMembers
    ? await membersOf(
        db,
        rows.map((row) => row.id),
      )
    : undefined;
  const what = filter ? `con el filtro ${shown(query.filter)}` : 'sin filtro';
  return {
    result: {
      schemas: [listSchema],
      totalResults: total,
      startIndex: query.startIndex,
      itemsPerPage: rows.length,
      ...(query.count === 0 ? {} : { Resources: rows.map((row) => groupResource(row, members?.get(row.id), scope)) }),
    },
    detail: `Búsqueda de grupos ${what}: ${total} ${total === 1 ? 'grupo' : 'grupos'}`,
  };
}
