import {
  boolean,
  foreignKey,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  unique,
} from 'drizzle-orm/pg-core';
import { createdAt } from './columns.js';
import { users } from './accounts.js';
import { apps, plans } from './apps-and-plans.js';

// Customer companies: members, domains, licences, seats and invitations.

export const companyStatuses = ['active', 'suspended'] as const;
export type CompanyStatus = (typeof companyStatuses)[number];
export const companyRoles = ['propietario', 'administrador', 'miembro'] as const;
export type CompanyRole = (typeof companyRoles)[number];
export const memberStatuses = ['active', 'pending_approval'] as const;
export type MemberStatus = (typeof memberStatuses)[number];
/** How a person signed in, as the company rules and the sessions name it (migration 0033). */
export const signInMethods = ['contrasena', 'google', 'apple', 'llave', 'empresa'] as const;
export type SignInMethod = (typeof signInMethods)[number];
export const domainJoinModes = ['automatic', 'approval'] as const;
export type DomainJoinMode = (typeof domainJoinModes)[number];
export const seatSources = ['manual', 'directory'] as const;
export type SeatSource = (typeof seatSources)[number];

/** Migration 0020: customer companies (docs/decisions/0073-companies-and-seats.md). */
export const companies = pgTable('companies', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  status: text('status', { enum: companyStatuses }).notNull().default('active'),
  domainJoin: text('domain_join', { enum: domainJoinModes }).notNull().default('approval'),
  requireSecondFactor: boolean('require_second_factor').notNull().default(false),
  /** Migration 0033: the company's own rules for its members (domain/sign-in-limits/company-rules.ts). */
  allowedNetworks: text('allowed_networks').array().notNull().default([]),
  allowedMethods: text('allowed_methods', { enum: signInMethods })
    .array()
    .notNull()
    .default([...signInMethods]),
  sessionMaxHours: integer('session_max_hours'),
  idleMinutes: integer('idle_minutes'),
  /** Migration 0047: its members may trust a device for the second step (docs/decisions/0143-trusted-devices.md). */
  allowTrustedDevices: boolean('allow_trusted_devices').notNull().default(true),
  /** Migration 0047: its provider's own second factor counts as the portal's (decision 0144). */
  trustProviderSecondFactor: boolean('trust_provider_second_factor').notNull().default(false),
  createdAt: createdAt(),
  updatedAt: timestamp('updated_at', { withTimezone: true })
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date()),
});
export type Company = typeof companies.$inferSelect;

/** Migration 0020: a person in a company, with a role there. */
export const companyMembers = pgTable(
  'company_members',
  {
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role', { enum: companyRoles }).notNull(),
    status: text('status', { enum: memberStatuses }).notNull().default('active'),
    createdAt: createdAt(),
    /** Migration 0035: the role came from a directory group's rule. */
    roleFromDirectory: boolean('role_from_directory').notNull().default(false),
  },
  (table) => [
    primaryKey({ columns: [table.companyId, table.userId] }),
    index('company_members_user_id_idx').on(table.userId),
  ],
);

/** Migration 0020: an email domain a company claims; the company's once `verifiedAt` is set (one company per domain). */
export const companyDomains = pgTable(
  'company_domains',
  {
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    domain: text('domain').notNull(),
    verificationToken: text('verification_token').notNull(),
    verifiedAt: timestamp('verified_at', { withTimezone: true }),
    verifiedBy: text('verified_by', { enum: ['dns', 'admin'] }),
    createdAt: createdAt(),
  },
  (table) => [primaryKey({ columns: [table.companyId, table.domain] })],
);

/**
 * Migration 0020: seats of an app's plan sold to a company until an expiry, one licence per company and app.
 * `seatsInUse` is kept by a trigger on `company_seats`; never written by the API.
 */
export const companyLicences = pgTable(
  'company_licences',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    appId: integer('app_id')
      .notNull()
      .references(() => apps.id, { onDelete: 'cascade' }),
    planId: integer('plan_id').notNull(),
    seats: integer('seats').notNull(),
    seatsInUse: integer('seats_in_use').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** Migration 0025: the expiry already announced to partner apps (`plan.vencido`); written by the expiry job only. */
    expiryAnnounced: timestamp('expiry_announced', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true })
      .notNull()
      .defaultNow()
      .$onUpdate(() => new Date()),
  },
  (table) => [
    unique().on(table.companyId, table.appId),
    foreignKey({ columns: [table.planId, table.appId], foreignColumns: [plans.id, plans.appId] }).onDelete('cascade'),
  ],
);

/** Migration 0020: a member using one of the seats of the company's licence of an app. */
export const companySeats = pgTable(
  'company_seats',
  {
    companyId: integer('company_id').notNull(),
    userId: integer('user_id').notNull(),
    appId: integer('app_id').notNull(),
    assignedAt: timestamp('assigned_at', { withTimezone: true }).notNull().defaultNow(),
    /** Migration 0035: given by hand ('manual') or by a directory group's rule ('directory'). */
    source: text('source', { enum: seatSources }).notNull().default('manual'),
  },
  (table) => [
    primaryKey({ columns: [table.companyId, table.appId, table.userId] }),
    index('company_seats_user_id_idx').on(table.userId),
  ],
);

/** Migration 0020: an invitation to a company, mailed with a 6-digit code of which only the HMAC is kept. */
export const companyInvitations = pgTable('company_invitations', {
  id: serial('id').primaryKey(),
  companyId: integer('company_id')
    .notNull()
    .references(() => companies.id, { onDelete: 'cascade' }),
  email: text('email').notNull(),
  role: text('role', { enum: companyRoles }).notNull(),
  /** Migration 0043: the app whose seat the invitee gets on accepting, when the licence still has one free. */
  appId: integer('app_id').references(() => apps.id, { onDelete: 'set null' }),
  codeHash: text('code_hash').notNull(),
  attempts: integer('attempts').notNull().default(0),
  invitedBy: integer('invited_by').references(() => users.id, { onDelete: 'set null' }),
  sentAt: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  acceptedAt: timestamp('accepted_at', { withTimezone: true }),
  acceptedBy: integer('accepted_by').references(() => users.id, { onDelete: 'set null' }),
  revokedAt: timestamp('revoked_at', { withTimezone: true }),
  createdAt: createdAt(),
});

/** Migration 0022: the members of each company, kept by a trigger on `company_members`; never written by the API. */
export const companyMemberCounts = pgTable('company_member_counts', {
  companyId: integer('company_id')
    .primaryKey()
    .references(() => companies.id, { onDelete: 'cascade' }),
  n: integer('n').notNull().default(0),
});
