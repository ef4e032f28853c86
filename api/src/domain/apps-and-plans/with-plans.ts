import { asc, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { apps, plans } from '../../db/schema.js';
import { freePlanName } from '../../db/seed-data.js';
import { AppWithPlans } from '../../schemas/apps-with-plans.js';

export { AppWithPlans };

/** Every app by id with its plans, the free plan first, then by id (spec §3 "App with plans"). */
export async function listAppsWithPlans(db: Db): Promise<AppWithPlans[]> {
  const rows = await db
    .select({
      id: apps.id,
      nombre: apps.nombre,
      iconUrl: apps.iconUrl,
      descripcion: apps.descripcion,
      longDescription: apps.longDescription,
    })
    .from(apps)
    .orderBy(asc(apps.id));
  if (rows.length === 0) return [];
  const planRows = await db
    .select({
      appId: plans.appId,
      id: plans.id,
      nombre: plans.nombre,
      caracteristicas: plans.caracteristicas,
      precioMensual: plans.precioMensual,
      precioAnual: plans.precioAnual,
    })
    .from(plans)
    .where(
      inArray(
        plans.appId,
        rows.map((row) => row.id),
      ),
    )
    .orderBy(sql`lower(${plans.nombre}) = ${freePlanName} DESC`, asc(plans.id));
  return rows.map((app) => ({
    ...app,
    planes: planRows
      .filter((plan) => plan.appId === app.id)
      .map(({ appId: _appId, ...plan }) => ({
        ...plan,
        precioMensual: Number(plan.precioMensual),
        precioAnual: Number(plan.precioAnual),
      })),
  }));
}
