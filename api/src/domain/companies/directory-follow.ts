// The seats and roles follow the directory's groups (docs/decisions/0107-directory-groups.md): after a change to who is
// in a group (or to the rules), the people it concerns lose the seats and roles no group gives them any more, taken
// back exactly as an administrator takes a seat back, and those waiting take the seats that are free.
import { and, eq, inArray, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client.js';
import {
  companyGroupRules,
  companyMembers,
  companyScimGroupMembers,
  companyScimUsers,
  companySeats,
  users,
} from '../../db/schema.js';
import { recordAudit } from '../audit/log.js';
import { followGroupAppRoles } from './directory-roles.js';
import { directoryActor } from '../audit/log.js';
import { entitled, seatWaiting } from './directory-seats.js';
import { lockedLicence } from './seat-locks.js';
import { removeSeat } from './seats.js';

/** What the company's rules tie to these groups: the apps (in id order) and whether one gives a role. */
export async function rulesOfGroups(tx: Db, groupIds: string[]): Promise<{ appIds: number[]; roles: boolean }> {
  if (groupIds.length === 0) return { appIds: [], roles: false };
  const rules = await tx
    .select({ appId: companyGroupRules.appId, role: companyGroupRules.role })
    .from(companyGroupRules)
    .where(inArray(companyGroupRules.groupId, groupIds));
  const appIds = [...new Set(rules.flatMap((rule) => (rule.appId === null ? [] : [rule.appId])))].sort((a, b) => a - b);
  return { appIds, roles: rules.some((rule) => rule.role !== null) };
}

/** The accounts behind SCIM user ids of the company. */
export async function accountsOf(tx: Db, companyId: number, scimUserIds: string[]): Promise<number[]> {
  if (scimUserIds.length === 0) return [];
  const rows = await tx
    .select({ userId: companyScimUsers.userId })
    .from(companyScimUsers)
    .where(and(eq(companyScimUsers.companyId, companyId), inArray(companyScimUsers.id, scimUserIds)));
  return rows.map((row) => row.userId);
}

/** The accounts of a group's members. */
export async function accountsInGroup(tx: Db, groupId: string): Promise<number[]> {
  const rows = await tx
    .select({ userId: companyScimUsers.userId })
    .from(companyScimGroupMembers)
    .innerJoin(companyScimUsers, eq(companyScimUsers.id, companyScimGroupMembers.scimUserId))
    .where(eq(companyScimGroupMembers.groupId, groupId));
  return rows.map((row) => row.userId);
}

export interface DirectoryChange {
  /** The apps whose seats may have changed hands, locked in this order (as every seat change locks them). */
  appIds: number[];
  /** The people whose groups changed. */
  userIds: number[];
  /** Whether a role rule is concerned. */
  roles: boolean;
  /** Nobody went out: nobody can have lost a seat, and only the people of `userIds` can newly wait for one. */
  arrivalsOnly?: boolean;
}

/**
 * Brings seats and roles in line with the groups, in the caller's transaction: for each app, the seats the directory
 * gave to people no rule entitles any more are taken back through `removeSeat` (the administrators' own path: the
 * plan's end event, the sessions told, the audit entry), then the waiting are seated; then the roles, the company's
 * and the apps'.
 */
export async function followDirectory(tx: Db, companyId: number, change: DirectoryChange): Promise<void> {
  const appIds = [...new Set(change.appIds)].sort((a, b) => a - b);
  const userIds = [...new Set(change.userIds)];
  for (const appId of appIds) {
    // Only arrivals: nobody left a group, so nobody lost what a group gave.
    if (userIds.length > 0 && !change.arrivalsOnly) {
      // The company's and the licence's locks first, so that who holds a seat is read after every earlier change
      // committed: a seat given meanwhile by another request, to someone this change takes out of a group, is seen and
      // taken back.
      await lockedLicence(tx, companyId, appId);
      const lost = await tx
        .select({ userId: companySeats.userId })
        .from(companySeats)
        .where(
          and(
            eq(companySeats.companyId, companyId),
            eq(companySeats.appId, appId),
            eq(companySeats.source, 'directory'),
            inArray(companySeats.userId, userIds),
            sql`not exists (select 1 from (${entitled(companyId, appId)}) e where e.user_id = ${companySeats.userId})`,
          ),
        );
      for (const { userId } of lost)
        await removeSeat(tx, { audit: directoryActor }, companyId, userId, appId, 'grupo_directorio');
    }
    await seatWaiting(tx, companyId, appId, new Date(), change.arrivalsOnly ? userIds : undefined);
  }
  if (change.roles) await followRoles(tx, companyId, userIds);
  // The roles of the apps the groups give (a seat given or taken back above already took or lost them).
  await followGroupAppRoles(tx, companyId, userIds);
}

/**
 * Gives 'administrador' to the members a role rule's group names (when they are plain members) and takes it back from
 * those who had it from a rule and are in no such group any more. An owner, and a role given by hand, stay.
 */
async function followRoles(tx: Db, companyId: number, userIds: number[]): Promise<void> {
  if (userIds.length === 0) return;
  const changed = await rowsOf<{ user_id: number; role: string; email: string }>(
    tx,
    sql`
      with wanted as (
        select su.user_id, coalesce(bool_or(r.role = 'administrador'), false) as admin
        from ${companyScimUsers} su
        left join ${companyScimGroupMembers} gm on gm.scim_user_id = su.id
        left join ${companyGroupRules} r on r.group_id = gm.group_id and r.role is not null
        where su.company_id = ${companyId} and su.active and su.user_id in ${userIds}
        group by su.user_id
      ),
      changed as (
        update ${companyMembers} m
        set role = case when w.admin then 'administrador' else 'miembro' end, role_from_directory = w.admin
        from wanted w
        where m.company_id = ${companyId} and m.user_id = w.user_id and m.status = 'active'
          and ((w.admin and m.role = 'miembro') or (not w.admin and m.role_from_directory))
        returning m.user_id, m.role
      )
      select changed.user_id, changed.role, u.email from changed join ${users} u on u.id = changed.user_id`,
  );
  await recordAudit(
    tx,
    directoryActor,
    changed.map((row) => ({
      action: 'company.member_role_change' as const,
      target: { type: 'company' as const, id: companyId },
      details: {
        userId: row.user_id,
        email: row.email,
        from: row.role === 'administrador' ? 'miembro' : 'administrador',
        to: row.role,
        fuente: 'directorio',
      },
      companyId,
    })),
  );
}

/** A person back in the company through the directory takes (or waits for) what their groups give. */
export async function followPerson(tx: Db, companyId: number, scimUserId: string, userId: number): Promise<void> {
  const groups = await tx
    .select({ groupId: companyScimGroupMembers.groupId })
    .from(companyScimGroupMembers)
    .where(eq(companyScimGroupMembers.scimUserId, scimUserId));
  const rules = await rulesOfGroups(
    tx,
    groups.map((group) => group.groupId),
  );
  if (rules.appIds.length > 0 || rules.roles) {
    await followDirectory(tx, companyId, { ...rules, userIds: [userId], arrivalsOnly: true });
  }
}
