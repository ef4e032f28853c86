import { randomBytes } from 'node:crypto';
import { count, eq, sql } from 'drizzle-orm';
import { hashPassword } from '../domain/accounts/passwords.js';
import { present } from '../lib/errors.js';
import type { Db } from './client.js';
import { startupLockKey } from './migrate.js';
import { appTags, apps, plans, roles, userPlans, users } from './schema.js';
import { freePlanName, seedApps } from './seed-data.js';

export const defaultAdminEmail = 'admin@portal.local';

export interface SeedOptions {
  adminEmail: string | undefined;
  adminPassword: string | undefined;
}

export interface SeedResult {
  catalogueCreated: boolean;
  /** Set only when this run created the administrator; `generatedPassword` only when none was configured. */
  adminCreated: { email: string; generatedPassword: string | undefined } | undefined;
}

/** Fills an empty database with the catalogue and the administrator; running it again changes nothing. */
export async function seed(db: Db, options: SeedOptions): Promise<SeedResult> {
  return db.transaction(async (tx) => {
    // Per schema: seeding touches only this portal's tables, and must not wait for another schema's migrations.
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${startupLockKey}, hashtext(current_schema()))`);

    const [appCount] = await tx.select({ value: count() }).from(apps);
    const catalogueCreated = appCount?.value === 0;
    if (catalogueCreated) {
      for (const { tags, plans: appPlans, ...app } of seedApps) {
        await tx.insert(apps).values(app);
        await tx.insert(appTags).values(tags.map((descripcion) => ({ appId: app.id, descripcion })));
        if (appPlans.length > 0) await tx.insert(plans).values(appPlans.map((plan) => ({ ...plan, appId: app.id })));
      }
      // The ids above were explicit, so the sequence has not moved: the next app created must not collide.
      await tx.execute(sql`SELECT setval(pg_get_serial_sequence('apps', 'id'), (SELECT max(id) FROM apps))`);
    }

    const email = options.adminEmail ?? defaultAdminEmail;
    const [existing] = await tx.select({ id: users.id }).from(users).where(eq(users.email, email));
    if (existing) return { catalogueCreated, adminCreated: undefined };

    const password = options.adminPassword ?? generatePassword();
    await createAdministrator(tx, { email, password });
    const generatedPassword = options.adminPassword ? undefined : password;
    return { catalogueCreated, adminCreated: { email, generatedPassword } };
  });
}

/** A password for a person to type once and then change: 24 characters of base64url (144 random bits). */
export const generatePassword = () => randomBytes(18).toString('base64url');

/**
 * An active administrator on the free plan of each app, like every active account. The seed and the operator's
 * command (`src/cli/admin.ts`) create them; the email must be free and already normalized.
 */
export async function createAdministrator(
  tx: Db,
  account: { email: string; password: string; name?: string; lastName?: string },
): Promise<{ id: number }> {
  const [admin] = await tx
    .insert(users)
    .values({
      email: account.email,
      passwordHash: await hashPassword(account.password),
      name: account.name ?? 'Administrador',
      ...(account.lastName === undefined ? {} : { lastName: account.lastName }),
      role: roles.admin,
      presentacion: false,
      status: 'active',
    })
    .returning({ id: users.id });
  const created = present(admin, 'the new administrator');
  const freePlans = await tx
    .select({ id: plans.id, appId: plans.appId })
    .from(plans)
    .where(eq(plans.nombre, freePlanName));
  if (freePlans.length > 0) {
    await tx
      .insert(userPlans)
      .values(freePlans.map((plan) => ({ userId: created.id, appId: plan.appId, planId: plan.id })));
  }
  return created;
}
