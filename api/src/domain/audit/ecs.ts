// A company's activity log as a SIEM reads it (docs/decisions/0127-activity-log-as-ecs.md, docs/registro-para-siem.md):
// one JSON document per entry with Elastic Common Schema names, read page after page by a cursor that never skips an
// entry: in the order of the transactions that wrote them, and only entries of transactions older than every one still
// running (an entry committed later can never land before a cursor already handed out).
import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client.js';
import { HttpError } from '../../lib/errors.js';
import { seal, unseal } from '../../lib/sealed.js';
import { decodeCursor, encodeCursor } from '../key-cursor.js';
import { type AuditSource, sourceOf } from './log.js';
import { auditMessages as M } from './messages.js';

/** What no document carries, whatever an entry's details hold: credentials and one-time values. */
const secretKey = /secret|secreto|token|password|contrasena|contraseña|clave|codigo|código|hash/i;

/** One entry as its ECS document. */
export interface EcsDocument {
  '@timestamp': string;
  event: { id: string; action: string; outcome: 'success' | 'failure'; kind: 'event'; dataset: 'portal.audit' };
  user?: { id?: string; email: string };
  source?: { ip: string };
  organization: { id: string; name: string };
  portal: {
    origen: AuditSource;
    objetivo: { tipo: string; id: number };
    detalles: Record<string, unknown>;
    requestId?: string;
  };
}

interface Row {
  id: string;
  xid: string;
  actor_id: number | null;
  actor_email: string;
  actor_role: number | null;
  action: string;
  target_type: string;
  target_id: number;
  details: Record<string, unknown>;
  request_id: string | null;
  company_id: number;
  company_name: string;
  created_at: Date | string;
}

/** The details without any key that could hold a credential, nested objects included. */
function withoutSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSecrets);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>)
      .filter(([key]) => !secretKey.test(key))
      .map(([key, inner]) => [key, withoutSecrets(inner)]),
  );
}

/** Whether an entry tells of something refused or failed (a lockout, a delivery given up), as ECS `event.outcome`. */
function outcomeOf(action: string, details: Record<string, unknown>): 'success' | 'failure' {
  if (/lockout|fail|refus|denied/.test(action)) return 'failure';
  return details.resultado === 'fallido' ? 'failure' : 'success';
}

export function ecsDocument(row: Row): EcsDocument {
  const details = row.details ?? {};
  const address =
    typeof details.address === 'string' ? details.address : typeof details.ip === 'string' ? details.ip : undefined;
  return {
    '@timestamp': new Date(row.created_at).toISOString(),
    event: {
      id: String(row.id),
      action: row.action,
      outcome: outcomeOf(row.action, details),
      kind: 'event',
      dataset: 'portal.audit',
    },
    user: { ...(row.actor_id === null ? {} : { id: String(row.actor_id) }), email: row.actor_email },
    ...(address ? { source: { ip: address } } : {}),
    organization: { id: String(row.company_id), name: row.company_name },
    portal: {
      origen: sourceOf({
        actorId: row.actor_id,
        actorRole: row.actor_role,
        targetType: row.target_type,
        targetId: row.target_id,
        details,
      }),
      objetivo: { tipo: row.target_type, id: row.target_id },
      detalles: withoutSecrets(details) as Record<string, unknown>,
      ...(row.request_id ? { requestId: row.request_id } : {}),
    },
  };
}

/** The largest transaction id a position may name (a 64-bit xid8 read as a JavaScript number stays exact below it). */
const largestXid = Number.MAX_SAFE_INTEGER;

/** Where a reader of a company's log got to: the writing transaction and the id of the last entry it read. */
export interface LogPosition {
  xid: number;
  id: number;
}

/** Before every entry (a real transaction id is at least 3). */
const start: LogPosition = { xid: 1, id: 1 };

/** A position as a destination keeps it (`audit_streams.cursor`); never handed out. */
export const positionText = (position: LogPosition) => encodeCursor([position.xid, position.id]);

/** A kept position, or the 400 INVALID_CURSOR for text that is none. */
export function positionOf(text: string): LogPosition {
  const [xid = 0, id = 0] = decodeCursor(text, 2, largestXid);
  return { xid, id };
}

const invalidCursor = () => new HttpError(400, M.invalidCursor, 'INVALID_CURSOR');
const cursorOf = (companyId: number) => `audit-cursor:${companyId}`;

/**
 * A position as a collector holds it: sealed with the API's key for this company, so it shows nothing of the database
 * (its transaction counter) and only a cursor the portal gave, for this company, opens.
 */
const sealedCursor = (key: Buffer, companyId: number, position: LogPosition) =>
  seal(key, cursorOf(companyId), positionText(position));

function openedCursor(key: Buffer, companyId: number, cursor: string): LogPosition {
  try {
    return positionOf(unseal(key, cursorOf(companyId), cursor));
  } catch {
    throw invalidCursor();
  }
}

/**
 * The company's entries after `after` (none: from its first), oldest first, at most `limit`, with the position of the
 * last one (`after` itself when nothing new is ready).
 */
export async function companyLogAfter(
  db: Db,
  companyId: number,
  after: LogPosition | undefined,
  limit: number,
): Promise<{ data: EcsDocument[]; last: LogPosition; hayMas: boolean }> {
  const from = after ?? { xid: 0, id: 0 };
  const rows = await rowsOf<Row>(
    db,
    sql`SELECT a.id::text AS id, a.xid::text AS xid, a.actor_id, a.actor_email, u.role AS actor_role, a.action,
          a.target_type, a.target_id, a.details, a.request_id, a.company_id, c.name AS company_name, a.created_at
        FROM audit_log a
        JOIN companies c ON c.id = a.company_id
        LEFT JOIN users u ON u.id = a.actor_id
        WHERE a.company_id = ${companyId}
          AND a.xid < pg_snapshot_xmin(pg_current_snapshot())
          AND (a.xid, a.id) > (${String(from.xid)}::xid8, ${from.id}::bigint)
        ORDER BY a.xid, a.id
        LIMIT ${limit + 1}`,
  );
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    data: page.map(ecsDocument),
    last: last ? { xid: Number(last.xid), id: Number(last.id) } : (after ?? start),
    hayMas: rows.length > limit,
  };
}

/**
 * `GET /empresas/:id/auditoria?formato=ecs`: the company's entries after the cursor `desde` (none: from the first), and
 * the cursor to go on from: the last document's, or the one sent when nothing new is ready (a collector asks again
 * with it). A cursor the portal did not give for this company is the Spanish 400 INVALID_CURSOR.
 */
export async function companyFeed(
  db: Db,
  cursorKey: Buffer,
  companyId: number,
  desde: string | undefined,
  limit: number,
): Promise<{ data: EcsDocument[]; siguiente: string; hayMas: boolean }> {
  const after = desde === undefined ? undefined : openedCursor(cursorKey, companyId, desde);
  const page = await companyLogAfter(db, companyId, after, limit);
  return {
    data: page.data,
    siguiente: desde !== undefined && page.data.length === 0 ? desde : sealedCursor(cursorKey, companyId, page.last),
    hayMas: page.hayMas,
  };
}
