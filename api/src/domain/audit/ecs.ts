// A company's activity log as a SIEM reads it (docs/decisions/0127-activity-log-as-ecs.md, docs/registro-para-siem.md):
// one JSON document per entry with Elastic Common Schema names, read page after page by a cursor that never skips an
// entry: in the order of their places in the company's stream, given after they committed (positions.ts, decision
// 0162), so a place a reader has passed is never given to an entry later.
import { and, eq, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client.js';
import { auditPositions, auditUnpositioned } from '../../db/schema.js';
import { HttpError } from '../../lib/errors.js';
import { seal, unseal } from '../../lib/sealed.js';
import { decodeCursor, encodeCursor } from '../key-cursor.js';
import type { AuditAction } from './actions.js';
import type { AuditSource } from './log.js';
import { auditMessages as M } from './messages.js';

/** The Elastic Common Schema version the documents follow. */
export const ecsVersion = '8.17.0';

type Category = 'authentication' | 'configuration' | 'iam' | 'session';
/** The types ECS expects with those categories (authentication and session: start, end, info; iam; configuration). */
type EventType = 'access' | 'admin' | 'change' | 'creation' | 'deletion' | 'end' | 'group' | 'info' | 'start' | 'user';

const c = (category: Category, ...type: EventType[]) => ({ category: [category], type });

/** Each action's ECS categorization: `event.category` and `event.type`, lists of ECS's allowed values. */
const categorization: Record<AuditAction, { category: Category[]; type: EventType[] }> = {
  'user.verify': c('iam', 'user', 'change'),
  'user.status_change': c('iam', 'user', 'change'),
  'user.plan_change': c('iam', 'user', 'change'),
  'user.edit': c('iam', 'user', 'change'),
  'user.create': c('iam', 'user', 'creation'),
  'user.password_reset': c('iam', 'user', 'change'),
  'app.create': c('configuration', 'creation'),
  'app.update': c('configuration', 'change'),
  'app.role_create': c('iam', 'admin', 'creation'),
  'app.role_update': c('iam', 'admin', 'change'),
  'app.role_delete': c('iam', 'admin', 'deletion'),
  'user.app_roles_change': c('iam', 'user', 'change'),
  'auth.lockout': c('authentication', 'info'),
  'auth.sign_in_failure': c('authentication', 'start'),
  'auth.second_factor_failure': c('authentication', 'start'),
  'auth.sign_in_refused': c('authentication', 'start'),
  'user.session_end': c('session', 'end'),
  'oidc_client.create': c('configuration', 'creation'),
  'oidc_client.update': c('configuration', 'change'),
  'oidc_client.rotate_secret': c('configuration', 'change'),
  'oidc_client.delete': c('configuration', 'deletion'),
  'oidc_client.subscription_create': c('configuration', 'creation'),
  'oidc_client.subscription_delete': c('configuration', 'deletion'),
  'oidc_client.subscription_rotate_secret': c('configuration', 'change'),
  'oidc_client.subscription_disabled': c('configuration', 'change'),
  'oidc_client.delivery_resend': c('configuration', 'info'),
  'oidc.backchannel_logout': c('session', 'end'),
  'saml_app.create': c('configuration', 'creation'),
  'saml_app.update': c('configuration', 'change'),
  'saml_app.delete': c('configuration', 'deletion'),
  'saml_app.subscription_create': c('configuration', 'creation'),
  'saml_app.subscription_delete': c('configuration', 'deletion'),
  'saml_app.subscription_rotate_secret': c('configuration', 'change'),
  'saml_app.subscription_disabled': c('configuration', 'change'),
  'saml_app.delivery_resend': c('configuration', 'info'),
  'saml.logout': c('session', 'end'),
  'company.create': c('configuration', 'creation'),
  'company.rename': c('configuration', 'change'),
  'company.status_change': c('configuration', 'change'),
  'company.settings_change': c('configuration', 'change'),
  'company.licence_create': c('configuration', 'creation'),
  'company.licence_update': c('configuration', 'change'),
  'company.member_add': c('iam', 'group', 'change'),
  'company.member_role_change': c('iam', 'user', 'change'),
  'company.member_remove': c('iam', 'group', 'change'),
  'company.member_approve': c('iam', 'group', 'change'),
  'company.invitation_create': c('iam', 'user', 'creation'),
  'company.invitation_resend': c('iam', 'user', 'info'),
  'company.invitation_revoke': c('iam', 'user', 'deletion'),
  'company.invitation_accept': c('iam', 'group', 'change'),
  'company.invitation_decline': c('iam', 'user', 'info'),
  'company.domain_add': c('configuration', 'creation'),
  'company.domain_verify': c('configuration', 'change'),
  'company.domain_remove': c('configuration', 'deletion'),
  'company.seat_assign': c('iam', 'user', 'change'),
  'company.seat_remove': c('iam', 'user', 'change'),
  'company.app_roles_change': c('iam', 'user', 'change'),
  'company.provider_update': c('configuration', 'change'),
  'company.provider_remove': c('configuration', 'deletion'),
  'company.sign_in': c('authentication', 'start'),
  'company.identity_link': c('iam', 'user', 'change'),
  'company.scim_token_create': c('configuration', 'creation'),
  'company.scim_token_revoke': c('configuration', 'deletion'),
  'company.scim_token_refused': c('authentication', 'start'),
  'company.member_provision': c('iam', 'user', 'creation'),
  'company.member_update': c('iam', 'user', 'change'),
  'company.member_deprovision': c('iam', 'user', 'deletion'),
  'company.setup_link_create': c('configuration', 'creation'),
  'company.setup_link_revoke': c('configuration', 'deletion'),
  'company.setup_link_use': c('configuration', 'access'),
  'company.group_create': c('iam', 'group', 'creation'),
  'company.group_update': c('iam', 'group', 'change'),
  'company.group_delete': c('iam', 'group', 'deletion'),
  'company.group_rule_create': c('configuration', 'creation'),
  'company.group_rule_delete': c('configuration', 'deletion'),
  'company.audit_stream_create': c('configuration', 'creation'),
  'company.audit_stream_update': c('configuration', 'change'),
  'company.audit_stream_delete': c('configuration', 'deletion'),
  'company.audit_stream_paused': c('configuration', 'change'),
};

/** Entries that tell of something refused or failed: `event.outcome: failure`. */
const failures: ReadonlySet<string> = new Set<AuditAction>([
  'auth.lockout',
  'auth.sign_in_failure',
  'auth.second_factor_failure',
  'auth.sign_in_refused',
  'company.scim_token_refused',
]);

/** An email address, as `user.email` may carry (never 'sistema', 'directorio (SCIM)' or a setup link's name). */
const address = /^[^\s@]+@[^\s@]+$/;

/** What no document carries, whatever an entry's details hold: credentials and one-time values. */
const secretKey = /secret|secreto|token|password|contrasena|contraseña|clave|codigo|código|hash/i;

/** One entry as its ECS document. */
export interface EcsDocument {
  '@timestamp': string;
  ecs: { version: string };
  event: {
    id: string;
    action: string;
    category: string[];
    type: string[];
    outcome: 'success' | 'failure';
    kind: 'event';
    dataset: 'portal.audit';
  };
  /** Who did it; for a sign-in, the account signing in. `target`: the person a change was made to. */
  user?: { id?: string; email?: string; target?: { id?: string; email?: string } };
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
  position: string;
  actor_id: number | null;
  actor_email: string;
  origen: AuditSource;
  target_email: string | null;
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
  return failures.has(action) || details.resultado === 'fallido' ? 'failure' : 'success';
}

/** A person as ECS names one: the id and the email when it is an address; nothing when neither is known. */
function person(id: number | string | null | undefined, email: unknown) {
  const known = {
    ...(id === null || id === undefined ? {} : { id: String(id) }),
    ...(typeof email === 'string' && address.test(email) ? { email } : {}),
  };
  return Object.keys(known).length > 0 ? known : undefined;
}

/** The address an entry keeps (a lock's, a session's, a setup link's caller's). */
function sourceAddress(details: Record<string, unknown>): string | undefined {
  for (const key of ['address', 'ip', 'direccion']) if (typeof details[key] === 'string') return details[key];
  return undefined;
}

export function ecsDocument(row: Row): EcsDocument {
  const details = row.details ?? {};
  const ip = sourceAddress(details);
  const { category, type } = Object.hasOwn(categorization, row.action)
    ? categorization[row.action as AuditAction]
    : c('configuration', 'info');
  // The person a change was made to: the entry's target, or the member its details name.
  const target =
    row.target_type === 'user'
      ? person(row.target_id, row.target_email)
      : person(details.userId as number | undefined, details.email);
  // A sign-in's user is the account signing in, whoever wrote the entry.
  const user =
    category.includes('authentication') && row.target_type === 'user' ? target : person(row.actor_id, row.actor_email);
  const withTarget = target && !category.includes('authentication') ? { ...user, target } : user;
  return {
    '@timestamp': new Date(row.created_at).toISOString(),
    ecs: { version: ecsVersion },
    event: {
      id: String(row.id),
      action: row.action,
      category,
      type,
      outcome: outcomeOf(row.action, details),
      kind: 'event',
      dataset: 'portal.audit',
    },
    ...(withTarget ? { user: withTarget } : {}),
    ...(ip ? { source: { ip } } : {}),
    organization: { id: String(row.company_id), name: row.company_name },
    portal: {
      origen: row.origen,
      objetivo: { tipo: row.target_type, id: row.target_id },
      detalles: withoutSecrets(details) as Record<string, unknown>,
      ...(row.request_id ? { requestId: row.request_id } : {}),
    },
  };
}

/**
 * Where a reader of a company's log got to: the place of the last entry it read (0: before the first). A position
 * kept or handed out before migration 0057 named that entry itself (`entry`, with its transaction): it reads as the
 * entry's place, which the migration gave in the order those positions were read.
 */
export type LogPosition = { position: number } | { entry: number };

/** A position as a destination keeps it (`audit_streams.cursor`); never handed out. */
export const positionText = (position: { position: number }) => encodeCursor([position.position]);

/** A kept position, or the 400 INVALID_CURSOR for text that is none. */
export function positionOf(text: string): LogPosition {
  try {
    const [position = 0] = decodeCursor(text, 1, Number.MAX_SAFE_INTEGER, 0);
    return { position };
  } catch {
    // Before migration 0057: the writing transaction (1 before every entry) and the entry's id.
    const [xid = 0, entry = 0] = decodeCursor(text, 2, Number.MAX_SAFE_INTEGER);
    return xid === 1 ? { position: 0 } : { entry };
  }
}

/** The place `after` stands for in the company's stream (an entry of another company's is no position of this one). */
async function placeOf(db: Db, companyId: number, after: LogPosition | undefined): Promise<number> {
  if (after === undefined) return 0;
  if ('position' in after) return after.position;
  const [row] = await db
    .select({ position: auditPositions.position })
    .from(auditPositions)
    .where(and(eq(auditPositions.entryId, after.entry), eq(auditPositions.companyId, companyId)));
  if (!row) throw invalidCursor();
  return Number(row.position);
}

const invalidCursor = () => new HttpError(400, M.invalidCursor, 'INVALID_CURSOR');
const cursorOf = (companyId: number) => `audit-cursor:${companyId}`;

/**
 * A position as a collector holds it: sealed with the API's key for this company, so it shows nothing of the database
 * (how many entries every company wrote) and only a cursor the portal gave, for this company, opens.
 */
const sealedCursor = (key: Buffer, companyId: number, position: { position: number }) =>
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
): Promise<{ data: EcsDocument[]; last: { position: number }; hayMas: boolean }> {
  const from = await placeOf(db, companyId, after);
  const rows = await rowsOf<Row>(
    db,
    sql`SELECT a.id::text AS id, p.position::text AS position, a.actor_id, a.actor_email, a.origen, a.action,
          a.target_type, a.target_id, t.email AS target_email, a.details, a.request_id, a.company_id,
          c.name AS company_name, a.created_at
        FROM ${auditPositions} p
        JOIN audit_log a ON a.id = p.entry_id
        JOIN companies c ON c.id = p.company_id
        LEFT JOIN users t ON a.target_type = 'user' AND t.id = a.target_id
        WHERE p.company_id = ${companyId} AND p.position > ${from}
        ORDER BY p.position
        LIMIT ${limit + 1}`,
  );
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    data: page.map(ecsDocument),
    last: { position: last ? Number(last.position) : from },
    hayMas: rows.length > limit,
  };
}

/**
 * How many committed entries of the company come after `after` (those still waiting for their place too), and when
 * the oldest of them was written.
 */
export async function companyLogBehind(
  db: Db,
  companyId: number,
  after: LogPosition | undefined,
): Promise<{ entries: number; oldest: Date | null }> {
  const from = await placeOf(db, companyId, after);
  const [row] = await rowsOf<{ entries: number; oldest: Date | string | null }>(
    db,
    sql`SELECT count(*)::int AS entries, min(a.created_at) AS oldest
        FROM (SELECT entry_id FROM ${auditPositions} WHERE company_id = ${companyId} AND position > ${from}
              UNION ALL
              SELECT entry_id FROM ${auditUnpositioned} WHERE company_id = ${companyId}) w
        JOIN audit_log a ON a.id = w.entry_id`,
  );
  return { entries: Number(row?.entries ?? 0), oldest: row?.oldest ? new Date(row.oldest) : null };
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
