// A database as an instance of an earlier release left it: the migrations before one applied, for a test that writes
// that release's rows and then lets the API (or `migrate`) apply the rest, as an upgrade does.
import { randomBytes } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { type Database, openPostgres, pgliteExtensions, wrapPglite } from '../../src/db/client.js';
import { readMigrations } from '../../src/db/migrate.js';
import { type Backend, databaseUrl } from './app.js';

/** A database of `backend` with the migrations whose names sort before `migration` applied, and its disposal. */
export async function databaseBefore(
  backend: Backend,
  migration: string,
): Promise<{ database: Database; dispose(): Promise<void> }> {
  let opened: { database: Database; dispose(): Promise<void> };
  if (backend === 'pglite') {
    const client = await PGlite.create({ extensions: pgliteExtensions });
    opened = { database: wrapPglite(client), dispose: async () => {} };
  } else {
    if (!databaseUrl) throw new Error('DATABASE_URL is required for the postgres backend');
    const schema = `t_${randomBytes(6).toString('hex')}`;
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
    await pool.query(`CREATE SCHEMA ${schema}`);
    opened = {
      database: openPostgres(databaseUrl, { searchPath: schema }),
      async dispose() {
        await pool.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
        await pool.end();
      },
    };
  }
  const earlier = readMigrations().filter((each) => each.name < migration);
  await opened.database.transaction(async (session) => {
    await session.exec(
      'CREATE TABLE schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    for (const each of earlier) {
      await session.exec(each.sql);
      await session.query('INSERT INTO schema_migrations (name) VALUES ($1)', [each.name]);
    }
  });
  return opened;
}
