// A company's rules for its directory's groups (docs/decisions/0107-directory-groups.md): the administrators decide
// which group means which seat or role; the directory decides who is in the group.
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import {
  apps,
  companyGroupRules,
  companyLicences,
  companyScimGroupMembers,
  companyScimGroups,
  companyScimUsers,
  type GroupRuleRole,
} from '../../db/schema.js';
import { HttpError } from '../../lib/errors.js';
import { type AuditActor, recordAudit } from '../audit/log.js';
import { knownRoleKeys } from '../apps-and-plans/app-roles.js';
import { accountsInGroup, followDirectory } from './directory-follow.js';
import { companyMessages as M } from './messages.js';

export interface RuleInput {
  grupo: string;
  idApp?: number;
  rol?: GroupRuleRole;
  /** Roles of the app `idApp` the group's members holding its seat have (docs/decisions/0136). */
  rolesApp?: string[];
}

/** A rule as the company's administrators see it. */
export interface RuleView {
  id: number;
  grupo: string;
  /** Whether the directory has sent the group (the rule follows it by id from then on). */
  grupoRecibido: boolean;
  app: { id: number; nombre: string } | null;
  rol: GroupRuleRole | null;
  /** The app's roles the rule gives, by key. */
  rolesApp: string[];
  /** The people the group holds now (active in the directory). */
  personas: number;
  creada: string;
}

/** Adds a rule; the group's members (when the directory sent it already) take what it gives at once. */
export async function createRule(
  db: Db,
  actor: AuditActor,
  companyId: number,
  input: RuleInput,
): Promise<{ id: number }> {
  const name = input.grupo.trim();
  if (!name || name.length > 200 || /[\r\n]/.test(name)) {
    throw new HttpError(400, M.ruleGroupRequired, 'GRUPO_INVALIDO');
  }
  if (input.idApp === undefined && input.rol === undefined) {
    throw new HttpError(400, M.ruleGivesNothing, 'REGLA_SIN_EFECTO');
  }
  const appId = input.idApp ?? null;
  const role = input.rol ?? null;
  const appRoleKeys = [...new Set(input.rolesApp ?? [])].sort();
  if (appRoleKeys.length > 0 && appId === null) {
    throw new HttpError(400, M.ruleRolesNeedApp, 'REGLA_ROLES_SIN_APP');
  }
  return db.transaction(async (tx) => {
    if (appId !== null && appRoleKeys.length > 0) await knownRoleKeys(tx, appId, appRoleKeys);
    if (appId !== null) {
      const [licence] = await tx
        .select({ id: companyLicences.id })
        .from(companyLicences)
        .where(and(eq(companyLicences.companyId, companyId), eq(companyLicences.appId, appId)));
      if (!licence) throw new HttpError(404, M.licenceNotFound, 'LICENCIA_NO_ENCONTRADA');
    }
    const [same] = await tx
      .select({ id: companyGroupRules.id })
      .from(companyGroupRules)
      .where(
        and(
          eq(companyGroupRules.companyId, companyId),
          sql`lower(${companyGroupRules.groupName}) = lower(${name})`,
          sql`${companyGroupRules.appId} is not distinct from ${appId}::integer`,
          sql`${companyGroupRules.role} is not distinct from ${role}::text`,
        ),
      );
    if (same) throw new HttpError(409, M.ruleExists, 'REGLA_EXISTENTE');
    const [group] = await tx
      .select({ id: companyScimGroups.id, name: companyScimGroups.displayName })
      .from(companyScimGroups)
      .where(
        and(eq(companyScimGroups.companyId, companyId), sql`lower(${companyScimGroups.displayName}) = lower(${name})`),
      );
    const [rule] = await tx
      .insert(companyGroupRules)
      .values({
        companyId,
        groupName: group?.name ?? name,
        groupId: group?.id ?? null,
        appId,
        role,
        rolesApp: appRoleKeys,
      })
      .returning({ id: companyGroupRules.id });
    if (!rule) throw new Error('rule not created');
    if (group) {
      await followDirectory(tx, companyId, {
        appIds: appId === null ? [] : [appId],
        userIds: await accountsInGroup(tx, group.id),
        roles: role !== null,
        arrivalsOnly: true,
      });
    }
    await recordAudit(tx, actor, [
      {
        action: 'company.group_rule_create',
        target: { type: 'company', id: companyId },
        details: { regla: rule.id, grupo: group?.name ?? name, appId, rol: role, rolesApp: appRoleKeys },
        companyId,
      },
    ]);
    return { id: rule.id };
  });
}

/** The company's rules by group name, each with how many people its group holds now. */
export async function listRules(db: Db, companyId: number): Promise<RuleView[]> {
  const people = sql<number>`(select count(*) from ${companyScimGroupMembers} gm
    join ${companyScimUsers} su on su.id = gm.scim_user_id and su.active
    where gm.group_id = ${companyGroupRules.groupId})`.mapWith(Number);
  const rows = await db
    .select({
      id: companyGroupRules.id,
      groupName: companyGroupRules.groupName,
      groupId: companyGroupRules.groupId,
      appId: companyGroupRules.appId,
      appName: apps.nombre,
      role: companyGroupRules.role,
      rolesApp: companyGroupRules.rolesApp,
      createdAt: companyGroupRules.createdAt,
      people,
    })
    .from(companyGroupRules)
    .leftJoin(apps, eq(apps.id, companyGroupRules.appId))
    .where(eq(companyGroupRules.companyId, companyId))
    .orderBy(sql`lower(${companyGroupRules.groupName})`, asc(companyGroupRules.id));
  return rows.map((row) => ({
    id: row.id,
    grupo: row.groupName,
    grupoRecibido: row.groupId !== null,
    app: row.appId === null ? null : { id: row.appId, nombre: row.appName ?? '' },
    rol: row.role,
    rolesApp: row.rolesApp,
    personas: row.groupId === null ? 0 : row.people,
    creada: row.createdAt.toISOString(),
  }));
}

/** Takes a rule away: its group's members lose what no other group gives them (seats given by hand stay). */
export async function deleteRule(db: Db, actor: AuditActor, companyId: number, ruleId: number): Promise<void> {
  await db.transaction(async (tx) => {
    const [rule] = await tx
      .delete(companyGroupRules)
      .where(and(eq(companyGroupRules.companyId, companyId), eq(companyGroupRules.id, ruleId)))
      .returning();
    if (!rule) throw new HttpError(404, M.ruleNotFound, 'REGLA_NO_ENCONTRADA');
    if (rule.groupId) {
      await followDirectory(tx, companyId, {
        appIds: rule.appId === null ? [] : [rule.appId],
        userIds: await accountsInGroup(tx, rule.groupId),
        roles: rule.role !== null,
      });
    }
    await recordAudit(tx, actor, [
      {
        action: 'company.group_rule_delete',
        target: { type: 'company', id: companyId },
        details: { regla: rule.id, grupo: rule.groupName, appId: rule.appId, rol: rule.role, rolesApp: rule.rolesApp },
        companyId,
      },
    ]);
  });
}
