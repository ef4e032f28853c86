import { and, desc, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.js';
import { currentRequestId } from '../../lib/request-scope.js';
import { apps, auditLog, companies, connectedApps, oidcClients, samlApps, users } from '../../db/schema.js';
import type { AuditAction } from './actions.js';

export { type AuditAction, auditActions } from './actions.js';

/** What an audit row is about: a person, a catalogue app, an OpenID Connect client or a customer company. */
export type AuditTargetType = 'user' | 'app' | 'oidc_client' | 'company' | 'saml_app';

export interface AuditEntry {
  action: AuditAction;
  target: { type: AuditTargetType; id: number };
  details?: Record<string, unknown>;
  /** The company the change is about: that company's administrators read the entry (GET /empresas/:id/auditoria). */
  companyId?: number;
}

/** Who did it: a signed-in administrator (its token), or the operator's command (`src/cli/admin.ts`), which has no account. */
export interface AuditActor {
  user: { id: number | null; email: string };
  /** What every row this actor writes carries beside the change's own details (a setup link: itself and the address). */
  details?: Record<string, unknown>;
  /** Where its entries come from, for an actor with no account that says so (the operator's command, the directory). */
  origen?: AuditSource;
}

/** The operator at the server's console (`npm run admin`): no account, so no id; this text stands for the email. */
export const operatorActor: AuditActor = { user: { id: null, email: 'operador (CLI)' }, origen: 'consola' };

/** The API deciding by itself (a sign-in lock): no person behind it. */
export const systemActor: AuditActor = { user: { id: null, email: 'sistema' } };
/**
 * Who a company's directory's own changes are written by (its group rules giving and taking seats); the database
 * writes the roles its groups give as the same actor (`directory_audit_actor()`, migration 0058).
 */
export const directoryActor: AuditActor = {
  user: { id: null, email: 'directorio (SCIM)' },
  details: { fuente: 'directorio' },
  origen: 'scim',
};

/**
 * The actor as the database's one writer of the log takes it (`audit_write()`, migration 0058), with the id of the
 * request it acts in: `{ actorId, actorEmail, details, requestId, origen }`.
 */
export function auditActorJson(actor: AuditActor): string {
  return JSON.stringify({
    actorId: actor.user.id,
    actorEmail: actor.user.email,
    details: actor.details ?? {},
    requestId: currentRequestId() ?? null,
    ...(actor.origen && { origen: actor.origen }),
  });
}

/**
 * Writes audit rows for what `actor` just did, with the id of the request that did it, through the log's one writer
 * (`audit_write()`, which also decides each entry's `origen`). Call it with the same `db` (or transaction) as the change
 * itself, so that a change is never on record without having happened, nor the other way round.
 */
export async function recordAudit(db: Db, actor: AuditActor, entries: AuditEntry[]): Promise<void> {
  if (entries.length === 0) return;
  const rows = entries.map((entry) => ({
    action: entry.action,
    targetType: entry.target.type,
    targetId: entry.target.id,
    details: entry.details ?? {},
    companyId: entry.companyId ?? null,
  }));
  await db.execute(sql`SELECT audit_write(${auditActorJson(actor)}::jsonb, ${JSON.stringify(rows)}::jsonb)`);
}

/** Why a seat was taken back, as the roles it took with it say (`motivo`). */
export type SeatEndCause = 'puesto_retirado' | 'miembro_retirado' | 'baja_directorio' | 'grupo_directorio';

/**
 * Who the database's own writers of the log name for what the rest of this transaction changes, and why: a seat taken
 * back takes its roles, and trigger `company_seats_app_roles` writes that (migration 0054). Lasts until the
 * transaction ends; without it the entry is the portal's own ('sistema').
 */
export async function auditCause(tx: Db, actor: AuditActor, motivo: SeatEndCause): Promise<void> {
  const cause = { ...JSON.parse(auditActorJson(actor)), motivo };
  await tx.execute(sql`SELECT set_config('portal.audit_cause', ${JSON.stringify(cause)}, true)`);
}

export interface AuditQuery {
  page: number;
  limit: number;
  action?: AuditAction;
  targetType?: AuditTargetType;
  targetId?: number;
  /** Only the entries about this company (what its administrators may read). */
  companyId?: number;
}

const targetUser = alias(users, 'target_user');
const clientApp = alias(connectedApps, 'client_app');
const samlApp = alias(connectedApps, 'saml_app');

/**
 * Where a company's entry came from, as its activity log says it (`origen`), decided when the entry is written
 * (`audit_source()`, migration 0058): the change's own `fuente` when it has one (its directory, its provider, an
 * administrator's connection, its IT through a setup link), else who made it: the operator's command, the directory,
 * the portal by itself (a lock, a paused destination: `sistema`), the platform, the person themselves (an invitation
 * accepted, a join by domain), or the company's owners and administrators.
 */
export type AuditSource =
  | 'scim'
  | 'proveedor'
  | 'administrador'
  | 'enlace'
  | 'plataforma'
  | 'persona'
  | 'consola'
  | 'sistema';

/** The audit log, newest first, with the target's current email or app name for reading. */
export async function listAudit(db: Db, query: AuditQuery) {
  const where = and(
    query.action ? eq(auditLog.action, query.action) : undefined,
    query.targetType ? eq(auditLog.targetType, query.targetType) : undefined,
    query.targetId ? eq(auditLog.targetId, query.targetId) : undefined,
    query.companyId ? eq(auditLog.companyId, query.companyId) : undefined,
  );
  const [totals] = await db
    .select({ value: sql<number>`count(*)`.mapWith(Number) })
    .from(auditLog)
    .where(where);
  const rows = await db
    .select({
      id: auditLog.id,
      actorId: auditLog.actorId,
      actorEmail: auditLog.actorEmail,
      action: auditLog.action,
      targetType: auditLog.targetType,
      targetId: auditLog.targetId,
      userEmail: targetUser.email,
      appName: apps.nombre,
      clientName: clientApp.name,
      companyName: companies.name,
      samlAppName: samlApp.name,
      details: auditLog.details,
      createdAt: auditLog.createdAt,
      origen: auditLog.origen,
    })
    .from(auditLog)
    .leftJoin(targetUser, and(eq(auditLog.targetType, 'user'), eq(targetUser.id, auditLog.targetId)))
    .leftJoin(apps, and(eq(auditLog.targetType, 'app'), eq(apps.id, auditLog.targetId)))
    .leftJoin(oidcClients, and(eq(auditLog.targetType, 'oidc_client'), eq(oidcClients.id, auditLog.targetId)))
    .leftJoin(clientApp, eq(clientApp.id, oidcClients.connectedAppId))
    .leftJoin(companies, and(eq(auditLog.targetType, 'company'), eq(companies.id, auditLog.targetId)))
    .leftJoin(samlApps, and(eq(auditLog.targetType, 'saml_app'), eq(samlApps.id, auditLog.targetId)))
    .leftJoin(samlApp, eq(samlApp.id, samlApps.connectedAppId))
    .where(where)
    .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
    .limit(query.limit)
    .offset((query.page - 1) * query.limit);

  const total = totals?.value ?? 0;
  const totalPages = Math.ceil(total / query.limit);
  const data = rows.map(({ createdAt, userEmail, appName, clientName, companyName, samlAppName, origen, ...row }) => ({
    ...row,
    targetLabel:
      {
        user: userEmail,
        app: appName,
        oidc_client: clientName,
        company: companyName,
        saml_app: samlAppName,
      }[row.targetType] ?? null,
    createdAt: createdAt.toISOString(),
    // A company's log says where each change came from; the platform's log has no such column.
    ...(query.companyId && { origen: origen as AuditSource }),
  }));
  return { data, total, totalPages, currentPage: query.page, hasNextPage: query.page < totalPages, count: data.length };
}
