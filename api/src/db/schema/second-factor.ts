import { bigint, boolean, index, integer, pgTable, serial, text, timestamp, unique } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.js';
import { users } from './accounts.js';
import { sessions } from './sessions.js';

// TOTP, recovery codes, passkeys and the sign-in tickets of the second step.

/** Migration 0010: WebAuthn credentials (passkeys), with the counter and backup flags checked at every use. */
export const passkeys = pgTable(
  'passkeys',
  {
    id: text('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** COSE public key, base64url. */
    publicKey: text('public_key').notNull(),
    counter: bigint('counter', { mode: 'number' }).notNull().default(0),
    transports: text('transports').array().notNull().default([]),
    deviceType: text('device_type').notNull(),
    backedUp: boolean('backed_up').notNull().default(false),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (table) => [index('passkeys_user_id_idx').on(table.userId, table.createdAt)],
);

/** Migration 0010: an account's TOTP authenticator; `lastStep` is the newest 30-second step accepted. */
export const totpFactors = pgTable('totp_factors', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  secret: text('secret').notNull(),
  confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
  lastStep: bigint('last_step', { mode: 'number' }).notNull().default(0),
  createdAt: createdAt(),
});

/** Migration 0010: single-use recovery codes, SHA-256 hex of the normalized code. */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (table) => [unique().on(table.userId, table.codeHash)],
);

/** Migration 0010: the second step of a password sign-in (id = SHA-256 hex of the ticket handed out). */
export const signInTickets = pgTable(
  'sign_in_tickets',
  {
    id: text('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    failures: integer('failures').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('sign_in_tickets_expires_at_idx').on(table.expiresAt)],
);

export const webauthnPurposes = ['register', 'sign_in'] as const;

/** Migration 0010: WebAuthn ceremonies in flight (id = SHA-256 hex of the ceremony id handed out). */
export const webauthnChallenges = pgTable(
  'webauthn_challenges',
  {
    id: text('id').primaryKey(),
    purpose: text('purpose', { enum: webauthnPurposes }).notNull(),
    challenge: text('challenge').notNull(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
    sessionId: text('session_id').references(() => sessions.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('webauthn_challenges_expires_at_idx').on(table.expiresAt)],
);
