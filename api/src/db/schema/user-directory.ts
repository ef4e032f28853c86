import { bigint, date, integer, pgTable, primaryKey, smallint, text } from 'drizzle-orm/pg-core';
import { userStatuses } from './accounts.js';

// Counts kept by triggers on `users` for the admin user list; never written by the API.

/**
 * Migration 0009: how many users have each status and role, kept by triggers on `users` in the
 * same transaction as the change; a pair is split over 16 rows by the writing connection (`pg_backend_pid() % 16`) so
 * that concurrent sign-ups do not queue on one row. Read by summing; never written by the API.
 */
export const userCounts = pgTable(
  'user_counts',
  {
    status: text('status', { enum: userStatuses }).notNull(),
    role: integer('role').notNull(),
    shard: smallint('shard').notNull(),
    n: bigint('n', { mode: 'number' }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.status, table.role, table.shard] })],
);

/**
 * Migration 0014: how many users have each status per day of sign-up (UTC), kept by triggers on
 * `users` like user_counts (16 rows by writing connection, read by summing): where a page number of the user list
 * starts (domain/user-directory/queries.ts). Never written by the API.
 */
export const userDayCounts = pgTable(
  'user_day_counts',
  {
    status: text('status', { enum: userStatuses }).notNull(),
    day: date('day').notNull(),
    shard: smallint('shard').notNull(),
    n: bigint('n', { mode: 'number' }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.status, table.day, table.shard] })],
);

/**
 * Migration 0013: how many users were deleted or changed their email, kept by triggers on `users`
 * like user_counts (16 rows by writing connection, read by summing): what the email search's sample may have lost
 * since it was taken (domain/user-directory/email-search.ts). Never written by the API.
 */
export const userEmailRemovals = pgTable('user_email_removals', {
  shard: smallint('shard').primaryKey(),
  n: bigint('n', { mode: 'number' }).notNull(),
});
