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
 * Writes entries and drops each company's older ones beyond the last `keptRequests`, in one statement: the DELETE
 * reads the rows as they were before the INSERT, so it keeps `keptRequests - added` of them besides the new ones.
 * Both walk the index (company_id, id DESC).
 */
export async function writeRequests(db: Db, entries: RequestEntry[]): Promise<void> {
  if (entries.length === 0) return;
  const t = companyScimRequests;
  const rows = entries.map((entry) => {
    const path = entry.path.length > 500 ? entry.path.slice(0, 500) : entry.path;
    const detail = entry.detail.length > 1000 ? `${entry.detail.slice(0, 999)}…` : entry.detail;
    const userName = entry.userName ? entry.userName.slice(0, 254) : null;
    return sql`(${entry.companyId}::int, ${entry.method}, ${path}, ${entry.status}::int, ${detail}, ${userName})`;
  });
  const added = new Map<number, number>();
  for (const entry of entries) added.set(entry.companyId, (added.get(entry.companyId) ?? 0) + 1);
  const trims = [...added].map(
    ([companyId, count]) => sql`(${t.companyId} = ${companyId} and ${t.id} <= (
      select ${t.id} from ${t} where ${t.companyId} = ${companyId}
      order by ${t.id} desc offset ${Math.max(0, keptRequests - count)} limit 1))`,
  );
  await db.execute(sql`
    with added as (
      insert into ${t} (company_id, method, path, status, detail, user_name)
      values ${sql.join(rows, sql`, `)}
      returning id
    )
    delete from ${t} where ${sql.join(trims, sql` or `)}`);
}

export interface RequestLog {
  /** Queues an entry: written with the others of the next few milliseconds, in one statement. */
  add(entry: RequestEntry): void;
  /** Writes what is queued (before the registro is read, and at close). */
  flush(): Promise<void>;
}

const flushAfterMs = 50;
const flushAtEntries = 200;

/**
 * The request log of one API instance. A directory's sync makes thousands of requests: their entries are written
 * together, a statement per batch instead of one per request. This instance's registro reads flush first, so they see
 * every request this instance answered; another instance's last ones appear within `flushAfterMs`. A failed write is
 * reported and dropped (the log explains, it never refuses a request).
 */
export function createRequestLog(db: Db, report: (error: unknown) => void): RequestLog {
  let queued: RequestEntry[] = [];
  let timer: NodeJS.Timeout | undefined;
  let writing: Promise<void> = Promise.resolve();
  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    const batch = queued;
    queued = [];
    // One write after the other, so that the trims count right.
    writing = writing.then(() => writeRequests(db, batch).catch(report));
    return writing;
  };
  return {
    add(entry) {
      queued.push(entry);
      if (queued.length >= flushAtEntries) void flush();
      else timer ??= setTimeout(flush, flushAfterMs);
    },
    flush,
  };
}

const logs = new WeakMap<Db, RequestLog>();

/** The request log of the instance whose database handle this is (the SCIM routes write it, the registro reads it). */
export function requestLogOf(db: Db, report: (error: unknown) => void = () => {}): RequestLog {
  let log = logs.get(db);
  if (!log) {
    log = createRequestLog(db, report);
    logs.set(db, log);
  }
  return log;
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
