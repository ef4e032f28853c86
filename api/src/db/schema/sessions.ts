import { boolean, index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.js';
import { users } from './accounts.js';
import { companies } from './companies.js';

// Portal sessions and the revoked tokens checked at every request.

export const revokedTokens = pgTable(
  'revoked_tokens',
  {
    jti: text('jti').primaryKey(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('revoked_tokens_expires_at_idx').on(table.expiresAt)],
);

/**
 * Why a trusted device was ended (migration 0052): removed by the person, a factor removed, 'Cerrar otras sesiones',
 * and, by trigger `users_trusted_devices_end`, the password, a suspension, the role or the account's sessions ended.
 */
export const trustedDeviceEndReasons = [
  'quitado',
  'factor_quitado',
  'sesiones_cerradas',
  'contrasena',
  'suspension',
  'rol',
  'cuenta',
] as const;
export type TrustedDeviceEndReason = (typeof trustedDeviceEndReasons)[number];

/**
 * Migration 0047: a browser trusted for 30 days not to be asked the second step (docs/decisions/0143-trusted-devices.md);
 * `tokenHash` the SHA-256 hex of the cookie's random id, `tokenVersion` the account's when it was trusted. Migration
 * 0052: an ended one keeps its row, and why, until its cookie is gone (decision 0151).
 */
export const trustedDevices = pgTable(
  'trusted_devices',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    tokenVersion: integer('token_version').notNull(),
    label: text('label').notNull(),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    endReason: text('end_reason').$type<TrustedDeviceEndReason>(),
  },
  (table) => [index('trusted_devices_user_id_idx').on(table.userId, table.createdAt)],
);

/**
 * Migration 0008: one row per portal session (its id is the token's `jti`). Ended rows are kept: they are the
 * devices already seen, which decide the 'Nuevo inicio de sesión' mail.
 */
export const sessions = pgTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    device: text('device').notNull(),
    browser: text('browser').notNull(),
    os: text('os').notNull(),
    address: text('address').notNull(),
    tokenVersion: integer('token_version').notNull(),
    createdAt: createdAt(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    /** Migration 0010: the sign-in proved a second factor (TOTP, recovery code or passkey), or one was set up in it. */
    secondFactor: boolean('second_factor').notNull().default(false),
    /** Migration 0033: how the session was signed in ('contrasena', 'google', 'apple', 'llave', 'empresa'); NULL before. */
    method: text('method'),
    /** Migration 0047: the trusted device that let this session in without the second step (it proved no factor). */
    trustedDeviceId: integer('trusted_device_id').references(() => trustedDevices.id, { onDelete: 'set null' }),
    /** Migration 0050: the company whose own provider signed this session in (method 'empresa'); null otherwise. */
    ssoCompanyId: integer('sso_company_id').references(() => companies.id, { onDelete: 'set null' }),
  },
  (table) => [index('sessions_user_id_idx').on(table.userId, table.createdAt)],
);
