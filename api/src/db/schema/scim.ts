import { bigserial, boolean, integer, pgTable, primaryKey, serial, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.js';
import { users } from './accounts.js';
import { apps } from './apps-and-plans.js';
import { companies } from './companies.js';

// A company directory's SCIM 2.0: tokens, the User resources and the request log.

/** Migration 0023: a company directory's SCIM bearer token, kept as its SHA-256 (hex). */
export const companyScimTokens = pgTable('company_scim_tokens', {
  id: serial('id').primaryKey(),
  companyId: integer('company_id')
    .notNull()
    .references(() => companies.id, { onDelete: 'cascade' }),
  tokenHash: text('token_hash').notNull().unique(),
  prefix: text('prefix').notNull(),
  description: text('description').notNull().default(''),
  createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
  createdAt: createdAt(),
  lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  revokedAt: timestamp('revoked_at', { withTimezone: true }),
});

/** Migration 0023: a person as a company's directory knows them (the SCIM User resource). */
export const companyScimUsers = pgTable('company_scim_users', {
  id: uuid('id').primaryKey().defaultRandom(),
  companyId: integer('company_id')
    .notNull()
    .references(() => companies.id, { onDelete: 'cascade' }),
  userId: integer('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  userName: text('user_name').notNull(),
  externalId: text('external_id'),
  givenName: text('given_name').notNull().default(''),
  familyName: text('family_name').notNull().default(''),
  displayName: text('display_name').notNull().default(''),
  active: boolean('active').notNull().default(true),
  version: integer('version').notNull().default(1),
  createdAt: createdAt(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Migration 0023: a company's last directory requests, for its administrators. */
export const companyScimRequests = pgTable('company_scim_requests', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  companyId: integer('company_id')
    .notNull()
    .references(() => companies.id, { onDelete: 'cascade' }),
  method: text('method').notNull(),
  path: text('path').notNull(),
  status: integer('status').notNull(),
  detail: text('detail').notNull().default(''),
  userName: text('user_name'),
  createdAt: createdAt(),
});

/** Migration 0035: a group as a company's directory knows it (the SCIM Group resource). */
export const companyScimGroups = pgTable('company_scim_groups', {
  id: uuid('id').primaryKey().defaultRandom(),
  companyId: integer('company_id')
    .notNull()
    .references(() => companies.id, { onDelete: 'cascade' }),
  displayName: text('display_name').notNull(),
  externalId: text('external_id'),
  version: integer('version').notNull().default(1),
  createdAt: createdAt(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Migration 0035: a member of a directory group (one of the company's SCIM users); `seq` is the order they joined in. */
export const companyScimGroupMembers = pgTable(
  'company_scim_group_members',
  {
    groupId: uuid('group_id')
      .notNull()
      .references(() => companyScimGroups.id, { onDelete: 'cascade' }),
    scimUserId: uuid('scim_user_id')
      .notNull()
      .references(() => companyScimUsers.id, { onDelete: 'cascade' }),
    seq: bigserial('seq', { mode: 'number' }).notNull(),
    joinedAt: timestamp('joined_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.groupId, table.scimUserId] })],
);

export const groupRuleRoles = ['administrador', 'miembro'] as const;
export type GroupRuleRole = (typeof groupRuleRoles)[number];

/** Migration 0035: a company's rule: whoever is in the group holds a seat of the app and/or the role. */
export const companyGroupRules = pgTable('company_group_rules', {
  id: serial('id').primaryKey(),
  companyId: integer('company_id')
    .notNull()
    .references(() => companies.id, { onDelete: 'cascade' }),
  groupName: text('group_name').notNull(),
  groupId: uuid('group_id').references(() => companyScimGroups.id, { onDelete: 'set null' }),
  appId: integer('app_id').references(() => apps.id, { onDelete: 'cascade' }),
  role: text('role', { enum: groupRuleRoles }),
  /** Migration 0044: the app's roles the group's members holding its seat have (docs/decisions/0136). */
  rolesApp: text('roles_app').array().notNull().default([]),
  createdAt: createdAt(),
});
