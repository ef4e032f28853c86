// Seats a directory group gives (docs/decisions/0108-directory-seats-waiting.md): who a rule entitles to a seat of an
// app, who of them waits because the licence is full, and the waiting seated in the order they joined, never past
// the licence's seats. Everything here runs under the licence row's lock, the one every seat change takes.
import { type SQL, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client.js';
import {
  companyGroupRules,
  companyLicences,
  companyMembers,
  companyScimGroupMembers,
  companyScimUsers,
  companySeats,
  users,
} from '../../db/schema.js';
import { auditActorJson, directoryActor } from '../audit/log.js';
import { lockedLicence } from './seat-locks.js';

/**
 * The people a rule of the company entitles to a seat of `appId` (`user_id`; `since` and `place`: when and in which
 * order they first joined a group that gives it), as a subquery: active SCIM users of the company who are its active
 * members. `appId` may be a column of the outer query; `among`: only these people.
 */
export function entitled(companyId: number, appId: number | SQL, among?: number[]): SQL {
  if (among) {
    // From these people, each looked up by index (laterals with a limit are run per person, whatever the statistics
    // say: a directory's first sync fills tables the planner still thinks empty), never from every member of every
    // group the rules name, which grows with the directory.
    const people = sql`array[${sql.join(
      among.map((id) => sql`${id}`),
      sql`, `,
    )}]::int[]`;
    return sql`
      select su.user_id, min(gm.joined_at) as since, min(gm.seq) as place
      from unnest(${people}) as a(user_id)
      cross join lateral (
        select su.id, su.user_id from ${companyScimUsers} su
        where su.company_id = ${companyId} and su.user_id = a.user_id and su.active limit 1
      ) su
      cross join lateral (
        select 1 from ${companyMembers} m
        where m.company_id = ${companyId} and m.user_id = su.user_id and m.status = 'active' limit 1
      ) m
      cross join lateral (
        select gm.group_id, gm.joined_at, gm.seq from ${companyScimGroupMembers} gm where gm.scim_user_id = su.id offset 0
      ) gm
      cross join lateral (
        select 1 from ${companyGroupRules} r
        where r.group_id = gm.group_id and r.company_id = ${companyId} and r.app_id = ${appId} limit 1
      ) r
      group by su.user_id`;
  }
  return sql`
    select su.user_id, min(gm.joined_at) as since, min(gm.seq) as place
    from ${companyGroupRules} r
    join ${companyScimGroupMembers} gm on gm.group_id = r.group_id
    join ${companyScimUsers} su on su.id = gm.scim_user_id and su.active
    join ${companyMembers} m on m.company_id = su.company_id and m.user_id = su.user_id and m.status = 'active'
    where r.company_id = ${companyId} and r.app_id = ${appId}
    group by su.user_id`;
}

/** Whether the company's rules still entitle `userId` to a seat of `appId`. */
export async function stillEntitled(tx: Db, companyId: number, appId: number, userId: number): Promise<boolean> {
  const rows = await rowsOf<{ user_id: number }>(
    tx,
    sql`select user_id from (${entitled(companyId, appId)}) e where e.user_id = ${userId}`,
  );
  return rows.length > 0;
}

/**
 * Seats the people who wait for `appId`, first joined first, as many as the licence has free: none past its seats,
 * none while it is expired. The company's and the licence's rows are locked first (lockedLicence), so the waiting list
 * read next is the one every earlier change on any instance left (two directory requests at once run one after the
 * other here).
 * Answers the people seated. `among`: only these people can be waiting (they just came into a group, and after every
 * change either nobody waits or the licence is full), so only they are looked at.
 */
export async function seatWaiting(
  tx: Db,
  companyId: number,
  appId: number,
  now = new Date(),
  among?: number[],
): Promise<number[]> {
  if (among?.length === 0) return [];
  const licence = await lockedLicence(tx, companyId, appId);
  if (!licence || licence.expiresAt.getTime() <= now.getTime()) return [];
  const free = licence.seats - licence.seatsInUse;
  if (free <= 0) return [];
  // Emits `plan.asignado`, moves `seats_in_use`, gives the group's roles and notifies session-state (triggers on
  // company_seats, docs/triggers.md), as a seat given by hand does; each seat's audit entry in the same statement.
  const seated = await rowsOf<{ user_id: number }>(
    tx,
    sql`
      with waiting as (
        select e.user_id from (${entitled(companyId, appId, among)}) e
        left join lateral (
          select 1 as held from ${companySeats} s
          where s.company_id = ${companyId} and s.app_id = ${appId} and s.user_id = e.user_id limit 1
        ) s on true
        where s.held is null
        order by e.place
        limit ${free}
      ),
      seated as (
        insert into ${companySeats} (company_id, user_id, app_id, assigned_at, source)
        select ${companyId}, user_id, ${appId}, ${now}, 'directory' from waiting
        returning user_id
      ),
      audited as (
        select audit_write(${auditActorJson(directoryActor)}::jsonb, coalesce(jsonb_agg(jsonb_build_object(
          'action', 'company.seat_assign', 'targetType', 'company', 'targetId', ${companyId}::int,
          'companyId', ${companyId}::int,
          'details', jsonb_build_object('userId', seated.user_id, 'email', u.email, 'appId', ${appId}::int))), '[]')) as n
        from seated join ${users} u on u.id = seated.user_id
      )
      select seated.user_id from seated, audited`,
  );
  return seated.map((row) => row.user_id);
}

/** How many people wait for a seat of each app of the company (apps with nobody waiting are left out). */
export async function waitingCounts(db: Db, companyId: number): Promise<Map<number, number>> {
  const rows = await rowsOf<{ app_id: number; n: number }>(
    db,
    sql`
      select l.app_id, count(*)::int as n
      from ${companyLicences} l
      cross join lateral (${entitled(companyId, sql.raw('l.app_id'))}) e
      where l.company_id = ${companyId}
        and not exists (
          select 1 from ${companySeats} s
          where s.company_id = l.company_id and s.app_id = l.app_id and s.user_id = e.user_id
        )
      group by l.app_id`,
  );
  return new Map(rows.map((row) => [Number(row.app_id), Number(row.n)]));
}

/** A person waiting for a seat, as the company's administrators see them. */
export interface WaitingView {
  idUsuario: number;
  email: string;
  nombre: string;
  apellido: string;
  idApp: number;
  desde: string;
}

/** At most this many waiting people are listed (the counts in the seat report are exact). */
export const WAITING_LIST_CAP = 1000;

/** Who waits for a seat, by app and then in the order they will be seated. */
export async function listWaiting(db: Db, companyId: number): Promise<WaitingView[]> {
  const rows = await rowsOf<{
    app_id: number;
    user_id: number;
    since: Date | string;
    email: string;
    name: string;
    last_name: string;
  }>(
    db,
    sql`
      select l.app_id, e.user_id, e.since, u.email, u.name, u.last_name
      from ${companyLicences} l
      cross join lateral (${entitled(companyId, sql.raw('l.app_id'))}) e
      join ${users} u on u.id = e.user_id
      where l.company_id = ${companyId}
        and not exists (
          select 1 from ${companySeats} s
          where s.company_id = l.company_id and s.app_id = l.app_id and s.user_id = e.user_id
        )
      order by l.app_id, e.place
      limit ${WAITING_LIST_CAP}`,
  );
  return rows.map((row) => ({
    idUsuario: Number(row.user_id),
    email: row.email,
    nombre: row.name,
    apellido: row.last_name,
    idApp: Number(row.app_id),
    desde: new Date(row.since).toISOString(),
  }));
}
