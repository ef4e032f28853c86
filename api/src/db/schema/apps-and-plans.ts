import {
  boolean,
  foreignKey,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  serial,
  text,
  timestamp,
  unique,
} from 'drizzle-orm/pg-core';
import { createdAt } from './columns.js';
import { users } from './accounts.js';

// The app catalogue and each person's plan per app.

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
