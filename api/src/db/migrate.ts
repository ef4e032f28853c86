import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Database } from './client.js';

export const migrationsDir = fileURLToPath(new URL('./migrations/', import.meta.url));

/**
 * Key of the PostgreSQL advisory lock held while migrating and seeding, so that several API instances starting
 * together on one database wait for each other instead of racing. Any constant works; it only has to be shared.
 */
export const startupLockKey = 4_726_001;

export interface Migration {
  name: string;
  sql: string;
}

/** The `.sql` files in name order: `0001_initial.sql`, `0002_...`. */
export function readMigrations(): Migration[] {
  return readdirSync(migrationsDir)
    .filter((file) => file.endsWith('.sql'))
    .sort()
    .map((name) => ({ name, sql: readFileSync(join(migrationsDir, name), 'utf8') }));
}

/** Applies the pending migrations in one transaction and answers their names. */
export async function migrate(database: Database): Promise<string[]> {
  const migrations = readMigrations();
  return database.transaction(async (session) => {
    await session.query('SELECT pg_advisory_xact_lock($1)', [startupLockKey]);
    await session.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      name        text PRIMARY KEY,
      applied_at  timestamptz NOT NULL DEFAULT now()
    )`);
    const rows = await session.query<{ name: string }>('SELECT name FROM schema_migrations');
    const done = new Set(rows.map((row) => row.name));
    const applied: string[] = [];
    for (const migration of migrations) {
      if (done.has(migration.name)) continue;
      await session.exec(migration.sql);
      await session.query('INSERT INTO schema_migrations (name) VALUES ($1)', [migration.name]);
      applied.push(migration.name);
    }
    return applied;
  });
}
