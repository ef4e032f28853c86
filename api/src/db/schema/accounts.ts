import { boolean, integer, pgTable, serial, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.js';

// The people of the portal: their accounts.

export const userStatuses = ['active', 'pending_verification', 'suspended'] as const;
export type UserStatus = (typeof userStatuses)[number];

export const roles = { admin: 1, user: 2 } as const;

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

export type User = typeof users.$inferSelect;
