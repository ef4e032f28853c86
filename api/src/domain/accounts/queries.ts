import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { apps, plans, userPlans, users, type User } from '../../db/schema.js';
import { freePlanName } from '../../db/seed-data.js';
import { dropRegistrations } from '../registration/pending-registrations.js';

export async function findUserByEmail(db: Db, email: string): Promise<User | undefined> {
  const [user] = await db.select().from(users).where(eq(users.email, email));
  return user;
}

function planRowsQuery(db: Db) {
  return db
    .select({
      id: userPlans.id,
      fechaVencimiento: userPlans.fechaVencimiento,
      plan: { nombre: plans.nombre, descripcion: plans.descripcion },
      app: { id: apps.id, nombre: apps.nombre },
    })
    .from(userPlans)
    .innerJoin(plans, eq(plans.id, userPlans.planId))
    .innerJoin(apps, eq(apps.id, userPlans.appId))
    .where(eq(userPlans.userId, sql.placeholder('userId')))
    .orderBy(asc(userPlans.appId))
    .prepare('current_user_plans');
}

// Built once per database: `GET /auth/user` is the most frequent signed-in request.
const planRowsQueries = new WeakMap<Db, ReturnType<typeof planRowsQuery>>();

/** A user as the admin screens show it. */
export function userListItem(
  user: Pick<User, 'id' | 'email' | 'name' | 'lastName' | 'phone' | 'picture' | 'role' | 'status' | 'createdAt'>,
) {
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    lastName: user.lastName,
    phone: user.phone,
    picture: user.picture,
    role: user.role,
    status: user.status,
    createdAt: user.createdAt.toISOString(),
  };
}

/** The user as `GET /auth/user` shows it: the admin list's fields, the presentation and one plan per app; never the password hash. */
export async function currentUserView(db: Db, user: User) {
  let query = planRowsQueries.get(db);
  if (!query) {
    query = planRowsQuery(db);
    planRowsQueries.set(db, query);
  }
  const rows = await query.execute({ userId: user.id });

  return {
    ...userListItem(user),
    presentacion: user.presentacion,
    planesUsuarios: rows.map((row) => ({ ...row, fechaVencimiento: row.fechaVencimiento?.toISOString() ?? null })),
  };
}

export type CurrentUserView = Awaited<ReturnType<typeof currentUserView>>;

/** Emails are compared trimmed and lower-cased (API.md); stored that way too. */
export const normalizeEmail = (email: string) => email.trim().toLowerCase();

export async function findUserById(db: Db, id: number): Promise<User | undefined> {
  const [user] = await db.select().from(users).where(eq(users.id, id));
  return user;
}

/**
 * Activates a pending account and gives it the free plan of every app (the plans it already has stay). Answers
 * false when the account is not pending, and then changes nothing. Admin verification and Google/Apple sign-in use
 * it too. The account comes out with no password and every pending registration is dropped: none of their passwords
 * was proven to belong to the mailbox's owner (the code route then sets the one registration the browser proved).
 */
export async function activateUser(tx: Db, userId: number): Promise<boolean> {
  const activated = await tx
    .update(users)
    .set({ status: 'active', passwordHash: null })
    .where(and(eq(users.id, userId), eq(users.status, 'pending_verification')))
    .returning({ id: users.id });
  if (activated.length === 0) return false;
  await dropRegistrations(tx, userId);
  const freePlans = await tx
    .select({ appId: plans.appId, planId: plans.id })
    .from(plans)
    .where(sql`lower(${plans.nombre}) = ${freePlanName}`);
  if (freePlans.length > 0) {
    await tx
      .insert(userPlans)
      .values(freePlans.map((plan) => ({ userId, ...plan })))
      .onConflictDoNothing({ target: [userPlans.userId, userPlans.appId] });
  }
  return true;
}

/** Whether an account with this id exists. */
export async function userExists(db: Db, id: number): Promise<boolean> {
  return (await db.select({ id: users.id }).from(users).where(eq(users.id, id))).length > 0;
}
