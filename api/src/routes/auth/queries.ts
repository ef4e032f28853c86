import { asc, eq } from 'drizzle-orm'
import type { Db } from '../../db/client.js'
import { apps, plans, userPlans, users, type User } from '../../db/schema.js'

export async function findUserByEmail(db: Db, email: string): Promise<User | undefined> {
  const [user] = await db.select().from(users).where(eq(users.email, email))
  return user
}

/** The user as `GET /auth/user` shows it: profile and one plan per app, never the password hash. */
export async function currentUserView(db: Db, user: User) {
  const rows = await db.select({
    id: userPlans.id,
    fechaVencimiento: userPlans.fechaVencimiento,
    plan: { nombre: plans.nombre, descripcion: plans.descripcion },
    app: { id: apps.id, nombre: apps.nombre },
  })
    .from(userPlans)
    .innerJoin(plans, eq(plans.id, userPlans.planId))
    .innerJoin(apps, eq(apps.id, userPlans.appId))
    .where(eq(userPlans.userId, user.id))
    .orderBy(asc(userPlans.appId))

  return {
    id: user.id,
    email: user.email,
    name: user.name,
    lastName: user.lastName,
    phone: user.phone,
    picture: user.picture,
    role: user.role,
    presentacion: user.presentacion,
    status: user.status,
    createdAt: user.createdAt.toISOString(),
    planesUsuarios: rows.map((row) => ({ ...row, fechaVencimiento: row.fechaVencimiento?.toISOString() ?? null })),
  }
}
