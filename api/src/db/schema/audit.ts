import { bigint, bigserial, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { users } from './accounts.js';
import { createdAt } from './columns.js';

// The audit log: who did what to whom, and when (domain/audit/).

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
  /** Migration 0058: where the entry came from, decided when it was written (`audit_source()`). */
  origen: text('origen').notNull(),
});

/**
 * Migration 0057: each company entry's place in its company's stream, the order a collector reads it in; given after
 * the entry committed (domain/audit/positions.ts).
 */
export const auditPositions = pgTable('audit_positions', {
  entryId: bigint('entry_id', { mode: 'number' })
    .primaryKey()
    .references(() => auditLog.id, { onDelete: 'cascade' }),
  companyId: integer('company_id').notNull(),
  position: bigint('position', { mode: 'number' }).notNull(),
});

/** Migration 0057: a company's entries waiting for their place (trigger `audit_log_queued` writes them). */
export const auditUnpositioned = pgTable('audit_unpositioned', {
  entryId: bigint('entry_id', { mode: 'number' })
    .primaryKey()
    .references(() => auditLog.id, { onDelete: 'cascade' }),
  companyId: integer('company_id').notNull(),
});
