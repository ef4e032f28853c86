import { and, asc, count, eq, gt, inArray, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import {
  companyMemberCounts,
  companyMembers,
  companySeats,
  type CompanyRole,
  type MemberStatus,
  passkeys,
  totpFactors,
  users,
} from '../../db/schema.js';
import { HttpError } from '../../lib/errors.js';
import { type AuditActor, auditCause, recordAudit } from '../audit/log.js';
import type { CompanyAccess } from './access.js';
import { decodeCursor, encodeCursor } from '../key-cursor.js';
import { cappedCount, emailCondition, FILTERED_TOTAL_CAP } from './member-search.js';
import { seatWaiting } from './directory-seats.js';
import { lockCompanyRow, lockCompanySeats } from './seat-locks.js';
import { companyMessages } from './messages.js';

/**
 * Makes `userId` a member of the company with `role` (an accepted invitation, a domain join, the operator). A person
 * already in the company keeps their membership as it is: answers false then, true when the row was added.
 */
export async function addMember(
  db: Db,
  companyId: number,
  userId: number,
  role: CompanyRole,
  status: MemberStatus = 'active',
): Promise<boolean> {
  // Moves `company_member_counts` and notifies session-state (triggers on company_members, docs/triggers.md).
  const added = await db
    .insert(companyMembers)
    .values({ companyId, userId, role, status })
    .onConflictDoNothing({ target: [companyMembers.companyId, companyMembers.userId] })
    .returning({ userId: companyMembers.userId });
  return added.length > 0;
}

/** A member as the API shows them (`Miembro`). */
export interface MemberView {
  idUsuario: number;
  email: string;
  nombre: string;
  apellido: string;
  rol: CompanyRole;
  estado: 'activo' | 'pendiente';
  segundoFactor: boolean;
  /** The apps whose seat the member holds. */
  puestos: number[];
  desde: string;
}

const memberColumns = {
  userId: companyMembers.userId,
  email: users.email,
  name: users.name,
  lastName: users.lastName,
  role: companyMembers.role,
  status: companyMembers.status,
  createdAt: companyMembers.createdAt,
  secondFactor: sql<boolean>`(exists (select 1 from ${totpFactors} where ${totpFactors.userId} = ${users.id}
    and ${totpFactors.confirmedAt} is not null) or exists (select 1 from ${passkeys} where ${passkeys.userId} = ${users.id}))`,
};

type MemberRow = {
  userId: number;
  email: string;
  name: string;
  lastName: string;
  role: CompanyRole;
  status: MemberStatus;
  createdAt: Date;
  secondFactor: boolean;
};

/**
 * The seats of the members on a page, by member: one lookup on `company_seats_user_id_idx` for the page's ids. A
 * subquery per row was planned on the primary key (company, app, user) instead, reading every seat of the company.
 */
async function seatsOf(db: Db, companyId: number, userIds: number[]): Promise<Map<number, number[]>> {
  const seats = new Map<number, number[]>();
  if (userIds.length === 0) return seats;
  const rows = await db
    .select({ userId: companySeats.userId, appId: companySeats.appId })
    .from(companySeats)
    .where(and(inArray(companySeats.userId, userIds), eq(companySeats.companyId, companyId)))
    .orderBy(asc(companySeats.appId));
  for (const row of rows) seats.set(row.userId, [...(seats.get(row.userId) ?? []), row.appId]);
  return seats;
}

function memberView(row: MemberRow, seats: Map<number, number[]>): MemberView {
  return {
    idUsuario: row.userId,
    email: row.email,
    nombre: row.name,
    apellido: row.lastName,
    rol: row.role,
    estado: row.status === 'active' ? 'activo' : 'pendiente',
    segundoFactor: row.secondFactor === true,
    puestos: seats.get(row.userId) ?? [],
    desde: new Date(row.createdAt).toISOString(),
  };
}

const memberNotFound = () => new HttpError(404, companyMessages.memberNotFound, 'MIEMBRO_NO_ENCONTRADO');

/** One member of the company as the API shows them, or the 404 MIEMBRO_NO_ENCONTRADO. */
export async function getMember(db: Db, companyId: number, userId: number): Promise<MemberView> {
  const [row] = await db
    .select(memberColumns)
    .from(companyMembers)
    .innerJoin(users, eq(users.id, companyMembers.userId))
    .where(and(eq(companyMembers.companyId, companyId), eq(companyMembers.userId, userId)));
  if (!row) throw memberNotFound();
  return memberView(row, await seatsOf(db, companyId, [userId]));
}

export interface MemberListQuery {
  email?: string;
  cursor?: string;
  limit: number;
}

/**
 * A page of the company's members in the order of their user ids, after the member the cursor names; `siguiente` is
 * the cursor of the next page (null on the last). `total` is exact without a filter; with an email filter it stops at
 * FILTERED_TOTAL_CAP (`totalLimitado`).
 */
export async function listMembers(db: Db, companyId: number, query: MemberListQuery) {
  const after = query.cursor ? decodeCursor(query.cursor, 1)[0] : undefined;
  const email = query.email?.trim() ? emailCondition(db, query.email) : undefined;
  const ofCompany = eq(companyMembers.companyId, companyId);
  // The cursor's bound on both sides of the join: a merge join would otherwise walk users from the first id.
  const from = after ? and(gt(companyMembers.userId, after), gt(users.id, after)) : undefined;
  // Without a filter the page's ids come from the key alone, and only they are joined to their users.
  const pageIds = db
    .select({ userId: companyMembers.userId })
    .from(companyMembers)
    .where(and(ofCompany, after ? gt(companyMembers.userId, after) : undefined))
    .orderBy(asc(companyMembers.userId))
    .limit(query.limit + 1);
  const rows = await db
    .select(memberColumns)
    .from(companyMembers)
    .innerJoin(users, eq(users.id, companyMembers.userId))
    .where(and(ofCompany, from, email ? email : inArray(companyMembers.userId, pageIds)))
    .orderBy(asc(companyMembers.userId))
    .limit(query.limit + 1);
  const page = rows.slice(0, query.limit);
  const hasNext = rows.length > query.limit;

  let total: number;
  if (!email) {
    // The count the database keeps (migration 0022): counting 100 000 rows was most of the page's time.
    const [row] = await db
      .select({ n: companyMemberCounts.n })
      .from(companyMemberCounts)
      .where(eq(companyMemberCounts.companyId, companyId));
    total = row?.n ?? 0;
  } else if (!after && !hasNext) {
    // The first page holds every match.
    total = page.length;
  } else {
    total = await cappedCount(
      db,
      db
        .select({ one: sql`1` })
        .from(companyMembers)
        .innerJoin(users, eq(users.id, companyMembers.userId))
        .where(and(ofCompany, email))
        .$dynamic(),
    );
  }
  const limited = Boolean(email) && total > FILTERED_TOTAL_CAP;
  const seats = await seatsOf(
    db,
    companyId,
    page.map((row) => row.userId),
  );
  const last = page.at(-1);
  return {
    data: page.map((row) => memberView(row, seats)),
    total: limited ? FILTERED_TOTAL_CAP : total,
    totalLimitado: limited,
    siguiente: hasNext && last ? encodeCursor([last.userId]) : null,
  };
}

/** Who acts on the company: how they reached it (company-access.ts) and who they are for the audit log. */
export interface CompanyActor {
  access: CompanyAccess;
  audit: AuditActor;
}

/** Only a propietario (or a platform administrator) grants or takes away 'propietario'. */
function mayHandleOwners(actor: CompanyActor): boolean {
  return actor.access.platform || actor.access.role === 'propietario';
}

/** The membership, read under its row lock; undefined for a person not in the company. */
async function memberUnderLock(tx: Db, companyId: number, userId: number) {
  const [member] = await tx
    .select({
      userId: companyMembers.userId,
      role: companyMembers.role,
      status: companyMembers.status,
      email: sql<string>`(select ${users.email} from ${users} where ${users.id} = ${companyMembers.userId})`,
    })
    .from(companyMembers)
    .where(and(eq(companyMembers.companyId, companyId), eq(companyMembers.userId, userId)))
    .for('update');
  return member;
}

type LockedMember = NonNullable<Awaited<ReturnType<typeof memberUnderLock>>>;

async function lockedMember(tx: Db, companyId: number, userId: number): Promise<LockedMember> {
  const member = await memberUnderLock(tx, companyId, userId);
  if (!member) throw memberNotFound();
  return member;
}

/** Refuses (409 ULTIMO_PROPIETARIO) to take away the company's last active owner; the company row is locked. */
async function keepOneOwner(
  tx: Db,
  companyId: number,
  member: { userId: number; role: CompanyRole; status: MemberStatus },
) {
  if (member.role !== 'propietario' || member.status !== 'active') return;
  const [others] = await tx
    .select({ n: count() })
    .from(companyMembers)
    .where(
      and(
        eq(companyMembers.companyId, companyId),
        eq(companyMembers.role, 'propietario'),
        eq(companyMembers.status, 'active'),
        ne(companyMembers.userId, member.userId),
      ),
    );
  if ((others?.n ?? 0) === 0) throw new HttpError(409, companyMessages.lastOwner, 'ULTIMO_PROPIETARIO');
}

const onlyOwners = () => new HttpError(403, companyMessages.onlyOwnerGrantsOwner, 'SOLO_PROPIETARIO');

/** Gives a member another role, in the caller's transaction; the same role changes and records nothing. */
export async function changeMemberRole(
  tx: Db,
  actor: CompanyActor,
  companyId: number,
  userId: number,
  role: CompanyRole,
): Promise<void> {
  // The company's row, so that changes to its owners run one after another: two owners demoting each other at once
  // would otherwise each see the other still there, and leave none.
  await lockCompanyRow(tx, companyId);
  const member = await lockedMember(tx, companyId, userId);
  if (member.role === role) return;
  if ((role === 'propietario' || member.role === 'propietario') && !mayHandleOwners(actor)) throw onlyOwners();
  if (role !== 'propietario') await keepOneOwner(tx, companyId, member);
  // Notifies session-state (trigger `company_members_session_notify`, docs/triggers.md).
  await tx
    .update(companyMembers)
    .set({ role, roleFromDirectory: false })
    .where(and(eq(companyMembers.companyId, companyId), eq(companyMembers.userId, userId)));
  await recordAudit(tx, actor.audit, [
    {
      action: 'company.member_role_change',
      target: { type: 'company', id: companyId },
      details: { userId, email: member.email, from: member.role, to: role },
      companyId,
    },
  ]);
}

/**
 * Takes a person out of the company, in the caller's transaction: their seats here go back to the licences (the
 * trigger of migration 0020 counts) and their membership goes. The company and then its licences are locked first
 * (lockCompanySeats, the order of every seat change), so a removal and a seat change at once wait for each other
 * instead of deadlocking. `allowed` may refuse after the member is read and locked. The company's last active owner is refused
 * (409 ULTIMO_PROPIETARIO), nothing changed. Answers the membership that was (undefined for a person not in the
 * company) and the apps whose seats were freed.
 */
export async function takeOutOfCompany(
  tx: Db,
  companyId: number,
  userId: number,
  allowed: (member: LockedMember) => void = () => {},
): Promise<{ member: LockedMember | undefined; seats: number[] }> {
  await lockCompanySeats(tx, companyId);
  const member = await memberUnderLock(tx, companyId, userId);
  if (member) {
    allowed(member);
    await keepOneOwner(tx, companyId, member);
  }
  // Emits `plan.retirado` per seat and moves `seats_in_use`; the membership's deletion moves `company_member_counts`;
  // both notify session-state (triggers on company_seats and company_members, docs/triggers.md).
  const seats = await tx
    .delete(companySeats)
    .where(and(eq(companySeats.companyId, companyId), eq(companySeats.userId, userId)))
    .returning({ appId: companySeats.appId });
  if (member)
    await tx
      .delete(companyMembers)
      .where(and(eq(companyMembers.companyId, companyId), eq(companyMembers.userId, userId)));
  const freed = seats.map((seat) => seat.appId).sort((a, b) => a - b);
  // The freed seats go to whoever a directory group keeps waiting (the licences are locked already).
  for (const appId of freed) await seatWaiting(tx, companyId, appId);
  return { member, seats: freed };
}

/** An administrator takes a person out of the company (only an owner takes out an owner); audited. */
export async function removeMember(tx: Db, actor: CompanyActor, companyId: number, userId: number): Promise<void> {
  await auditCause(tx, actor.audit, 'miembro_retirado');
  const { member, seats } = await takeOutOfCompany(tx, companyId, userId, (found) => {
    if (found.role === 'propietario' && !mayHandleOwners(actor)) throw onlyOwners();
  });
  if (!member) throw memberNotFound();
  await recordAudit(tx, actor.audit, [
    {
      action: 'company.member_remove',
      target: { type: 'company', id: companyId },
      details: {
        userId,
        email: member.email,
        role: member.role,
        seats,
      },
      companyId,
    },
  ]);
}

/** Lets in a person waiting after a domain join (409 MIEMBRO_NO_PENDIENTE for one already in). */
export async function approveMember(tx: Db, actor: CompanyActor, companyId: number, userId: number): Promise<void> {
  const member = await lockedMember(tx, companyId, userId);
  if (member.status !== 'pending_approval') {
    throw new HttpError(409, companyMessages.memberNotPending, 'MIEMBRO_NO_PENDIENTE');
  }
  // Notifies session-state: the company's seats may now count for them (docs/triggers.md).
  await tx
    .update(companyMembers)
    .set({ status: 'active' })
    .where(and(eq(companyMembers.companyId, companyId), eq(companyMembers.userId, userId)));
  await recordAudit(tx, actor.audit, [
    {
      action: 'company.member_approve',
      target: { type: 'company', id: companyId },
      details: { userId, email: member.email },
      companyId,
    },
  ]);
}
