import { bigserial, boolean, foreignKey, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { users } from './accounts.js';
import { apps } from './apps-and-plans.js';
import { createdAt } from './columns.js';
import { companies } from './companies.js';

// An app's roles and who holds them (domain/apps-and-plans/app-roles.ts).

/** Migration 0044: a role of a catalogue app; at most one per app `porDefecto` (a partial unique index). */
export const appRoles = pgTable(
  'app_roles',
  {
    appId: integer('app_id')
      .notNull()
      .references(() => apps.id, { onDelete: 'cascade' }),
    clave: text('clave').notNull(),
    nombre: text('nombre').notNull(),
    descripcion: text('descripcion').notNull().default(''),
    porDefecto: boolean('por_defecto').notNull().default(false),
    createdAt: createdAt(),
  },
  (table) => [primaryKey({ columns: [table.appId, table.clave] })],
);

/** How a role reached a person: given by a person ('mano') or by a directory group ('grupo'). */
export type AppRoleSource = 'mano' | 'grupo';

/**
 * Migration 0044: a role a person holds in an app, given by a company (`companyId`) or by the platform (null). One
 * row per person, app, key, giver and way (a unique index on coalesce(company_id, 0) and fuente). Taking a seat back deletes that
 * company's rows of that app (trigger `company_seats_app_roles`).
 */
export const userAppRoles = pgTable(
  'user_app_roles',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    appId: integer('app_id').notNull(),
    clave: text('clave').notNull(),
    companyId: integer('company_id').references(() => companies.id, { onDelete: 'cascade' }),
    fuente: text('fuente').$type<AppRoleSource>().notNull().default('mano'),
    createdAt: createdAt(),
  },
  (table) => [
    foreignKey({ columns: [table.appId, table.clave], foreignColumns: [appRoles.appId, appRoles.clave] })
      .onDelete('cascade')
      .onUpdate('cascade'),
  ],
);
