// An app's roles (docs/decisions/0134-app-roles.md): the platform administrator defines them on a catalogue app; a
// company gives them to the people holding its seats of that app, the platform administrator to people holding it by
// their own plan; apps read the keys (the OpenID Connect `roles` claim, the SAML `roles` attribute, `roles.cambiados`).
//
// A person's roles in an app are every key given to them there (by hand or by a directory group of any company whose
// seat of it counts, or by the platform), or, when none is, the app's default role if it has one and the person holds
// the app by the one plan rule.
// They are read when a token, an assertion or an event is made, never kept with a grant: a role taken away is gone
// from the next refresh or userinfo.
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { rowsOf } from '../../db/client.js';
import {
  type AppRoleSource,
  appRoles,
  apps,
  companyLicences,
  companySeats,
  userAppRoles,
  userPlans,
  users,
} from '../../db/schema.js';
import { HttpError } from '../../lib/errors.js';
import { type AuditActor, type AuditEntry, recordAudit } from '../audit/log.js';
import { countingSeats } from './effective-plans.js';
import { appMessages } from './messages.js';

/** An app's role as the API answers it. */
export interface AppRole {
  clave: string;
  nombre: string;
  descripcion: string;
  porDefecto: boolean;
}

/** Why a person's roles changed, as the audit log records it (`fuenteRoles`). */
export type RolesChangeSource = 'mano' | 'eliminacion';

const roleColumns = {
  clave: appRoles.clave,
  nombre: appRoles.nombre,
  descripcion: appRoles.descripcion,
  porDefecto: appRoles.porDefecto,
};

async function existingApp(db: Db, appId: number): Promise<{ id: number; nombre: string }> {
  const [app] = await db.select({ id: apps.id, nombre: apps.nombre }).from(apps).where(eq(apps.id, appId));
  if (!app) throw new HttpError(404, appMessages.appNotFound, 'APP_NOT_FOUND');
  return app;
}

const roleNotFound = () => new HttpError(404, appMessages.roleNotFound, 'ROL_NO_ENCONTRADO');

/** The app's roles by key (404 APP_NOT_FOUND for no such app). */
export async function listAppRoles(db: Db, appId: number): Promise<AppRole[]> {
  await existingApp(db, appId);
  return db.select(roleColumns).from(appRoles).where(eq(appRoles.appId, appId)).orderBy(asc(appRoles.clave));
}

/** Adds a role to the app (409 ROL_EXISTE for a key it has already); audited. */
export async function createAppRole(
  tx: Db,
  actor: AuditActor,
  appId: number,
  body: { clave: string; nombre: string; descripcion?: string },
): Promise<AppRole> {
  await existingApp(tx, appId);
  const [created] = await tx
    .insert(appRoles)
    .values({ appId, clave: body.clave, nombre: body.nombre.trim(), descripcion: body.descripcion?.trim() ?? '' })
    .onConflictDoNothing()
    .returning(roleColumns);
  if (!created) throw new HttpError(409, appMessages.roleExists(body.clave), 'ROL_EXISTE');
  await recordAudit(tx, actor, [
    { action: 'app.role_create', target: { type: 'app', id: appId }, details: { clave: created.clave } },
  ]);
  return created;
}

/** Changes the fields sent; a role made the default takes that from the app's previous default. Audited. */
export async function updateAppRole(
  tx: Db,
  actor: AuditActor,
  appId: number,
  clave: string,
  body: { nombre?: string; descripcion?: string; porDefecto?: boolean },
): Promise<AppRole> {
  await existingApp(tx, appId);
  const [before] = await tx
    .select(roleColumns)
    .from(appRoles)
    .where(and(eq(appRoles.appId, appId), eq(appRoles.clave, clave)))
    .for('update');
  if (!before) throw roleNotFound();
  if (body.porDefecto === true && !before.porDefecto)
    await tx
      .update(appRoles)
      .set({ porDefecto: false })
      .where(and(eq(appRoles.appId, appId), eq(appRoles.porDefecto, true)));
  const [after] = await tx
    .update(appRoles)
    .set({
      ...(body.nombre === undefined ? {} : { nombre: body.nombre.trim() }),
      ...(body.descripcion === undefined ? {} : { descripcion: body.descripcion.trim() }),
      ...(body.porDefecto === undefined ? {} : { porDefecto: body.porDefecto }),
    })
    .where(and(eq(appRoles.appId, appId), eq(appRoles.clave, clave)))
    .returning(roleColumns);
  if (!after) throw roleNotFound();
  const changed = (Object.keys(body) as (keyof typeof body)[]).filter((field) => before[field] !== after[field]);
  if (changed.length > 0)
    await recordAudit(tx, actor, [
      {
        action: 'app.role_update',
        target: { type: 'app', id: appId },
        details: {
          clave,
          cambios: Object.fromEntries(changed.map((f) => [f, { antes: before[f], despues: after[f] }])),
        },
      },
    ]);
  return after;
}

/** One person's roles in one app from one giver (a company, or the platform for null). */
interface Holding {
  userId: number;
  companyId: number | null;
  claves: string[];
}

/** Who holds any of `appId`'s roles, per person and giver, with the keys. */
async function holdingsOf(
  db: Db,
  appId: number,
  userId?: number,
  companyId?: number | null,
  fuente?: AppRoleSource,
): Promise<Holding[]> {
  const rows = await db
    .select({ userId: userAppRoles.userId, companyId: userAppRoles.companyId, clave: userAppRoles.clave })
    .from(userAppRoles)
    .where(
      and(
        eq(userAppRoles.appId, appId),
        userId === undefined ? undefined : eq(userAppRoles.userId, userId),
        companyId === undefined
          ? undefined
          : companyId === null
            ? isNull(userAppRoles.companyId)
            : eq(userAppRoles.companyId, companyId),
        fuente === undefined ? undefined : eq(userAppRoles.fuente, fuente),
      ),
    )
    .orderBy(asc(userAppRoles.userId), asc(userAppRoles.companyId), asc(userAppRoles.clave));
  const holdings = new Map<string, Holding>();
  for (const row of rows) {
    const key = `${row.userId}:${row.companyId ?? ''}`;
    const holding = holdings.get(key) ?? { userId: row.userId, companyId: row.companyId, claves: [] };
    // A key given both by hand and by a group is one key held.
    if (!holding.claves.includes(row.clave)) holding.claves.push(row.clave);
    holdings.set(key, holding);
  }
  return [...holdings.values()];
}

/** The names of an app's roles by key: the log keeps them beside the keys, for the people who read it. */
export async function roleNames(db: Db, appId: number, claves: string[]): Promise<Record<string, string>> {
  if (claves.length === 0) return {};
  const rows = await db
    .select({ clave: appRoles.clave, nombre: appRoles.nombre })
    .from(appRoles)
    .where(and(eq(appRoles.appId, appId), inArray(appRoles.clave, [...new Set(claves)])))
    .orderBy(asc(appRoles.clave));
  return Object.fromEntries(rows.map((row) => [row.clave, row.nombre]));
}

/** The audit entry of a change to a person's roles in an app: in the company's log when a company gave them. */
function rolesChangeEntry(
  holding: { userId: number; companyId: number | null },
  appId: number,
  change: { antes: string[]; despues: string[]; nombres: Record<string, string> },
  fuenteRoles: RolesChangeSource,
  email: string | null,
): AuditEntry {
  const details = { userId: holding.userId, email, appId, ...change, fuenteRoles };
  return holding.companyId === null
    ? { action: 'user.app_roles_change', target: { type: 'user', id: holding.userId }, details }
    : {
        action: 'company.app_roles_change',
        target: { type: 'company', id: holding.companyId },
        details,
        companyId: holding.companyId,
      };
}

async function emailsOf(db: Db, userIds: number[]): Promise<Map<number, string>> {
  if (userIds.length === 0) return new Map();
  const rows = await db.select({ id: users.id, email: users.email }).from(users).where(inArray(users.id, userIds));
  return new Map(rows.map((row) => [row.id, row.email]));
}

/**
 * Deletes the role: taken from everyone who had it (each person's change audited, in their company's log when a
 * company gave it; the apps told by `roles.cambiados`, trigger on user_app_roles).
 */
export async function deleteAppRole(tx: Db, actor: AuditActor, appId: number, clave: string): Promise<void> {
  await existingApp(tx, appId);
  const [role] = await tx
    .select({ clave: appRoles.clave })
    .from(appRoles)
    .where(and(eq(appRoles.appId, appId), eq(appRoles.clave, clave)))
    .for('update');
  if (!role) throw roleNotFound();
  const holders = (await holdingsOf(tx, appId)).filter((holding) => holding.claves.includes(clave));
  // Read before the role goes, its own name among them.
  const nombres = await roleNames(
    tx,
    appId,
    holders.flatMap((holding) => holding.claves),
  );
  await tx.delete(appRoles).where(and(eq(appRoles.appId, appId), eq(appRoles.clave, clave)));
  const emails = await emailsOf(
    tx,
    holders.map((holding) => holding.userId),
  );
  await recordAudit(tx, actor, [
    {
      action: 'app.role_delete',
      target: { type: 'app', id: appId },
      details: { clave, retiradoA: holders.length },
    },
    ...holders.map((holding) =>
      rolesChangeEntry(
        holding,
        appId,
        {
          antes: holding.claves,
          despues: holding.claves.filter((key) => key !== clave),
          nombres: Object.fromEntries(holding.claves.map((key) => [key, nombres[key] ?? key])),
        },
        'eliminacion',
        emails.get(holding.userId) ?? null,
      ),
    ),
  ]);
}

/**
 * The keys given, checked against the app's roles (400 ROL_DESCONOCIDO naming the first unknown one), without
 * repeats, in key order. The roles found are locked against their deletion until the change commits.
 */
export async function knownRoleKeys(tx: Db, appId: number, claves: string[]): Promise<string[]> {
  const wanted = [...new Set(claves)].sort();
  if (wanted.length === 0) return [];
  const found = await tx
    .select({ clave: appRoles.clave })
    .from(appRoles)
    .where(and(eq(appRoles.appId, appId), inArray(appRoles.clave, wanted)))
    .for('key share');
  const known = new Set(found.map((row) => row.clave));
  const unknown = wanted.find((key) => !known.has(key));
  if (unknown !== undefined) throw new HttpError(400, appMessages.unknownRole(unknown), 'ROL_DESCONOCIDO');
  return wanted;
}

/** Makes `giver`'s roles of the person in the app exactly `claves`; audits the change when there is one. */
async function replaceRoles(
  tx: Db,
  actor: AuditActor,
  giver: { userId: number; companyId: number | null },
  appId: number,
  claves: string[],
): Promise<{ idApp: number; roles: string[] }> {
  const wanted = await knownRoleKeys(tx, appId, claves);
  // Only what was given by hand: what a directory group gives stays while the group gives it.
  const before = (await holdingsOf(tx, appId, giver.userId, giver.companyId, 'mano'))[0]?.claves ?? [];
  const gone = before.filter((key) => !wanted.includes(key));
  const added = wanted.filter((key) => !before.includes(key));
  const ofGiver =
    giver.companyId === null ? isNull(userAppRoles.companyId) : eq(userAppRoles.companyId, giver.companyId);
  if (gone.length > 0)
    await tx
      .delete(userAppRoles)
      .where(
        and(
          eq(userAppRoles.userId, giver.userId),
          eq(userAppRoles.appId, appId),
          ofGiver,
          eq(userAppRoles.fuente, 'mano'),
          inArray(userAppRoles.clave, gone),
        ),
      );
  if (added.length > 0)
    await tx
      .insert(userAppRoles)
      .values(added.map((clave) => ({ userId: giver.userId, appId, clave, companyId: giver.companyId })));
  if (gone.length > 0 || added.length > 0) {
    const emails = await emailsOf(tx, [giver.userId]);
    await recordAudit(tx, actor, [
      rolesChangeEntry(
        giver,
        appId,
        { antes: before, despues: wanted, nombres: await roleNames(tx, appId, [...before, ...wanted]) },
        'mano',
        emails.get(giver.userId) ?? null,
      ),
    ]);
  }
  return { idApp: appId, roles: wanted };
}

/**
 * A company gives its member the roles `claves` of an app whose seat they hold in it (409 SIN_PUESTO otherwise),
 * replacing what the company gave before. The seat is locked, so taking it back waits for this change (or this
 * change for that one, and then finds no seat).
 */
export async function setCompanyMemberRoles(
  tx: Db,
  actor: AuditActor,
  companyId: number,
  userId: number,
  appId: number,
  claves: string[],
): Promise<{ idApp: number; roles: string[] }> {
  const [seat] = await tx
    .select({ userId: companySeats.userId })
    .from(companySeats)
    .where(and(eq(companySeats.companyId, companyId), eq(companySeats.userId, userId), eq(companySeats.appId, appId)))
    .for('update');
  if (!seat) throw new HttpError(409, appMessages.noSeat, 'SIN_PUESTO');
  return replaceRoles(tx, actor, { userId, companyId }, appId, claves);
}

/**
 * The platform administrator gives a person the roles `claves` of an app they hold by their own plan (404 for no such
 * person, 409 SIN_PLAN without a plan of theirs there), replacing what the platform gave before.
 */
export async function setOwnPlanRoles(
  tx: Db,
  actor: AuditActor,
  userId: number,
  appId: number,
  claves: string[],
): Promise<{ idApp: number; roles: string[] }> {
  const [user] = await tx.select({ id: users.id }).from(users).where(eq(users.id, userId));
  if (!user) throw new HttpError(404, appMessages.userNotFound, 'USER_NOT_FOUND');
  await existingApp(tx, appId);
  const [plan] = await tx
    .select({ id: userPlans.id })
    .from(userPlans)
    .where(and(eq(userPlans.userId, userId), eq(userPlans.appId, appId)))
    .for('update');
  if (!plan) throw new HttpError(409, appMessages.noOwnPlan, 'SIN_PLAN');
  return replaceRoles(tx, actor, { userId, companyId: null }, appId, claves);
}

/**
 * The roles of each app the company holds a licence of (what it may give, by hand or by a directory group), by app
 * name; an app without roles is listed with none.
 */
export async function companyAppRoles(
  db: Db,
  companyId: number,
): Promise<{ idApp: number; nombreApp: string; roles: AppRole[] }[]> {
  const licensed = await db
    .select({ idApp: apps.id, nombreApp: apps.nombre })
    .from(companyLicences)
    .innerJoin(apps, eq(apps.id, companyLicences.appId))
    .where(eq(companyLicences.companyId, companyId))
    .orderBy(asc(apps.nombre), asc(apps.id));
  if (licensed.length === 0) return [];
  const roles = await db
    .select({ appId: appRoles.appId, ...roleColumns })
    .from(appRoles)
    .where(
      inArray(
        appRoles.appId,
        licensed.map((app) => app.idApp),
      ),
    )
    .orderBy(asc(appRoles.clave));
  return licensed.map((app) => ({
    ...app,
    roles: roles.filter((role) => role.appId === app.idApp).map(({ appId: _appId, ...role }) => role),
  }));
}

/**
 * Each app whose seat the person holds in the company, with the roles the company gave them there and the roles the
 * app has (what the company may give), by app id.
 */
export async function companyMemberRoles(db: Db, companyId: number, userId: number) {
  const rows = await rowsOf<{ app_id: number; nombre: string; roles: string[] | null; grupo: string[] | null }>(
    db,
    sql`SELECT s.app_id, a.nombre,
          (SELECT array_agg(r.clave ORDER BY r.clave) FROM user_app_roles r
            WHERE r.user_id = s.user_id AND r.app_id = s.app_id AND r.company_id = s.company_id
              AND r.fuente = 'mano') AS roles,
          (SELECT array_agg(r.clave ORDER BY r.clave) FROM user_app_roles r
            WHERE r.user_id = s.user_id AND r.app_id = s.app_id AND r.company_id = s.company_id
              AND r.fuente = 'grupo') AS grupo
        FROM company_seats s JOIN apps a ON a.id = s.app_id
        WHERE s.company_id = ${companyId} AND s.user_id = ${userId}
        ORDER BY s.app_id`,
  );
  const appIds = rows.map((row) => Number(row.app_id));
  const offered =
    appIds.length === 0
      ? []
      : await db
          .select({ appId: appRoles.appId, ...roleColumns })
          .from(appRoles)
          .where(inArray(appRoles.appId, appIds))
          .orderBy(asc(appRoles.clave));
  return rows.map((row) => ({
    idApp: Number(row.app_id),
    nombreApp: row.nombre,
    roles: row.roles ?? [],
    rolesGrupo: row.grupo ?? [],
    disponibles: offered.filter((role) => role.appId === Number(row.app_id)).map(({ appId: _appId, ...role }) => role),
  }));
}

/**
 * `rolesInApp`, and until when that answer stands by itself: the earliest expiry of a licence behind a seat of the app
 * that counts (null when none), the one change no notification announces (the session memory keeps it until then).
 */
export async function rolesInAppUntil(
  db: Db,
  userId: number,
  appId: number,
  holdsApp: boolean,
  now = Date.now(),
): Promise<{ roles: string[]; until: number | null }> {
  const at = sql`${new Date(now).toISOString()}::timestamptz`;
  const [roles, [first]] = await Promise.all([
    rolesInApp(db, userId, appId, holdsApp, now),
    rowsOf<{ until: unknown }>(
      db,
      sql`SELECT min(l.expires_at) AS until ${countingSeats(sql`${userId}`, at)} AND s.app_id = ${appId}`,
    ),
  ]);
  const until = first?.until == null ? null : new Date(first.until as string).getTime();
  return { roles, until };
}

/**
 * The keys the person holds in the app (see the top of this file), in key order: `[]` for none. `holdsApp`: whether
 * the one plan rule names a plan of theirs there (who may have the default role). A company's roles count while its
 * seat counts.
 */
export async function rolesInApp(
  db: Db,
  userId: number,
  appId: number,
  holdsApp: boolean,
  now = Date.now(),
): Promise<string[]> {
  const at = sql`${new Date(now).toISOString()}::timestamptz`;
  // A company's roles count while its seat of the app counts (the one plan rule's seats: licence unexpired, company
  // and membership active, second factor when asked); the platform's while they are given.
  const rows = await rowsOf<{ clave: string; given: boolean }>(
    db,
    sql`SELECT DISTINCT clave, true AS given FROM user_app_roles r
        WHERE r.user_id = ${userId} AND r.app_id = ${appId}
          AND (r.company_id IS NULL
            OR r.company_id IN (SELECT s.company_id ${countingSeats(sql`${userId}`, at)} AND s.app_id = ${appId}))
        UNION ALL
        SELECT clave, false AS given FROM app_roles WHERE app_id = ${appId} AND por_defecto
        ORDER BY 1`,
  );
  const given = rows.filter((row) => row.given).map((row) => row.clave);
  if (given.length > 0) return given;
  return holdsApp ? rows.filter((row) => !row.given).map((row) => row.clave) : [];
}
