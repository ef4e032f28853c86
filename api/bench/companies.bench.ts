// A company's member and seat lists, and GET /auth/user with and without a company, on PostgreSQL with 10,000
// companies, one of them with 100,000 members (seed below, `generate_series`): p50 / p95 of the whole API from a
// client with a few requests in flight, each row beside a bare Fastify route measured the same way in the same run,
// with the server's processor time per request. Needs BENCH_DATABASE_URL; without it, it says so and exits 0.
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { openPostgres } from '../src/db/client.js';
import { migrate } from '../src/db/migrate.js';
import { seed } from '../src/db/seed.js';
import { hashPassword } from '../src/domain/accounts/passwords.js';
import { startBenchServer } from './spawn-server.js';
import { seededDatabaseUrl } from './seeded.js';

const schema = process.env.BENCH_COMPANIES_SCHEMA || 'bench_companies';
const bigCompany = 100_000;
const otherCompanies = 9_999;
const requests = Number(process.env.BENCH_REQUESTS || 200);
const inFlight = 4;
const admin = { email: 'bench-admin@portal.local', password: 'clave-del-benchmark' };
const password = 'clave-del-benchmark';
/** The people the bench signs in as: the big company's administrator, a member with two seats, one in no company. */
const people = {
  manager: 'miembro000001@minera-grande.example',
  seated: 'miembro000002@minera-grande.example',
  loner: 'sin-empresa@bench.example',
};

function schemaUrl(url: string): string {
  const parsed = new URL(url);
  parsed.searchParams.delete('options');
  const options = `options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  return `${parsed.toString()}${parsed.search ? '&' : '?'}${options}`;
}

/**
 * The companies, people, memberships, licences and seats, written in bulk: the membership and seat triggers (session
 * notifications, the seat and member counters) are off while they load and the counters set once after, as the
 * triggers keep them.
 */
export async function seedCompanies(url: string): Promise<{ seconds: number; bigId: number }> {
  const started = Date.now();
  const setup = new pg.Client({ connectionString: url });
  await setup.connect();
  try {
    await setup.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
  } finally {
    await setup.end();
  }
  const database = openPostgres(url, { searchPath: schema, timeoutMs: 600_000 });
  try {
    await migrate(database);
    await seed(database.db, { adminEmail: admin.email, adminPassword: admin.password });
    const hash = await hashPassword(password);
    const bigId = await database.transaction(async (sql) => {
      const [existing] = await sql.query<{ id: number }>("SELECT id FROM companies WHERE name = 'Minera Grande S.A.'");
      if (existing) return existing.id;
      const [index] = await sql.query<{ def: string }>(
        "SELECT pg_get_indexdef('users_email_trgm_idx'::regclass) AS def",
      );
      await sql.exec('DROP INDEX users_email_trgm_idx');
      await sql.exec(
        'ALTER TABLE company_members DISABLE TRIGGER USER; ALTER TABLE company_seats DISABLE TRIGGER USER',
      );
      const [big] = await sql.query<{ id: number }>(
        "INSERT INTO companies (name) VALUES ('Minera Grande S.A.') RETURNING id",
      );
      await sql.query(
        `INSERT INTO companies (name) SELECT 'Empresa ' || lpad(n::text, 5, '0') FROM generate_series(1, $1::int) AS n`,
        [otherCompanies],
      );
      await sql.query(
        `INSERT INTO users (email, name, last_name, status, created_at)
         SELECT 'miembro' || lpad(n::text, 6, '0') || '@minera-grande.example',
           (ARRAY['Ana', 'Luis', 'María', 'Jorge'])[1 + n % 4], (ARRAY['Pérez', 'Quispe', 'Rojas'])[1 + n % 3],
           'active', now() - (n % 700) * interval '1 day'
         FROM generate_series(1, $1::int) AS n`,
        [bigCompany],
      );
      await sql.query(
        `INSERT INTO users (email, name, status)
         SELECT 'persona' || lpad(n::text, 6, '0') || '@empresa' || (n / 3) || '.example', 'Persona', 'active'
         FROM generate_series(1, $1::int) AS n`,
        [otherCompanies * 3],
      );
      await sql.query("INSERT INTO users (email, name, status) VALUES ($1, 'Sin empresa', 'active')", [people.loner]);
      await sql.query(`UPDATE users SET password_hash = $1 WHERE email IN ($2, $3, $4)`, [
        hash,
        people.manager,
        people.seated,
        people.loner,
      ]);
      await sql.query(
        `INSERT INTO company_members (company_id, user_id, role)
         SELECT $1::int, id, CASE WHEN email = $2 THEN 'administrador' ELSE 'miembro' END
         FROM users WHERE email LIKE '%@minera-grande.example'`,
        [big!.id, people.manager],
      );
      await sql.exec(`INSERT INTO company_members (company_id, user_id, role)
         SELECT c.id, u.id, CASE WHEN substr(u.email, 8, 6)::int % 3 = 0 THEN 'propietario' ELSE 'miembro' END
         FROM users u JOIN companies c ON c.name = 'Empresa ' || lpad((substr(u.email, 8, 6)::int / 3 + 1)::text, 5, '0')
         WHERE u.email LIKE 'persona%'`);
      const pro = (app: number) => `(SELECT id FROM plans WHERE app_id = ${app} AND nombre = 'PRO')`;
      await sql.query(
        `INSERT INTO company_licences (company_id, app_id, plan_id, seats, expires_at) VALUES
           ($1, 1, ${pro(1)}, 60000, now() + interval '1 year'),
           ($1, 2, ${pro(2)}, 30000, now() + interval '20 days')`,
        [big!.id],
      );
      await sql.query(
        `INSERT INTO company_licences (company_id, app_id, plan_id, seats, expires_at)
         SELECT id, 1, ${pro(1)}, 3, now() + interval '1 year' FROM companies WHERE id <> $1`,
        [big!.id],
      );
      // Members 2 to 50,001 hold a seat of app 1, 2 to 25,001 one of app 2; one person in each other company too.
      for (const [app, upTo] of [
        [1, 50_001],
        [2, 25_001],
      ]) {
        await sql.query(
          `INSERT INTO company_seats (company_id, app_id, user_id)
           SELECT $1, $2, id FROM users
           WHERE email LIKE 'miembro%@minera-grande.example' AND substr(email, 8, 6)::int BETWEEN 2 AND $3`,
          [big!.id, app, upTo],
        );
      }
      await sql.exec(`INSERT INTO company_seats (company_id, app_id, user_id)
         SELECT m.company_id, 1, min(m.user_id) FROM company_members m
         JOIN companies c ON c.id = m.company_id WHERE c.name LIKE 'Empresa %' GROUP BY m.company_id`);
      await sql.exec(`UPDATE company_licences l SET seats_in_use =
         (SELECT count(*) FROM company_seats s WHERE s.company_id = l.company_id AND s.app_id = l.app_id)`);
      await sql.exec(`INSERT INTO company_member_counts (company_id, n)
         SELECT company_id, count(*) FROM company_members GROUP BY company_id
         ON CONFLICT (company_id) DO UPDATE SET n = EXCLUDED.n`);
      await sql.exec('ALTER TABLE company_members ENABLE TRIGGER USER; ALTER TABLE company_seats ENABLE TRIGGER USER');
      await sql.exec(index!.def);
      return big!.id;
    });
    const client = new pg.Client({ connectionString: schemaUrl(url) });
    await client.connect();
    try {
      await client.query('VACUUM ANALYZE users, companies, company_members, company_licences, company_seats');
    } finally {
      await client.end();
    }
    return { seconds: Math.round((Date.now() - started) / 100) / 10, bigId };
  } finally {
    await database.close();
  }
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

interface Call {
  what: string;
  paths: string[];
  token?: string;
  /** A JSON body: the call is a POST. */
  body?: unknown;
}

async function main(url: string) {
  const { seconds, bigId } = await seedCompanies(url);
  console.log(`Esquema ${schema}: 10 000 empresas, una con ${bigCompany} miembros, lista en ${seconds} s.\n`);
  const server = await startBenchServer({
    BENCH_DATABASE_URL: schemaUrl(url),
    ADMIN_EMAIL: admin.email,
    ADMIN_PASSWORD: admin.password,
    ADMIN_SECOND_FACTOR: 'optional',
  });
  const { api, bare } = server;

  /** `requests` calls, `inFlight` at a time, cycling through the paths: p50/p95 in ms, server µs a request, a body. */
  async function measure(call: Call, base = api) {
    const times: number[] = [];
    let next = 0;
    let sample: unknown;
    const headers: Record<string, string> = call.token ? { authorization: `Bearer ${call.token}` } : {};
    if (call.body !== undefined) headers['content-type'] = 'application/json';
    const before = server.processorSeconds();
    await Promise.all(
      Array.from({ length: inFlight }, async () => {
        while (next < requests) {
          const path = call.paths[next++ % call.paths.length]!;
          const started = performance.now();
          const response = await fetch(`${base}${path}`, {
            method: call.body === undefined ? 'GET' : 'POST',
            headers,
            body: call.body === undefined ? undefined : JSON.stringify(call.body),
          });
          const answer = await response.json();
          times.push(performance.now() - started);
          if (response.status !== 200) throw new Error(`${path}: ${response.status} ${JSON.stringify(answer)}`);
          sample ??= answer;
        }
      }),
    );
    const after = server.processorSeconds();
    times.sort((a, b) => a - b);
    const processor = before === undefined || after === undefined ? undefined : ((after - before) * 1e6) / requests;
    return { p50: percentile(times, 50), p95: percentile(times, 95), processor, sample };
  }

  const signIn = async (email: string, secret = password) => {
    const response = await fetch(`${api}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: secret }),
    });
    const body = (await response.json()) as { access_token: string; user?: { id: number } };
    if (response.status !== 200) throw new Error(`login ${email}: ${response.status} ${JSON.stringify(body)}`);
    return body.access_token;
  };

  try {
    const manager = await signIn(people.manager);
    const seated = await signIn(people.seated);
    const loner = await signIn(people.loner);
    const idOf = async (token: string) =>
      (
        (await (await fetch(`${api}/auth/user`, { headers: { authorization: `Bearer ${token}` } })).json()) as {
          id: number;
        }
      ).id;
    const seatedId = await idOf(seated);
    const lonerId = await idOf(loner);
    // Cursors name the last row shown (domain/companies/member-search.ts): one half-way through each list.
    const cursor = (ids: number[]) => Buffer.from(JSON.stringify(ids)).toString('base64url');
    const middle = seatedId + bigCompany / 2;
    const members = `/empresas/${bigId}/miembros`;
    const seats = `/empresas/${bigId}/puestos`;
    const calls: Call[] = [
      { what: 'bare Fastify route (the floor)', paths: ['/bare'] },
      { what: `GET ${members} (first page)`, paths: [members], token: manager },
      {
        what: `GET ${members}?email=<part of one address>`,
        paths: ['miembro004242', '077777@', 'MIEMBRO012345', '099001@'].map((e) => `${members}?email=${e}`),
        token: manager,
      },
      {
        what: `GET ${members}?email=<the company's domain, every member>`,
        paths: [`${members}?email=minera-grande`],
        token: manager,
      },
      { what: `GET ${members}?email=<no match>`, paths: [`${members}?email=nadie-coincide`], token: manager },
      { what: `GET ${members}?cursor=<half-way>`, paths: [`${members}?cursor=${cursor([middle])}`], token: manager },
      { what: `GET ${seats} (first page)`, paths: [seats], token: manager },
      { what: `GET ${seats}?idApp=2`, paths: [`${seats}?idApp=2`], token: manager },
      { what: `GET ${seats}?cursor=<half-way>`, paths: [`${seats}?cursor=${cursor([1, middle])}`], token: manager },
      { what: `GET ${seats}?email=<part of one address>`, paths: [`${seats}?email=miembro004242`], token: manager },
      { what: `GET /empresas/${bigId}/informe-puestos`, paths: [`/empresas/${bigId}/informe-puestos`], token: manager },
      { what: 'GET /auth/user, a member with two seats', paths: ['/auth/user'], token: seated },
      {
        what: 'POST /plan-usuario/user-app-plans, a member with two seats',
        paths: ['/plan-usuario/user-app-plans'],
        token: seated,
        body: { idUsuario: seatedId },
      },
      { what: 'GET /auth/user, a person in no company', paths: ['/auth/user'], token: loner },
      {
        what: 'POST /plan-usuario/user-app-plans, a person in no company',
        paths: ['/plan-usuario/user-app-plans'],
        token: loner,
        body: { idUsuario: lonerId },
      },
    ];
    const rows: string[] = [];
    const floors: number[] = [];
    for (const call of calls) {
      const base = call.paths[0] === '/bare' ? bare : api;
      await measure({ ...call, paths: call.paths.slice(0, 1) }, base); // warm-up: plans, caches, the email sample
      const { p50, p95, processor, sample } = await measure(call, base);
      // The floor again after each row: the machine's load moves it, and each row is read against the two around it.
      const floor = base === bare ? p95 : (await measure(calls[0]!, bare)).p95;
      floors.push(floor);
      const total = (sample as { total?: number }).total;
      const ratio = base === bare ? '' : `${(p95 / floor).toFixed(1)}×`;
      rows.push(
        `| ${call.what} | ${p50.toFixed(1)} / ${p95.toFixed(1)} | ${ratio} | ${processor === undefined ? '—' : Math.round(processor)} | ${total ?? ''} |`,
      );
    }
    console.log(`PostgreSQL, ${requests} peticiones por fila, ${inFlight} en vuelo; ms.\n`);
    console.log('| call | p50 / p95 ms | p95 ÷ bare p95 after it | server µs a request | total |');
    console.log('|---|---:|---:|---:|---:|');
    for (const row of rows) console.log(row);
  } finally {
    await server.stop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const url = seededDatabaseUrl('companies.bench.ts');
  if (!url) process.exit(0);
  await main(url);
}
