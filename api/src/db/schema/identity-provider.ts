import {
  bigserial,
  boolean,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt } from './columns.js';
import { users } from './accounts.js';
import { apps } from './apps-and-plans.js';
import { sessions } from './sessions.js';

// The portal's OpenID Connect provider: clients, oidc-provider's storage, consents, session links, logouts.

/** What an OpenID Connect client's `sub` is (migration 0024, domain/identity-provider/subjects.ts). */
export const oidcSubjectKinds = ['numerico', 'opaco', 'por_cliente'] as const;
export type OidcSubjectKind = (typeof oidcSubjectKinds)[number];

/** The protocols a connected app signs people in with (migration 0041). */
export const connectedAppProtocols = ['oidc', 'saml'] as const;
export type ConnectedAppProtocol = (typeof connectedAppProtocols)[number];

/**
 * Migration 0041: the registry of partner apps (docs/decisions/0126-connected-apps.md). What an app is, whatever its
 * protocol: its name, its catalogue app and whether it is the suite's own; its protocol connection (an OpenID Connect
 * client, a SAML service provider) references it and goes with it.
 */
export const connectedApps = pgTable('connected_apps', {
  id: serial('id').primaryKey(),
  protocol: text('protocol', { enum: connectedAppProtocols }).notNull(),
  name: text('name').notNull(),
  appId: integer('app_id').references(() => apps.id, { onDelete: 'set null' }),
  firstParty: boolean('first_party').notNull().default(false),
  createdAt: createdAt(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
export type ConnectedAppRow = typeof connectedApps.$inferSelect;
/** What the registry owns of an app, as its protocol connection is read with it. */
export type ConnectedAppFacts = Pick<ConnectedAppRow, 'name' | 'appId' | 'firstParty'>;

/** Migration 0018: OpenID Connect clients registered by administrators (docs/decisions/0055-openid-connect-provider.md). */
export const oidcClients = pgTable('oidc_clients', {
  id: serial('id').primaryKey(),
  clientId: text('client_id').notNull().unique(),
  /** Migration 0041: the app this client signs people into (its name, catalogue app, first party). */
  connectedAppId: integer('connected_app_id')
    .notNull()
    .unique()
    .references(() => connectedApps.id, { onDelete: 'cascade' }),
  /** SHA-256 (base64url) of a confidential client's secret; null for a public client. */
  secretHash: text('secret_hash'),
  redirectUris: text('redirect_uris').array().notNull(),
  postLogoutRedirectUris: text('post_logout_redirect_uris').array().notNull().default([]),
  backchannelLogoutUri: text('backchannel_logout_uri'),
  initiateLoginUri: text('initiate_login_uri'),
  scopes: text('scopes').array().notNull(),
  /** Migration 0026: the client may use the device authorization grant (RFC 8628). */
  deviceFlow: boolean('device_flow').notNull().default(false),
  createdAt: createdAt(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  /** Migration 0024: what the client's `sub` is (subjects.ts); the clients registered before it keep 'numerico'. */
  sujeto: text('sujeto', { enum: oidcSubjectKinds }).notNull().default('opaco'),
  /** The 'por_cliente' kind's HMAC key (32 random bytes, base64url): made once, never changed, never answered. */
  subjectSalt: text('subject_salt'),
});
/** A client as read with its connected app's facts (clients.ts reads it so). */
export type OidcClientRow = typeof oidcClients.$inferSelect & ConnectedAppFacts;

/** Migration 0018: what oidc-provider stores, one row per model instance. */
export const oidcPayloads = pgTable(
  'oidc_payloads',
  {
    kind: text('kind').notNull(),
    id: text('id').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    grantId: text('grant_id'),
    uid: text('uid'),
    sessionUid: text('session_uid'),
    accountId: text('account_id'),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
  },
  (table) => [primaryKey({ columns: [table.kind, table.id] })],
);

/** Migration 0018: the portal session a provider session was signed in with. */
export const oidcSessionLinks = pgTable('oidc_session_links', {
  sessionUid: text('session_uid').primaryKey(),
  portalSessionId: text('portal_session_id')
    .notNull()
    .references(() => sessions.id, { onDelete: 'cascade' }),
  userId: integer('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  createdAt: createdAt(),
});

/**
 * Migration 0040: a device's sign-in (the device authorization grant) as a portal session of its own
 * (docs/decisions/0116-device-sign-ins-are-sessions.md); the grant it issued ends with it, and it with the grant.
 */
export const oidcDeviceGrants = pgTable('oidc_device_grants', {
  grantId: text('grant_id').primaryKey(),
  portalSessionId: text('portal_session_id')
    .notNull()
    .unique()
    .references(() => sessions.id, { onDelete: 'cascade' }),
  clientId: text('client_id').notNull(),
  userId: integer('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  createdAt: createdAt(),
});

/** Migration 0018: the scopes a person allowed a third-party app. */
export const oidcConsents = pgTable(
  'oidc_consents',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    clientId: text('client_id').notNull(),
    scopes: text('scopes').array().notNull(),
    grantedAt: timestamp('granted_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.clientId] })],
);

/** Migration 0018: back-channel logouts owed to apps. */
export const oidcLogoutDeliveries = pgTable('oidc_logout_deliveries', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  clientId: text('client_id').notNull(),
  accountId: text('account_id').notNull(),
  sid: text('sid').notNull(),
  reason: text('reason').notNull(),
  attempts: integer('attempts').notNull().default(0),
  nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
  lockedUntil: timestamp('locked_until', { withTimezone: true }),
  deliveredAt: timestamp('delivered_at', { withTimezone: true }),
  failedAt: timestamp('failed_at', { withTimezone: true }),
  lastError: text('last_error'),
  createdAt: createdAt(),
  /** Migration 0024: the account's public id as the logout was queued (the account may be gone when it is sent). */
  publicId: uuid('public_id'),
});
