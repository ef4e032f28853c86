import pg from 'pg';
import { openDatabase } from '../src/db/client.js';
// The benches that fill a PostgreSQL of their own before measuring (a million users, 10,000 companies, a directory of
// 10,000 people, a stream of partner events) call this first: they run only when BENCH_DATABASE_URL names a server.
// CI's short run of the benches (`node scripts/bench.mjs smoke`) leaves out every bench that calls it.

/** BENCH_DATABASE_URL, or, without it, nothing after saying why `bench` is left out (the caller exits 0). */
export function seededDatabaseUrl(bench: string): string | undefined {
  const url = process.env.BENCH_DATABASE_URL;
  if (!url) console.log(`${bench}: omitido, necesita PostgreSQL en BENCH_DATABASE_URL.`);
  return url;
}

/**
 * A database of its own on the server of `baseUrl`, named `<prefix>_<pid>`, migrated by `openDatabase`; `drop` closes
 * it and drops the database.
 */
export async function benchDatabase(baseUrl: string, prefix: string) {
  const name = `${prefix}_${process.pid}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = baseUrl.replace(/\/[^/]*$/, `/${name}`);
  const database = await openDatabase({ databaseUrl: url, dataDir: '/tmp', databaseTimeoutMs: 30_000 });
  return {
    database,
    url,
    async drop() {
      await database.close();
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}
