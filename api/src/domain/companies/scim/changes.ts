// PUT, PATCH and DELETE /Users/:id: a resource changed or removed, leaving or joining the company when `active` changes.
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.js';
import { companyScimUsers } from '../../../db/schema.js';
import { recordAudit } from '../../audit/log.js';
import { followPerson } from '../directory-follow.js';
import { checkDomain, uniqueness } from './checks.js';
import { ScimError, shown } from './errors.js';
import { join, leave, scimActor } from './membership.js';
import { applyPatch, draftFromResource, type UserDraft } from './patch.js';
import { notFound, rowOf } from './queries.js';
import { type Outcome, resourceColumns, type ScimScope, type UserResource, userResource } from './users.js';

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
      .returning(resourceColumns);
    if (!updated) throw notFound();
    // Back in the company: their groups give them their seats and roles again (or a place in the queue).
    if (!current.active && wanted.active) await followPerson(tx, companyId, row.id, row.userId);
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
