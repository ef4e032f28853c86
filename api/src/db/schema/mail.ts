import { integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';

// The outbox of mails to send.

export const mailOutbox = pgTable('mail_outbox', {
  id: serial('id').primaryKey(),
  recipient: text('recipient').notNull(),
  subject: text('subject').notNull(),
  textBody: text('text_body').notNull(),
  htmlBody: text('html_body').notNull(),
  attempts: integer('attempts').notNull().default(0),
  nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull(),
  lockedUntil: timestamp('locked_until', { withTimezone: true }),
  /** The instance whose claim `lockedUntil` is (a random id per process): only it renews and releases the claim. */
  claimedBy: text('claimed_by'),
  lastError: text('last_error'),
  sentAt: timestamp('sent_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  /** Migration 0019: the request that queued it, named in the mail's log lines; null from the operator's command. */
  requestId: text('request_id'),
});
