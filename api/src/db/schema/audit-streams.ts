import { bigint, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts.js';
import { createdAt } from './columns.js';
import { companies } from './companies.js';

// A company's activity log streamed to its own SIEM (domain/audit-streams/).

export const auditStreamKinds = ['syslog', 'https'] as const;
export type AuditStreamKind = (typeof auditStreamKinds)[number];
export const auditStreamStatuses = ['activo', 'pausado'] as const;
export type AuditStreamStatus = (typeof auditStreamStatuses)[number];

/** Where a destination sends, without its secret: a syslog receiver over TLS, or an HTTPS collector. */
export type AuditStreamSettings =
  | { host: string; puerto: number; ca: string | null; certificado: string | null }
  | { url: string; cabecera: string | null; formato: 'ndjson' | 'splunk-hec'; ca: string | null };

/** Migration 0046: a company's SIEM destination, how far it got in the company's log, and its retry state. */
export const auditStreams = pgTable(
  'audit_streams',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: auditStreamKinds }).notNull(),
    settings: jsonb('settings').$type<AuditStreamSettings>().notNull(),
    /** The HTTPS header's value or the syslog client key, sealed (lib/sealed.ts) and bound to the row. */
    secretSealed: text('secret_sealed'),
    status: text('status', { enum: auditStreamStatuses }).notNull().default('activo'),
    /** The company log's cursor (domain/audit/ecs.ts) after the last entry delivered; null: from the first. */
    cursor: text('cursor'),
    /** The place of the last entry sent (what `cursor` keeps), for the claim's question whether more is due. */
    sentPosition: bigint('sent_position', { mode: 'number' }),
    /** When the last delivered entry happened (its @timestamp), and when it was delivered. */
    deliveredUntil: timestamp('delivered_until', { withTimezone: true }),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    lastError: text('last_error'),
    /** The first failure of the tries failing since the last delivery: 24 h after it the destination pauses. */
    failingSince: timestamp('failing_since', { withTimezone: true }),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    /** The instance sending to this destination now, and until when its claim holds (renewed while it sends). */
    claimedBy: text('claimed_by'),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('audit_streams_company_idx').on(table.companyId)],
);
