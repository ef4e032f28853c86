import { boolean, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.js';
import { users } from './accounts.js';
import { companies } from './companies.js';

// Sign-in with Google and Apple: linked identities and the bound one-time returns.

export const identityProviders = ['google', 'apple'] as const;
export type IdentityProvider = (typeof identityProviders)[number];

export const userIdentities = pgTable(
  'user_identities',
  {
    provider: text('provider', { enum: identityProviders }).notNull(),
    subject: text('subject').notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.provider, table.subject] }),
    index('user_identities_user_id_idx').on(table.userId),
  ],
);

/** Migration 0015: Google/Apple returns to the portal (id = SHA-256 hex of the one-time code; binding = the tab's). */
export const signInReturns = pgTable(
  'sign_in_returns',
  {
    id: text('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    binding: text('binding').notNull(),
    /** Migration 0033: the sign-in method the session it becomes records ('google', 'apple', 'empresa'). */
    method: text('method'),
    /** Migration 0047: the company's provider proved a second factor that the company trusts (decision 0144). */
    secondFactor: boolean('second_factor').notNull().default(false),
    /** Migration 0050: for a company sign-in, the company whose provider it was (the session records it). */
    ssoCompanyId: integer('sso_company_id').references(() => companies.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('sign_in_returns_expires_at_idx').on(table.expiresAt)],
);
