// GET /user/listar with an email filter, deep pages by number and by cursor, and GET /user/stats, on PostgreSQL with
// 1,000,000 users (seed-users.ts): p50 / p95 latency of the whole API, measured from a client with a few requests in
// flight. Needs BENCH_DATABASE_URL (never DATABASE_URL: the bench writes its own administrator and users); without
// it, it says so and exits 0 (the figures are PostgreSQL's).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { benchAdmin, benchSchema, benchUrl, benchUsers, seedUsers } from './seed-users.js';
import { seededDatabaseUrl } from './seeded.js';

const url = seededDatabaseUrl('users.bench.ts');
if (!url) process.exit(0);

const requests = Number(process.env.BENCH_REQUESTS || 200);
const inFlight = 4;

const seeded = await seedUsers(url);
console.log(`Esquema ${benchSchema} con ${seeded.users} usuarios listo en ${seeded.seconds} s.\n`);

const server = spawn(process.execPath, ['--import', 'tsx', new URL('./server.ts', import.meta.url).pathname], {
  // server.ts opens the PostgreSQL named by BENCH_DATABASE_URL: here, inside the seeded schema.
  env: {
    ...process.env,
    BENCH_DATABASE_URL: benchUrl(url),
    ADMIN_EMAIL: benchAdmin.email,
    ADMIN_PASSWORD: benchAdmin.password,
    // The bench's administrator signs in with a password alone. What a required second factor adds to each request
    // is a flag of the session already read, not a query: the figures are the same either way.
    ADMIN_SECOND_FACTOR: 'optional',
  },
  stdio: ['ignore', 'pipe', 'inherit'],
});
const [line] = (await once(createInterface({ input: server.stdout! }), 'line')) as [string];
const { api } = JSON.parse(line) as { api: string };

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** `requests` GETs, `inFlight` at a time, cycling through `paths`; answers p50/p95 in ms and the rows answered. */
async function measure(paths: string[], token: string) {
  const times: number[] = [];
  let next = 0;
  let sample: unknown;
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < requests) {
        const path = paths[next++ % paths.length]!;
        const started = performance.now();
        const response = await fetch(`${api}${path}`, { headers: { authorization: `Bearer ${token}` } });
        const body = await response.json();
        times.push(performance.now() - started);
        if (response.status !== 200) throw new Error(`${path}: ${response.status} ${JSON.stringify(body)}`);
        sample ??= body;
      }
    }),
  );
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p95: percentile(times, 95), sample };
}

/**
 * Keyset pagination (docs/decisions/0020-user-list-keyset-and-day-paging.md): a page in the middle of the unfiltered
 * list by number (an offset: the index walks every row before it) against the pages beside it by cursor, and pages
 * past the middle, found from the end.
 */
async function deepPages(token: string): Promise<Array<{ what: string; paths: string[] }>> {
  const read = async (path: string) => {
    const response = await fetch(`${api}${path}`, { headers: { authorization: `Bearer ${token}` } });
    return (await response.json()) as { totalPages: number; nextCursor: string | null; prevCursor: string | null };
  };
  const middle = Math.floor((await read('/user/listar')).totalPages / 2);
  const onScreen = await read(`/user/listar?page=${middle}`);
  const next = await read(`/user/listar?page=${middle + 1}&after=${onScreen.nextCursor}`);
  const { totalPages } = next;
  return [
    { what: `GET /user/listar?page=${middle} (middle, by offset)`, paths: [`/user/listar?page=${middle}`] },
    {
      what: `GET /user/listar?page=${middle + 1}&after=<cursor> (next page)`,
      paths: [`/user/listar?page=${middle + 1}&after=${onScreen.nextCursor}`],
    },
    {
      what: `GET /user/listar?page=${middle}&before=<cursor> (previous page)`,
      paths: [`/user/listar?page=${middle}&before=${next.prevCursor}`],
    },
    {
      what: `GET /user/listar?page=${Math.round(totalPages * 0.75)} (three quarters in, from the end)`,
      paths: [`/user/listar?page=${Math.round(totalPages * 0.75)}`],
    },
    {
      what: `GET /user/listar?page=${totalPages} (last page, from the end)`,
      paths: [`/user/listar?page=${totalPages}`],
    },
  ];
}

try {
  const login = await fetch(`${api}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: benchAdmin.email, password: benchAdmin.password }),
  });
  const { access_token: token } = (await login.json()) as { access_token: string };

  // Substrings an admin would type: part of one address (a handful of matches), a domain (2 % of all users),
  // mixed case, and one that matches nobody.
  const cases: Array<{ what: string; paths: string[] }> = [
    {
      what: 'GET /user/listar?email=<part of one address>',
      paths: ['0012345', '0456789', '0777777', '0999001'].map((e) => `/user/listar?email=${e}`),
    },
    {
      what: 'GET /user/listar?email=<domain, 20 000 matches>',
      paths: ['@dominio7.', '@dominio23.', '@dominio41.'].map((e) => `/user/listar?email=${encodeURIComponent(e)}`),
    },
    {
      what: 'GET /user/listar?email=<mixed case>',
      paths: ['USUARIO0004242', 'Usuario0123456'].map((e) => `/user/listar?email=${e}`),
    },
    { what: 'GET /user/listar?email=<no match>', paths: ['/user/listar?email=nadie-coincide'] },
    { what: 'GET /user/listar (no filter, newest first)', paths: ['/user/listar'] },
    { what: 'GET /user/stats', paths: ['/user/stats'] },
    ...(await deepPages(token)),
  ];

  const rows: string[] = [];
  for (const { what, paths } of cases) {
    await measure(paths.slice(0, 1), token); // warm-up: plans and caches
    const { p50, p95, sample } = await measure(paths, token);
    const total = (sample as { total?: number }).total ?? (sample as { totalUsers?: number }).totalUsers;
    rows.push(`| ${what} | ${p50.toFixed(1)} | ${p95.toFixed(1)} | ${total ?? ''} |`);
  }

  console.log(`PostgreSQL, ${benchUsers} usuarios, ${requests} peticiones por fila, ${inFlight} en vuelo.\n`);
  console.log('| call | p50 ms | p95 ms | total |');
  console.log('|---|---:|---:|---:|');
  for (const row of rows) console.log(row);
} finally {
  server.kill('SIGTERM');
  await once(server, 'exit');
}
