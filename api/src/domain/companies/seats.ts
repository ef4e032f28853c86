// Seats of a company's licences: assigned to its members and taken back by its administrators. `seats_in_use` is kept
// by the trigger of migration 0020 in the same transaction; the API only reads it, under the licence row's lock.
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { apps, companyLicences, companyMembers, companySeats, users } from '../../db/schema.js';
import { HttpError } from '../../lib/errors.js';
import { type AuditActor, auditCause, recordAudit, type SeatEndCause } from '../audit/log.js';
import { seatWaiting } from './directory-seats.js';
import { lockedLicence } from './seat-locks.js';
import type { CompanyActor } from './members.js';
import { decodeCursor, encodeCursor } from '../key-cursor.js';
import { cappedCount, emailCondition, FILTERED_TOTAL_CAP } from './member-search.js';
import { companyMessages } from './messages.js';

/** A seat as the API shows it. */
export interface SeatView {
  idUsuario: number;
  idApp: number;
  asignadoEn: string;
}

/** The person's address, for the audit entry's reader (the id alone says nothing to a company administrator). */
async function emailOf(tx: Db, userId: number): Promise<string | null> {
  const [row] = await tx.select({ email: users.email }).from(users).where(eq(users.id, userId));
  return row?.email ?? null;
}

const licenceNotFound = () => new HttpError(404, companyMessages.licenceNotFound, 'LICENCIA_NO_ENCONTRADA');

/**
 * Gives member `userId` one of the seats of the company's licence of `appId`, in the caller's transaction. Refused:
 * no such licence (404 LICENCIA_NO_ENCONTRADA), an expired one (409 LICENCIA_VENCIDA), someone outside the company
 * (404 MIEMBRO_NO_ENCONTRADO) or still waiting for approval (409 MIEMBRO_PENDIENTE), a seat they already hold (409
 * PUESTO_EXISTENTE), and a licence whose seats are all in use (409 SIN_PUESTOS), also when lowered below those in use.
 */
export async function assignSeat(
  tx: Db,
  actor: Pick<CompanyActor, 'audit'>,
  companyId: number,
  userId: number,
  appId: number,
  now: Date,
): Promise<SeatView> {
  const licence = await lockedLicence(tx, companyId, appId);
  if (!licence) throw licenceNotFound();
  if (licence.expiresAt.getTime() <= now.getTime()) {
    throw new HttpError(409, companyMessages.licenceExpired, 'LICENCIA_VENCIDA');
  }
  const [member] = await tx
    .select({ status: companyMembers.status })
    .from(companyMembers)
    .where(and(eq(companyMembers.companyId, companyId), eq(companyMembers.userId, userId)));
  if (!member) throw new HttpError(404, companyMessages.memberNotFound, 'MIEMBRO_NO_ENCONTRADO');
  if (member.status !== 'active') throw new HttpError(409, companyMessages.memberPending, 'MIEMBRO_PENDIENTE');
  const [held] = await tx
    .select({ one: sql`1` })
    .from(companySeats)
    .where(and(eq(companySeats.companyId, companyId), eq(companySeats.appId, appId), eq(companySeats.userId, userId)));
  if (held) throw new HttpError(409, companyMessages.seatExists, 'PUESTO_EXISTENTE');
  if (licence.seatsInUse >= licence.seats) {
    const [app] = await tx.select({ name: apps.nombre }).from(apps).where(eq(apps.id, appId));
    throw new HttpError(409, companyMessages.noFreeSeats(app?.name ?? `la app ${appId}`), 'SIN_PUESTOS');
  }
  // Emits `plan.asignado`, moves `seats_in_use` and notifies session-state (triggers on company_seats,
  // docs/triggers.md).
  const [seat] = await tx
    .insert(companySeats)
    .values({ companyId, userId, appId, assignedAt: now })
    .returning({ assignedAt: companySeats.assignedAt });
  await recordAudit(tx, actor.audit, [
    {
      action: 'company.seat_assign',
      target: { type: 'company', id: companyId },
      details: { userId, email: await emailOf(tx, userId), appId },
      companyId,
    },
  ]);
  return { idUsuario: userId, idApp: appId, asignadoEn: (seat?.assignedAt ?? now).toISOString() };
}

/**
 * Takes back member `userId`'s seat of `appId` (404 PUESTO_NO_ENCONTRADO when they hold none). The company and the
 * licence are locked first, as an assignment locks them, so the two wait for each other in one order. The freed seat
 * goes to the first person a directory group keeps waiting for one.
 */
export async function removeSeat(
  tx: Db,
  actor: { audit: AuditActor },
  companyId: number,
  userId: number,
  appId: number,
  why: SeatEndCause = 'puesto_retirado',
) {
  await lockedLicence(tx, companyId, appId);
  // The roles the seat takes with it are written by a trigger: it names this actor and why.
  await auditCause(tx, actor.audit, why);
  // Emits `plan.retirado`, moves `seats_in_use` and notifies session-state (triggers on company_seats,
  // docs/triggers.md).
  const removed = await tx
    .delete(companySeats)
    .where(and(eq(companySeats.companyId, companyId), eq(companySeats.appId, appId), eq(companySeats.userId, userId)))
    .returning({ userId: companySeats.userId });
  if (removed.length === 0) throw new HttpError(404, companyMessages.seatNotFound, 'PUESTO_NO_ENCONTRADO');
  await recordAudit(tx, actor.audit, [
    {
      action: 'company.seat_remove',
      target: { type: 'company', id: companyId },
      details: { userId, email: await emailOf(tx, userId), appId },
      companyId,
    },
  ]);
  await seatWaiting(tx, companyId, appId);
}

export interface SeatListQuery {
  idApp?: number;
  email?: string;
  cursor?: string;
  limit: number;
}

/**
 * A page of the company's seats in key order (app, then user), after the seat the cursor names. Without an email
 * filter the total is the licences' own counters; with one it stops at FILTERED_TOTAL_CAP (`totalLimitado`).
 */
export async function listSeats(db: Db, companyId: number, query: SeatListQuery) {
  const after = query.cursor ? decodeCursor(query.cursor, 2) : undefined;
  const email = query.email?.trim() ? emailCondition(db, query.email) : undefined;
  const where = and(
    eq(companySeats.companyId, companyId),
    query.idApp === undefined ? undefined : eq(companySeats.appId, query.idApp),
    email,
  );
  const place = after
    ? sql`(${companySeats.appId}, ${companySeats.userId}) > (${after[0]}::integer, ${after[1]}::integer)`
    : undefined;
  const rows = await db
    .select({
      userId: companySeats.userId,
      appId: companySeats.appId,
      assignedAt: companySeats.assignedAt,
      email: users.email,
      name: users.name,
      lastName: users.lastName,
    })
    .from(companySeats)
    .innerJoin(users, eq(users.id, companySeats.userId))
    .where(and(where, place))
    .orderBy(asc(companySeats.appId), asc(companySeats.userId))
    .limit(query.limit + 1);
  const page = rows.slice(0, query.limit);
  const hasNext = rows.length > query.limit;

  let total: number;
  if (!email) {
    const [row] = await db
      .select({ n: sql<number>`coalesce(sum(${companyLicences.seatsInUse}), 0)`.mapWith(Number) })
      .from(companyLicences)
      .where(
        and(
          eq(companyLicences.companyId, companyId),
          query.idApp === undefined ? undefined : eq(companyLicences.appId, query.idApp),
        ),
      );
    total = row?.n ?? 0;
  } else if (!after && !hasNext) {
    total = page.length;
  } else {
    total = await cappedCount(
      db,
      db
        .select({ one: sql`1` })
        .from(companySeats)
        .innerJoin(users, eq(users.id, companySeats.userId))
        .where(where)
        .$dynamic(),
    );
  }
  const limited = Boolean(email) && total > FILTERED_TOTAL_CAP;
  const last = page.at(-1);
  return {
    data: page.map((row) => ({
      idUsuario: row.userId,
      email: row.email,
      nombre: row.name,
      apellido: row.lastName,
      idApp: row.appId,
      asignadoEn: row.assignedAt.toISOString(),
    })),
    total: limited ? FILTERED_TOTAL_CAP : total,
    totalLimitado: limited,
    siguiente: hasNext && last ? encodeCursor([last.appId, last.userId]) : null,
  };
}
