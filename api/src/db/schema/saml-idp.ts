import { bigserial, boolean, integer, pgTable, primaryKey, serial, text, timestamp, unique } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.js';
import { users } from './accounts.js';
import { type ConnectedAppFacts, connectedApps } from './identity-provider.js';

// The portal as a SAML identity provider (migration 0031, docs/decisions/0100-saml-identity-provider.md).

/** The NameID formats a SAML app may be given: persistent (opaque, per app) or its email when it asks only that. */
export const samlNameIdFormats = ['persistent', 'emailAddress'] as const;
export type SamlNameIdFormat = (typeof samlNameIdFormats)[number];

/** How a RequestedAuthnContext compares its classes (SAML Core 3.3.2.2.1); absent means exact. */
export const samlAuthnComparisons = ['exact', 'minimum', 'better', 'maximum'] as const;
export type SamlAuthnComparison = (typeof samlAuthnComparisons)[number];

/** A partner app registered by its service provider metadata; every address and key is read from that metadata. */
export const samlApps = pgTable('saml_apps', {
  id: serial('id').primaryKey(),
  /** Migration 0041: the app this service provider signs people into (its name and catalogue app). */
  connectedAppId: integer('connected_app_id')
    .notNull()
    .unique()
    .references(() => connectedApps.id, { onDelete: 'cascade' }),
  entityId: text('entity_id').notNull().unique(),
  metadata: text('metadata').notNull(),
  acsUrls: text('acs_urls').array().notNull(),
  /** Its SOAP SingleLogoutService: the back channel. */
  sloUrl: text('slo_url'),
  /** Its HTTP-Redirect SingleLogoutService: the browser's way, used when it publishes no SOAP one (migration 0038). */
  sloRedirectUrl: text('slo_redirect_url'),
  nameIdFormat: text('name_id_format', { enum: samlNameIdFormats }).notNull(),
  authnRequestsSigned: boolean('authn_requests_signed').notNull(),
  signingCertificates: text('signing_certificates').array().notNull(),
  subjectSalt: text('subject_salt').notNull(),
  createdAt: createdAt(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
/** A SAML app as read with its connected app's facts (saml/apps.ts reads it so). */
export type SamlAppRow = typeof samlApps.$inferSelect & ConnectedAppFacts;

export const samlConsents = pgTable(
  'saml_consents',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    samlAppId: integer('saml_app_id')
      .notNull()
      .references(() => samlApps.id, { onDelete: 'cascade' }),
    grantedAt: timestamp('granted_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.samlAppId] })],
);

/** An AuthnRequest waiting for the person, then its answer waiting for the browser: each used once. */
export const samlRequests = pgTable('saml_requests', {
  id: text('id').primaryKey(),
  samlAppId: integer('saml_app_id')
    .notNull()
    .references(() => samlApps.id, { onDelete: 'cascade' }),
  requestId: text('request_id').notNull(),
  acsUrl: text('acs_url').notNull(),
  relayState: text('relay_state'),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  answeredAt: timestamp('answered_at', { withTimezone: true }),
  userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
  deliveryHash: text('delivery_hash').unique(),
  response: text('response'),
  /** ForceAuthn="true": the person signs in again, after the request arrived. */
  forceAuthn: boolean('force_authn').notNull().default(false),
  /**
   * Migration 0053: the RequestedAuthnContext, its comparison (null: none asked) and its classes in the app's order
   * (saml/authn-context.ts).
   */
  authnComparison: text('authn_comparison').$type<SamlAuthnComparison>(),
  authnClasses: text('authn_classes').array().notNull().default([]),
  createdAt: createdAt(),
});

/** A SAML app a portal session signed into, for its single logout. */
export const samlSessions = pgTable(
  'saml_sessions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    samlAppId: integer('saml_app_id')
      .notNull()
      .references(() => samlApps.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    portalSessionId: text('portal_session_id').notNull(),
    nameId: text('name_id').notNull(),
    nameIdFormat: text('name_id_format').notNull(),
    sessionIndex: text('session_index').notNull(),
    createdAt: createdAt(),
  },
  (table) => [unique().on(table.samlAppId, table.portalSessionId)],
);

/**
 * Migration 0041: the people a SAML app was given an assertion for, with the NameID it knows each by (the latest
 * sent): they receive that person's partner events. No foreign key to users (a deletion's event still goes out).
 */
export const samlAppPeople = pgTable(
  'saml_app_people',
  {
    samlAppId: integer('saml_app_id')
      .notNull()
      .references(() => samlApps.id, { onDelete: 'cascade' }),
    userId: integer('user_id').notNull(),
    nameId: text('name_id').notNull(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.samlAppId] })],
);

/** How an owed single logout travels: SOAP from the API, or HTTP-Redirect through the person's browser. */
export const samlLogoutBindings = ['soap', 'redirect'] as const;

/** Single logouts owed to SAML apps (queued by trigger `sessions_saml_end`). */
export const samlLogoutDeliveries = pgTable('saml_logout_deliveries', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  samlAppId: integer('saml_app_id')
    .notNull()
    .references(() => samlApps.id, { onDelete: 'cascade' }),
  userId: integer('user_id'),
  nameId: text('name_id').notNull(),
  nameIdFormat: text('name_id_format').notNull(),
  sessionIndex: text('session_index').notNull(),
  attempts: integer('attempts').notNull().default(0),
  nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
  lockedUntil: timestamp('locked_until', { withTimezone: true }),
  deliveredAt: timestamp('delivered_at', { withTimezone: true }),
  failedAt: timestamp('failed_at', { withTimezone: true }),
  lastError: text('last_error'),
  binding: text('binding', { enum: samlLogoutBindings }).notNull().default('soap'),
  portalSessionId: text('portal_session_id'),
  chainHash: text('chain_hash'),
  requestId: text('request_id'),
  sentAt: timestamp('sent_at', { withTimezone: true }),
  createdAt: createdAt(),
});
