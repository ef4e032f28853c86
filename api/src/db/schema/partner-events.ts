import {
  bigint,
  bigserial,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uuid,
} from 'drizzle-orm/pg-core';
import type { PartnerEventType } from '@portal/contracts/partner-events/event-types';
import { createdAt } from './columns.js';
import { users } from './accounts.js';
import { connectedApps } from './identity-provider.js';

// Events for partner apps: subscriptions, events, deliveries and who receives a person's events.

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

/** Migration 0025: an https endpoint of a connected app subscribed to event types; its secret sealed. */
export const partnerSubscriptions = pgTable(
  'partner_subscriptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Migration 0041: the connected app the subscription belongs to, whatever its protocol. */
    connectedAppId: integer('connected_app_id')
      .notNull()
      .references(() => connectedApps.id, { onDelete: 'cascade' }),
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
  (table) => [index('partner_subscriptions_connected_app_idx').on(table.connectedAppId)],
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
