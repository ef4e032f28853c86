import { boolean, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.js';
import { users } from './accounts.js';
import { companies } from './companies.js';

// A company's own provider (OpenID Connect or SAML) and the accounts linked through it.

export type ConnectionProtocol = 'oidc' | 'saml';

/**
 * Migrations 0023 and 0030: a company's provider, OpenID Connect (the client secret sealed,
 * domain/companies/sso/secret.ts) or SAML (`issuer` is the IdP's entity ID, `samlMetadata` its metadata).
 */
export const companyIdentityProviders = pgTable('company_identity_providers', {
  companyId: integer('company_id')
    .primaryKey()
    .references(() => companies.id, { onDelete: 'cascade' }),
  protocol: text('protocol').$type<ConnectionProtocol>().notNull().default('oidc'),
  issuer: text('issuer').notNull(),
  clientId: text('client_id'),
  clientSecretSealed: text('client_secret_sealed'),
  samlMetadata: text('saml_metadata'),
  samlMetadataUrl: text('saml_metadata_url'),
  samlMetadataReadAt: timestamp('saml_metadata_read_at', { withTimezone: true }),
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

/** Migration 0030: an AuthnRequest sent to a company's SAML IdP, waiting for its response (the tab's binding). */
export const samlRequests = pgTable('saml_requests', {
  id: text('id').primaryKey(),
  companyId: integer('company_id')
    .notNull()
    .references(() => companies.id, { onDelete: 'cascade' }),
  binding: text('binding').notNull(),
  redirectUrl: text('redirect_url'),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});

/** Migration 0030: the SAML assertions already used, until they expire (the replay cache every instance shares). */
export const samlAssertionsUsed = pgTable(
  'saml_assertions_used',
  {
    issuer: text('issuer').notNull(),
    assertionId: text('assertion_id').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.issuer, table.assertionId] })],
);
