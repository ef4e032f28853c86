// A directory's first full sync over SCIM 2.0: 10 000 people into one company on PostgreSQL, as Microsoft Entra ID's
// initial cycle makes it (for each person a `userName eq` filter GET, which finds nothing, then a POST), a few
// requests in flight over keep-alive. Beside it, in the same run, the same number of requests to a bare Fastify route
// (the floor). The sync must finish within a minute. Needs BENCH_DATABASE_URL; without it, it says so and exits 0.
// BENCH_SCIM_PEOPLE changes the 10 000; BENCH_SCIM_IN_FLIGHT the 4 requests in flight.
import { createHash, randomBytes } from 'node:crypto';
import { Agent, request as httpRequest } from 'node:http';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { openPostgres } from '../src/db/client.js';
import { migrate } from '../src/db/migrate.js';
import { seed } from '../src/db/seed.js';
import { startBenchServer } from './spawn-server.js';
import { seededDatabaseUrl } from './seeded.js';

const schema = process.env.BENCH_SCIM_SCHEMA || 'bench_scim';
const people = Number(process.env.BENCH_SCIM_PEOPLE || 10_000);
const inFlight = Number(process.env.BENCH_SCIM_IN_FLIGHT || 4);
const limitSeconds = 60;
export const admin = { email: 'bench-admin@portal.local', password: 'clave-del-benchmark' };
export const domain = 'minera-scim.example';

export function schemaUrl(url: string, schemaName = schema): string {
  const parsed = new URL(url);
  parsed.searchParams.delete('options');
  const options = `options=${encodeURIComponent(`-c search_path=${schemaName}`)}`;
  return `${parsed.toString()}${parsed.search ? '&' : '?'}${options}`;
}

/** A fresh schema with one company: its owner, its proved domain, a licence and a directory token. */
export async function prepare(url: string, schemaName = schema): Promise<{ token: string; companyId: number }> {
  const setup = new pg.Client({ connectionString: url });
  await setup.connect();
  try {
    await setup.query(`DROP SCHEMA IF EXISTS ${schemaName} CASCADE`);
    await setup.query(`CREATE SCHEMA ${schemaName}`);
  } finally {
    await setup.end();
  }
  const database = openPostgres(url, { searchPath: schemaName, timeoutMs: 600_000 });
  try {
    await migrate(database);
    await seed(database.db, { adminEmail: admin.email, adminPassword: admin.password });
    const token = `scim_${randomBytes(32).toString('base64url')}`;
    const companyId = await database.transaction(async (sql) => {
      const [company] = await sql.query<{ id: number }>(
        "INSERT INTO companies (name) VALUES ('Minera SCIM S.A.') RETURNING id",
      );
      const id = company!.id;
      const [owner] = await sql.query<{ id: number }>(
        `INSERT INTO users (email, name, status) VALUES ('duena@${domain}', 'Dueña', 'active') RETURNING id`,
      );
      await sql.query("INSERT INTO company_members (company_id, user_id, role) VALUES ($1, $2, 'propietario')", [
        id,
        owner!.id,
      ]);
      await sql.query(
        `INSERT INTO company_domains (company_id, domain, verification_token, verified_at, verified_by)
         VALUES ($1, $2, 'bench', now(), 'admin')`,
        [id, domain],
      );
      await sql.query(
        `INSERT INTO company_licences (company_id, app_id, plan_id, seats, expires_at)
         VALUES ($1, 1, (SELECT id FROM plans WHERE app_id = 1 AND nombre = 'PRO'), 20000, now() + interval '1 year')`,
        [id],
      );
      await sql.query(
        'INSERT INTO company_scim_tokens (company_id, token_hash, prefix, description) VALUES ($1, $2, $3, $4)',
        [id, createHash('sha256').update(token).digest('hex'), token.slice(0, 12), 'benchmark'],
      );
      return id;
    });
    return { token, companyId };
  } finally {
    await database.close();
  }
}

export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/**
 * One request over the bench's keep-alive connections (node:http: fetch spends more of this machine's processor than
 * the server does, and the load generator shares it): its status and body.
 */
export const agent = new Agent({ keepAlive: true, maxSockets: inFlight });
export function call(url: string, method = 'GET', headers: Record<string, string> = {}, body?: string) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const sent = httpRequest(url, { method, headers, agent }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        text += chunk;
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
      response.on('error', reject);
    });
    sent.on('error', reject);
    sent.end(body);
  });
}

/** `count` jobs, `inFlight` at a time: the seconds it took and each job's time (ms), sorted. */
export async function run(count: number, job: (index: number) => Promise<void>) {
  const times: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < count) {
        const index = next++;
        const begun = performance.now();
        await job(index);
        times.push(performance.now() - begun);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return { seconds, times: times.sort((a, b) => a - b) };
}

/**
 * What Entra ID does for one person of its initial cycle: look them up by userName (finding nothing), then create them.
 * Answers the milliseconds of each request.
 */
export async function entraProvision(api: string, headers: Record<string, string>, name: string, index: number) {
  const asked = performance.now();
  const found = await call(
    `${api}/scim/v2/Users?filter=${encodeURIComponent(`userName eq "${name}"`)}`,
    'GET',
    headers,
  );
  const list = JSON.parse(found.body) as { totalResults: number };
  if (found.status !== 200 || list.totalResults !== 0) throw new Error(`GET ${name}: ${found.status}`);
  const posted = performance.now();
  const payload = JSON.stringify({
    schemas: [
      'urn:ietf:params:scim:schemas:core:2.0:User',
      'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User',
    ],
    externalId: `ext-${index}`,
    userName: name,
    active: true,
    emails: [{ primary: true, type: 'work', value: name }],
    name: { givenName: 'Persona', familyName: String(index) },
    displayName: `Persona ${index}`,
    'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User': { department: 'Operaciones' },
  });
  const created = await call(
    `${api}/scim/v2/Users`,
    'POST',
    { ...headers, 'content-type': 'application/scim+json', 'content-length': String(Buffer.byteLength(payload)) },
    payload,
  );
  if (created.status !== 201) throw new Error(`POST ${name}: ${created.status} ${created.body}`);
  return { get: posted - asked, post: performance.now() - posted, id: (JSON.parse(created.body) as { id: string }).id };
}

async function main(url: string) {
  const { token, companyId } = await prepare(url);
  const server = await startBenchServer({
    BENCH_DATABASE_URL: schemaUrl(url),
    ADMIN_EMAIL: admin.email,
    ADMIN_PASSWORD: admin.password,
    ADMIN_SECOND_FACTOR: 'optional',
  });
  const { api, bare } = server;
  const headers = { authorization: `Bearer ${token}` };
  const userName = (index: number) => `persona${String(index).padStart(5, '0')}@${domain}`;

  /** What Entra ID does for one person of its initial cycle: look them up, then create them. */
  const getTimes: number[] = [];
  const postTimes: number[] = [];
  const provision = async (index: number) => {
    const took = await entraProvision(api, headers, userName(index), index);
    getTimes.push(took.get);
    postTimes.push(took.post);
  };
  const floor = async () => {
    for (let i = 0; i < 2; i++) JSON.parse((await call(`${bare}/bare`)).body);
  };

  try {
    // Warm-up: the connections, the plans of the statements, the JIT (people not counted below).
    await run(100, (index) => provision(people + index));
    await run(200, floor);

    getTimes.length = 0;
    postTimes.length = 0;
    const bareRun = await run(people, floor);
    const before = server.processorSeconds();
    const sync = await run(people, provision);
    const after = server.processorSeconds();
    const bareAfter = await run(people, floor);

    const check = new pg.Client({ connectionString: schemaUrl(url) });
    await check.connect();
    let counts: { resources: number; members: number; log: number };
    try {
      const { rows } = await check.query<{ resources: number; members: number; log: number }>(
        `SELECT (SELECT count(*)::int FROM company_scim_users WHERE company_id = $1) AS resources,
                (SELECT count(*)::int FROM company_members WHERE company_id = $1) AS members,
                (SELECT count(*)::int FROM company_scim_requests WHERE company_id = $1) AS log`,
        [companyId],
      );
      counts = rows[0]!;
    } finally {
      await check.end();
    }
    const floorSeconds = (bareRun.seconds + bareAfter.seconds) / 2;
    const processor = before === undefined || after === undefined ? undefined : ((after - before) * 1e6) / (2 * people);
    console.log(
      `PostgreSQL, ${people} personas (GET con filtro y POST por persona), ${inFlight} peticiones en vuelo, keep-alive.\n`,
    );
    console.log('| run | total s | per person p50 / p95 ms | ÷ bare | server µs a request |');
    console.log('|---|---:|---:|---:|---:|');
    console.log(
      `| SCIM full sync (${2 * people} requests) | ${sync.seconds.toFixed(1)} | ${percentile(sync.times, 50).toFixed(2)} / ${percentile(sync.times, 95).toFixed(2)} | ${(sync.seconds / floorSeconds).toFixed(1)}× | ${processor === undefined ? '—' : Math.round(processor)} |`,
    );
    console.log(
      `| bare Fastify route, same ${2 * people} requests (before / after) | ${bareRun.seconds.toFixed(1)} / ${bareAfter.seconds.toFixed(1)} | ${percentile(bareRun.times, 50).toFixed(2)} / ${percentile(bareRun.times, 95).toFixed(2)} | | |`,
    );
    getTimes.sort((a, b) => a - b);
    postTimes.sort((a, b) => a - b);
    for (const [what, times] of [
      ['GET /Users?filter=userName eq "…" (finds nothing)', getTimes],
      ['POST /Users', postTimes],
    ] as const) {
      console.log(`| ${what} | | ${percentile(times, 50).toFixed(2)} / ${percentile(times, 95).toFixed(2)} | | |`);
    }
    console.log(
      `\nEn la empresa: ${counts.resources} recursos SCIM, ${counts.members} miembros, ${counts.log} peticiones en su registro (guarda 1000).`,
    );
    if (counts.resources !== people + 100 || counts.members !== people + 101) {
      throw new Error('the sync did not provision everyone');
    }
    if (sync.seconds >= limitSeconds) {
      console.error(`La sincronización tardó ${sync.seconds.toFixed(1)} s: más de ${limitSeconds} s.`);
      process.exitCode = 1;
    }
  } finally {
    agent.destroy();
    await server.stop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const url = seededDatabaseUrl('scim-sync.bench.ts');
  if (!url) process.exit(0);
  await main(url);
}
