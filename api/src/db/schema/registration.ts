import { index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './accounts.js';

/** Migration 0006: each registration of a still pending email, with the password and profile typed in it. */
export const pendingRegistrations = pgTable(
  'pending_registrations',
  {
    id: text('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    passwordHash: text('password_hash').notNull(),
    name: text('name').notNull(),
    lastName: text('last_name').notNull(),
    phone: text('phone').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('pending_registrations_user_id_idx').on(table.userId, table.createdAt)],
);
