// Seeds a PostgreSQL schema with the catalogue, the administrator and 1,000,000 users for users.bench.ts.
//   npx tsx api/bench/seed-users.ts [postgres-url]       (default: BENCH_DATABASE_URL)
// The schema (BENCH_SCHEMA, default bench_users) is kept between runs; seeding again only tops it up to the target.
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { openPostgres } from '../src/db/client.js';
import { migrate } from '../src/db/migrate.js';
import { seed } from '../src/db/seed.js';

export const benchSchema = process.env.BENCH_SCHEMA || 'bench_users';
export const benchUsers = Number(process.env.BENCH_USERS || 1_000_000);
export const benchAdmin = { email: 'bench-admin@portal.local', password: 'clave-del-benchmark' };

/** The URL with the bench schema as search_path, so the API and the seed both work inside it. */
export function benchUrl(url: string): string {
  const parsed = new URL(url);
  parsed.searchParams.delete('options');
  // Spelled out: URLSearchParams would write the space as '+', which the driver does not decode.
  const options = `options=${encodeURIComponent(`-c search_path=${benchSchema}`)}`;
  return `${parsed.toString()}${parsed.search ? '&' : '?'}${options}`;
}

export async function seedUsers(url: string, target = benchUsers): Promise<{ users: number; seconds: number }> {
  const started = Date.now();
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`CREATE SCHEMA IF NOT EXISTS ${benchSchema}`);
  } finally {
    await admin.end();
  }

  const database = openPostgres(url, { searchPath: benchSchema });
  try {
    await migrate(database);
    await seed(database.db, { adminEmail: benchAdmin.email, adminPassword: benchAdmin.password });
    const count = await database.transaction(async (sql) => {
      const [row] = await sql.query<{ n: string }>("SELECT count(*) AS n FROM users WHERE email LIKE 'usuario%@%'");
      return Number(row?.n ?? 0);
    });
    if (count < target) {
      await database.transaction(async (sql) => {
        // Loading a million rows into a GIN trigram index one by one takes far longer than building it once:
        // the index is dropped and rebuilt from its own definition, as the migration wrote it.
        const [index] = await sql.query<{ def: string }>(
          "SELECT pg_get_indexdef('users_email_trgm_idx'::regclass) AS def",
        );
        await sql.exec('DROP INDEX users_email_trgm_idx');
        await sql.query(
          `
          INSERT INTO users (email, password_hash, name, last_name, phone, role, status, created_at)
          SELECT
            'usuario' || lpad(n::text, 7, '0') || '@dominio' || (n % 50) || '.example',
            NULL,
            (ARRAY['Ana', 'Luis', 'María', 'Jorge', 'Lucía', 'Pedro', 'Sofía', 'Diego'])[1 + n % 8],
            (ARRAY['Pérez', 'García', 'Quispe', 'Rojas', 'Flores', 'Torres'])[1 + n % 6],
            '+51 9' || lpad((n % 100000000)::text, 8, '0'),
            2,
            (ARRAY['active', 'active', 'active', 'active', 'active', 'active', 'active', 'pending_verification', 'pending_verification', 'suspended'])[1 + n % 10],
            now() - (n % 730) * interval '1 day' - (n % 86400) * interval '1 second'
          FROM generate_series($1::int, $2::int) AS n
        `,
          [count + 1, target],
        );
        await sql.exec(index!.def);
      });
    }
    // VACUUM (outside a transaction) sets the visibility map, as autovacuum would on a live database: counts can then
    // use index-only scans. The counters' table too: a seed stopped halfway leaves its dead rows there.
    const client = new pg.Client({ connectionString: benchUrl(url) });
    await client.connect();
    try {
      await client.query('VACUUM ANALYZE users, user_counts');
    } finally {
      await client.end();
    }
    return { users: target, seconds: Math.round((Date.now() - started) / 100) / 10 };
  } finally {
    await database.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const url = process.argv[2] || process.env.BENCH_DATABASE_URL;
  if (!url) {
    console.error('Falta la URL de PostgreSQL: pásala como argumento o en BENCH_DATABASE_URL.');
    process.exit(1);
  }
  const result = await seedUsers(url);
  console.log(`Esquema ${benchSchema}: ${result.users} usuarios de prueba (${result.seconds} s).`);
}
