import { asc, count, eq, inArray } from 'drizzle-orm'
import type { Db } from '../../db/client.js'
import { appTags, apps } from '../../db/schema.js'
import type { App } from '../../schemas/apps.js'

type AppRow = typeof apps.$inferSelect

async function withTags(db: Db, rows: AppRow[]): Promise<App[]> {
  if (rows.length === 0) return []
  const tags = await db.select({ appId: appTags.appId, descripcion: appTags.descripcion })
    .from(appTags)
    .where(inArray(appTags.appId, rows.map((row) => row.id)))
    .orderBy(asc(appTags.id))
  return rows.map(({ createdAt: _createdAt, ...app }) => ({
    ...app,
    tags: tags.filter((tag) => tag.appId === app.id).map(({ descripcion }) => ({ descripcion })),
  }))
}

export async function listApps(db: Db, page: number, limit: number) {
  const [totals] = await db.select({ value: count() }).from(apps)
  const rows = await db.select().from(apps).orderBy(asc(apps.id)).limit(limit).offset((page - 1) * limit)
  const total = totals?.value ?? 0
  const data = await withTags(db, rows)
  const totalPages = Math.ceil(total / limit)
  return { data, total, totalPages, currentPage: page, hasNextPage: page < totalPages, count: data.length }
}

export async function findApp(db: Db, id: number): Promise<App | undefined> {
  const rows = await db.select().from(apps).where(eq(apps.id, id))
  const [app] = await withTags(db, rows)
  return app
}
