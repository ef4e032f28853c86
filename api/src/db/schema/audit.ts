import { bigserial, customType, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { users } from './accounts.js';
import { createdAt } from './columns.js';
import { sql } from 'drizzle-orm';

// The audit log: who did what to whom, and when (domain/audit/).

/** A PostgreSQL `xid8` (a 64-bit transaction id), read as its decimal text. */
const xid8 = customType<{ data: string; driverData: string }>({ dataType: () => 'xid8' });

/** Migration 0004: every admin action, who did it to whom and when. */
export const auditLog = pgTable('audit_log', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  actorId: integer('actor_id').references(() => users.id, { onDelete: 'set null' }),
  actorEmail: text('actor_email').notNull(),
  action: text('action').notNull(),
  targetType: text('target_type', { enum: ['user', 'app', 'oidc_client', 'company', 'saml_app'] }).notNull(),
  targetId: integer('target_id').notNull(),
  details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
  /** Migration 0019: the request that wrote it (its X-Request-Id); null from the operator's command. */
  requestId: text('request_id'),
  /** Migration 0020: the company the entry is about, which that company's administrators read. */
  companyId: integer('company_id'),
  createdAt: createdAt(),
  /** Migration 0042: the transaction that wrote it (set by the database), the order a collector reads it in. */
  xid: xid8('xid').notNull().default(sql`pg_current_xact_id()`),
});
