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

/** Migration 0018: OpenID Connect clients registered by administrators (docs/decisions/0055-openid-connect-provider.md). */
export const oidcClients = pgTable('oidc_clients', {
  id: serial('id').primaryKey(),
  clientId: text('client_id').notNull().unique(),
  name: text('name').notNull(),
  /** SHA-256 (base64url) of a confidential client's secret; null for a public client. */
  secretHash: text('secret_hash'),
  redirectUris: text('redirect_uris').array().notNull(),
  postLogoutRedirectUris: text('post_logout_redirect_uris').array().notNull().default([]),
  backchannelLogoutUri: text('backchannel_logout_uri'),
  initiateLoginUri: text('initiate_login_uri'),
  firstParty: boolean('first_party').notNull().default(false),
  appId: integer('app_id')
    .unique()
    .references(() => apps.id, { onDelete: 'set null' }),
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
export type OidcClientRow = typeof oidcClients.$inferSelect;

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
