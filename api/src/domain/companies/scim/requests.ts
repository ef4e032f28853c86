// The company's last directory requests (company_scim_requests), so its administrators can tell why a sync failed.
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.js';
import { companyScimRequests } from '../../../db/schema.js';

/** How many requests each company keeps. */
export const keptRequests = 1000;

export interface RequestEntry {
  companyId: number;
  method: string;
  path: string;
  status: number;
  detail: string;
  userName?: string | null;
}

/**
 * Records one request and drops the company's older ones beyond the last `keptRequests`, in one statement: the
 * DELETE reads the rows as they were before the INSERT, so it keeps `keptRequests - 1` of them besides the new one.
 * Both walk the index (company_id, id DESC).
 */
export async function logRequest(db: Db, entry: RequestEntry): Promise<void> {
  const path = entry.path.length > 500 ? entry.path.slice(0, 500) : entry.path;
  const detail = entry.detail.length > 1000 ? `${entry.detail.slice(0, 999)}…` : entry.detail;
  const userName = entry.userName ? entry.userName.slice(0, 254) : null;
  const t = companyScimRequests;
  await db.execute(sql`
    with added as (
      insert into ${t} (company_id, method, path, status, detail, user_name)
      values (${entry.companyId}, ${entry.method}, ${path}, ${entry.status}, ${detail}, ${userName})
      returning id
    )
    delete from ${t}
    where ${t.companyId} = ${entry.companyId}
      and ${t.id} <= (
        select ${t.id} from ${t} where ${t.companyId} = ${entry.companyId}
        order by ${t.id} desc offset ${keptRequests - 1} limit 1
      )`);
}

/** The company's last requests, newest first. */
export async function listRequests(db: Db, companyId: number, limit: number) {
  const rows = await db
    .select()
    .from(companyScimRequests)
    .where(and(eq(companyScimRequests.companyId, companyId)))
    .orderBy(desc(companyScimRequests.id))
    .limit(limit);
  return rows.map((row) => ({
    id: row.id,
    fecha: row.createdAt.toISOString(),
    metodo: row.method,
    ruta: row.path,
    estado: row.status,
    detalle: row.detail,
    usuario: row.userName ?? null,
  }));
}
