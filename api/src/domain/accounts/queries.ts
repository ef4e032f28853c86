import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { users, type User } from '../../db/schema.js';
import { entitlements } from '../apps-and-plans/effective-plans.js';

export async function findUserByEmail(db: Db, email: string): Promise<User | undefined> {
  const [user] = await db.select().from(users).where(eq(users.email, email));
  return user;
}

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

/**
 * The user as `GET /auth/user` shows it: the admin list's fields, the presentation, one plan per app by the one plan
 * rule (domain/apps-and-plans/effective-plans.ts) with where it comes from, and the person's companies; never the
 * password hash. `now` judges expiries (the app's clock).
 */
export async function currentUserView(db: Db, user: User, now?: number) {
  return (await currentUserViewUntil(db, user, now)).view;
}

/** The view, and until when it holds with no row changed (the earliest expiry it names; null: none). */
export async function currentUserViewUntil(db: Db, user: User, now?: number) {
  const { plans, empresas, validUntil } = await entitlements(db, user.id, { now });
  const view = {
    ...userListItem(user),
    presentacion: user.presentacion,
    planesUsuarios: plans.map((entry) => ({
      id: entry.rowId,
      fechaVencimiento: entry.fechaVencimiento?.toISOString() ?? null,
      plan: { nombre: entry.plan.nombre, descripcion: entry.plan.descripcion },
      app: entry.app,
      origen: entry.origen,
      empresa: entry.empresa,
    })),
    empresas,
  };
  return { view, validUntil };
}

export type CurrentUserView = Awaited<ReturnType<typeof currentUserView>>;

export async function findUserById(db: Db, id: number): Promise<User | undefined> {
  const [user] = await db.select().from(users).where(eq(users.id, id));
  return user;
}

/** Whether an account with this id exists. */
export async function userExists(db: Db, id: number): Promise<boolean> {
  return (await db.select({ id: users.id }).from(users).where(eq(users.id, id))).length > 0;
}
