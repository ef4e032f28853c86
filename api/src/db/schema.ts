import {
  bigint,
  bigserial,
  boolean,
  date,
  foreignKey,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  unique,
  uuid,
} from 'drizzle-orm/pg-core';
import type { PartnerEventType } from '@portal/contracts/partner-events/event-types';

// Mirrors migrations/*.sql, which are the source of truth for the database; this file gives queries their types.

export const userStatuses = ['active', 'pending_verification', 'suspended'] as const;
export type UserStatus = (typeof userStatuses)[number];

export const roles = { admin: 1, user: 2 } as const;

/** What an OpenID Connect client's `sub` is (migration 0024, domain/identity-provider/subjects.ts). */
export const oidcSubjectKinds = ['numerico', 'opaco', 'por_cliente'] as const;
export type OidcSubjectKind = (typeof oidcSubjectKinds)[number];

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

export const users = pgTable('users', {
  id: serial('id').primaryKey(),
  email: text('email').notNull().unique(),
  passwordHash: text('password_hash'),
  name: text('name').notNull().default(''),
  lastName: text('last_name').notNull().default(''),
  phone: text('phone').notNull().default(''),
  picture: text('picture'),
  role: integer('role').notNull().default(roles.user),
  presentacion: boolean('presentacion').notNull().default(true),
  status: text('status', { enum: userStatuses }).notNull().default('pending_verification'),
  tokenVersion: integer('token_version').notNull().default(0),
  createdAt: createdAt(),
  updatedAt: timestamp('updated_at', { withTimezone: true })
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date()),
  /** Migration 0024: the opaque identifier partner apps know the person by (domain/identity-provider/subjects.ts). */
  publicId: uuid('public_id').notNull().unique().defaultRandom(),
});

export const apps = pgTable('apps', {
  id: serial('id').primaryKey(),
  nombre: text('nombre').notNull(),
  descripcion: text('descripcion').notNull().default(''),
  longDescription: text('long_description').notNull().default(''),
  iconUrl: text('icon_url'),
  webUrl: text('web_url'),
  iosUrl: text('ios_url'),
  androidUrl: text('android_url'),
  isEnabledWeb: boolean('is_enabled_web').notNull().default(false),
  isEnabledMovil: boolean('is_enabled_movil').notNull().default(false),
  createdAt: createdAt(),
});

export const appTags = pgTable(
  'app_tags',
  {
    id: serial('id').primaryKey(),
    appId: integer('app_id')
      .notNull()
      .references(() => apps.id, { onDelete: 'cascade' }),
    descripcion: text('descripcion').notNull(),
  },
  (table) => [index('app_tags_app_id_idx').on(table.appId)],
);

export const plans = pgTable(
  'plans',
  {
    id: serial('id').primaryKey(),
    appId: integer('app_id')
      .notNull()
      .references(() => apps.id, { onDelete: 'cascade' }),
    nombre: text('nombre').notNull(),
    descripcion: text('descripcion').notNull().default(''),
    caracteristicas: jsonb('caracteristicas').$type<string[]>().notNull().default([]),
    precioMensual: numeric('precio_mensual', { precision: 10, scale: 2, mode: 'number' }).notNull().default(0),
    precioAnual: numeric('precio_anual', { precision: 10, scale: 2, mode: 'number' }).notNull().default(0),
  },
  (table) => [unique().on(table.appId, table.nombre), unique().on(table.id, table.appId)],
);

export const userPlans = pgTable(
  'user_plans',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    appId: integer('app_id')
      .notNull()
      .references(() => apps.id, { onDelete: 'cascade' }),
    planId: integer('plan_id').notNull(),
    fechaVencimiento: timestamp('fecha_vencimiento', { withTimezone: true }),
    /** When the current plan was assigned (migration 0004). */
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    /** Migration 0025: the expiry already announced to partner apps (`plan.vencido`); written by the expiry job only. */
    expiryAnnounced: timestamp('expiry_announced', { withTimezone: true }),
  },
  (table) => [
    unique().on(table.userId, table.appId),
    foreignKey({ columns: [table.planId, table.appId], foreignColumns: [plans.id, plans.appId] }).onDelete('cascade'),
    index('user_plans_plan_id_idx').on(table.planId),
  ],
);

/**
 * Migration 0009: how many users have each status and role, kept by triggers on `users` in the
 * same transaction as the change; a pair is split over 16 rows by the writing connection (`pg_backend_pid() % 16`) so
 * that concurrent sign-ups do not queue on one row. Read by summing; never written by the API.
 */
export const userCounts = pgTable(
  'user_counts',
  {
    status: text('status', { enum: userStatuses }).notNull(),
    role: integer('role').notNull(),
    shard: smallint('shard').notNull(),
    n: bigint('n', { mode: 'number' }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.status, table.role, table.shard] })],
);

/**
 * Migration 0014: how many users have each status per day of sign-up (UTC), kept by triggers on
 * `users` like user_counts (16 rows by writing connection, read by summing): where a page number of the user list
 * starts (domain/user-directory/queries.ts). Never written by the API.
 */
export const userDayCounts = pgTable(
  'user_day_counts',
  {
    status: text('status', { enum: userStatuses }).notNull(),
    day: date('day').notNull(),
    shard: smallint('shard').notNull(),
    n: bigint('n', { mode: 'number' }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.status, table.day, table.shard] })],
);

/**
 * Migration 0013: how many users were deleted or changed their email, kept by triggers on `users`
 * like user_counts (16 rows by writing connection, read by summing): what the email search's sample may have lost
 * since it was taken (domain/user-directory/email-search.ts). Never written by the API.
 */
export const userEmailRemovals = pgTable('user_email_removals', {
  shard: smallint('shard').primaryKey(),
  n: bigint('n', { mode: 'number' }).notNull(),
});

export const revokedTokens = pgTable(
  'revoked_tokens',
  {
    jti: text('jti').primaryKey(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('revoked_tokens_expires_at_idx').on(table.expiresAt)],
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
  },
  (table) => [index('sessions_user_id_idx').on(table.userId, table.createdAt)],
);

/** Migration 0004: every admin action, who did it to whom and when. */
export const auditLog = pgTable('audit_log', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  actorId: integer('actor_id').references(() => users.id, { onDelete: 'set null' }),
  actorEmail: text('actor_email').notNull(),
  action: text('action').notNull(),
  targetType: text('target_type', { enum: ['user', 'app', 'oidc_client', 'company'] }).notNull(),
  targetId: integer('target_id').notNull(),
  details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
  /** Migration 0019: the request that wrote it (its X-Request-Id); null from the operator's command. */
  requestId: text('request_id'),
  /** Migration 0020: the company the entry is about, which that company's administrators read. */
  companyId: integer('company_id'),
  createdAt: createdAt(),
});

/** Migration 0003: each user's customer at Stripe, created on first billing call. */
export const billingCustomers = pgTable('billing_customers', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  stripeCustomerId: text('stripe_customer_id').notNull().unique(),
  createdAt: createdAt(),
});

export type User = typeof users.$inferSelect;

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

export const codePurposes = ['verify_email', 'reset_password'] as const;
export type CodePurpose = (typeof codePurposes)[number];

export const accountCodes = pgTable(
  'account_codes',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose', { enum: codePurposes }).notNull(),
    codeHash: text('code_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.purpose] })],
);

export const mailOutbox = pgTable('mail_outbox', {
  id: serial('id').primaryKey(),
  recipient: text('recipient').notNull(),
  subject: text('subject').notNull(),
  textBody: text('text_body').notNull(),
  htmlBody: text('html_body').notNull(),
  attempts: integer('attempts').notNull().default(0),
  nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull(),
  lockedUntil: timestamp('locked_until', { withTimezone: true }),
  /** The instance whose claim `lockedUntil` is (a random id per process): only it renews and releases the claim. */
  claimedBy: text('claimed_by'),
  lastError: text('last_error'),
  sentAt: timestamp('sent_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  /** Migration 0019: the request that queued it, named in the mail's log lines; null from the operator's command. */
  requestId: text('request_id'),
});

/** Migration 0006: each registration of a still pending email, with the password and profile typed in it. */
export const pendingRegistrations = pgTable(
  'pending_registrations',
  {
    id: text('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    passwordHash: text('password_hash').notNull(),
    name: text('name').notNull(),
    lastName: text('last_name').notNull(),
    phone: text('phone').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('pending_registrations_user_id_idx').on(table.userId, table.createdAt)],
);

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

/** Migration 0015: Google/Apple returns to the portal (id = SHA-256 hex of the one-time code; binding = the tab's). */
export const signInReturns = pgTable(
  'sign_in_returns',
  {
    id: text('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    binding: text('binding').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('sign_in_returns_expires_at_idx').on(table.expiresAt)],
);

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

export const companyStatuses = ['active', 'suspended'] as const;
export type CompanyStatus = (typeof companyStatuses)[number];
export const companyRoles = ['propietario', 'administrador', 'miembro'] as const;
export type CompanyRole = (typeof companyRoles)[number];
export const memberStatuses = ['active', 'pending_approval'] as const;
export type MemberStatus = (typeof memberStatuses)[number];
export const domainJoinModes = ['automatic', 'approval'] as const;
export type DomainJoinMode = (typeof domainJoinModes)[number];

/** Migration 0020: customer companies (docs/decisions/0073-companies-and-seats.md). */
export const companies = pgTable('companies', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  status: text('status', { enum: companyStatuses }).notNull().default('active'),
  domainJoin: text('domain_join', { enum: domainJoinModes }).notNull().default('approval'),
  requireSecondFactor: boolean('require_second_factor').notNull().default(false),
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

/** Migration 0023: a company's OpenID Connect provider; the client secret sealed (domain/companies/sign-in/secret.ts). */
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

/**
 * Migration 0025: the event types partner apps subscribe to (docs/decisions/0085-partner-events.md), the list the
 * admin panel offers too: it lives in @portal/contracts, named here as the rest of the schema's lists.
 */
export {
  PARTNER_EVENT_TYPES as partnerEventTypes,
  type PartnerEventType,
} from '@portal/contracts/partner-events/event-types';
export const partnerSubscriptionStatuses = ['activa', 'desactivada'] as const;
export type PartnerSubscriptionStatus = (typeof partnerSubscriptionStatuses)[number];
export const partnerDeliveryStatuses = ['pendiente', 'entregado', 'fallido', 'cancelada'] as const;
export type PartnerDeliveryStatus = (typeof partnerDeliveryStatuses)[number];

/** Migration 0025: an https endpoint of an OpenID Connect client subscribed to event types; its secret sealed. */
export const partnerSubscriptions = pgTable(
  'partner_subscriptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    clientId: text('client_id')
      .notNull()
      .references(() => oidcClients.clientId, { onDelete: 'cascade', onUpdate: 'cascade' }),
    url: text('url').notNull(),
    eventos: text('eventos').array().$type<PartnerEventType[]>().notNull(),
    secretSealed: text('secret_sealed').notNull(),
    previousSecretSealed: text('previous_secret_sealed'),
    previousSecretUntil: timestamp('previous_secret_until', { withTimezone: true }),
    status: text('status', { enum: partnerSubscriptionStatuses }).notNull().default('activa'),
    disabledReason: text('disabled_reason'),
    disabledAt: timestamp('disabled_at', { withTimezone: true }),
    nextSeq: bigint('next_seq', { mode: 'number' }).notNull().default(1),
    /** The instance sending this subscription's deliveries now, and until when its claim holds (renewed). */
    claimedBy: text('claimed_by'),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('partner_subscriptions_client_idx').on(table.clientId)],
);
export type PartnerSubscriptionRow = typeof partnerSubscriptions.$inferSelect;

/** Migration 0025: what happened to a person or their plan, written by triggers; fanned out by the API. */
export const partnerEvents = pgTable('partner_events', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  userId: integer('user_id').notNull(),
  publicId: uuid('public_id'),
  tipo: text('tipo').$type<PartnerEventType>().notNull(),
  appId: integer('app_id'),
  clientId: text('client_id'),
  data: jsonb('data').$type<Record<string, unknown>>().notNull().default({}),
  createdAt: createdAt(),
  fannedOutAt: timestamp('fanned_out_at', { withTimezone: true }),
});

/** Migration 0025: one event for one subscription, signed and delivered in `seq` order. */
export const partnerDeliveries = pgTable(
  'partner_deliveries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    subscriptionId: uuid('subscription_id')
      .notNull()
      .references(() => partnerSubscriptions.id, { onDelete: 'cascade' }),
    seq: bigint('seq', { mode: 'number' }).notNull(),
    eventId: bigint('event_id', { mode: 'number' }).notNull(),
    /** The Standard Webhooks `webhook-id`, the same on every try. */
    messageId: text('message_id').notNull().unique(),
    tipo: text('tipo').$type<PartnerEventType>().notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    status: text('status', { enum: partnerDeliveryStatuses }).notNull().default('pendiente'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    /** A Spanish text for the admin panel. */
    lastError: text('last_error'),
    lastStatusCode: integer('last_status_code'),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [unique().on(table.subscriptionId, table.seq), unique().on(table.subscriptionId, table.eventId)],
);
export type PartnerDeliveryRow = typeof partnerDeliveries.$inferSelect;

/** Migration 0025: the clients that were given a grant for a person (they receive that person's `usuario.*`). */
export const oidcClientPeople = pgTable(
  'oidc_client_people',
  {
    clientId: text('client_id').notNull(),
    userId: integer('user_id').notNull(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.clientId] })],
);
