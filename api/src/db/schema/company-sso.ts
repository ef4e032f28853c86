import { boolean, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.js';
import { users } from './accounts.js';
import { companies } from './companies.js';

// A company's own OpenID Connect provider and the accounts linked through it.

/** Migration 0023: a company's OpenID Connect provider; the client secret sealed (domain/companies/sso/secret.ts). */
export const companyIdentityProviders = pgTable('company_identity_providers', {
  companyId: integer('company_id')
    .primaryKey()
    .references(() => companies.id, { onDelete: 'cascade' }),
  issuer: text('issuer').notNull(),
  clientId: text('client_id').notNull(),
  clientSecretSealed: text('client_secret_sealed').notNull(),
  allowPassword: boolean('allow_password').notNull().default(true),
  lastError: text('last_error'),
  lastErrorAt: timestamp('last_error_at', { withTimezone: true }),
  lastSignInAt: timestamp('last_sign_in_at', { withTimezone: true }),
  createdAt: createdAt(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Migration 0023: the proved domains a company's provider answers for (one company per domain). */
export const companySignInDomains = pgTable(
  'company_sign_in_domains',
  {
    companyId: integer('company_id')
      .notNull()
      .references(() => companyIdentityProviders.companyId, { onDelete: 'cascade' }),
    domain: text('domain').notNull(),
  },
  (table) => [primaryKey({ columns: [table.companyId, table.domain] })],
);

/** Migration 0023: a person of a company's provider (its `sub`) linked to a portal account. */
export const companyIdentities = pgTable(
  'company_identities',
  {
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    subject: text('subject').notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.companyId, table.subject] })],
);

/** Migration 0023: a company sign-in waiting for the person to sign in to their existing account (id = SHA-256 hex). */
export const companyLinkReturns = pgTable('company_link_returns', {
  id: text('id').primaryKey(),
  companyId: integer('company_id')
    .notNull()
    .references(() => companies.id, { onDelete: 'cascade' }),
  subject: text('subject').notNull(),
  userId: integer('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  email: text('email').notNull(),
  binding: text('binding').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});
