// Two builds measured at once on one machine: this checkout's bench server and another checkout's (BENCH_BEFORE, the
// root of a worktree of the build before a change), both up for the whole run, in rounds that alternate which build
// goes first, so that what the rest of the machine does falls on both alike. Per round and build: the bare Fastify
// route, GET /auth/user at 50 connections, introspection of an offline access token at 50 connections, and the refresh
// grant in 8 rotating chains; once per round the reference route (server.ts: helmet, CORS, a token found in a Map)
// that GET /auth/user is held to. Each window reads the server's processor time from /proc (and, on PostgreSQL, that
// of its database's connections): on a shared machine it moves far less than the rates do. Medians of the rounds,
// with the lowest and highest.
//
// With BENCH_DATABASE_URL (a PostgreSQL server) each build gets an empty database of its own there, which its server
// migrates, and the signed-in person is an active member of a company with rules (networks, session length,
// inactivity), as the company-rules check of each refresh reads them; the databases are dropped at the end. Without it,
// each build runs on a throw-away PGlite and the person is in no company.
//
// BENCH_BEFORE=/work/base node --import tsx bench/side-by-side.ts   (BENCH_ROUNDS, 6; BENCH_SECONDS per window, 3)
import autocannon from 'autocannon';
import pg from 'pg';
import { TestBrowser } from '../test/helpers/oidc.js';
import { createBenchClient } from './oidc-client.js';
import { type BenchServer, processorSecondsOf, startBenchServer } from './spawn-server.js';

const before = process.env.BENCH_BEFORE;
if (!before) throw new Error('BENCH_BEFORE: la raíz de la otra copia (la versión de antes)');
const rounds = Number(process.env.BENCH_ROUNDS || 6);
const seconds = Number(process.env.BENCH_SECONDS || 3);
const databaseServer = process.env.BENCH_DATABASE_URL;
const adminEmail = 'bench@portal.local';
const adminPassword = 'clave-del-benchmark';
const chains = 8;
const json = { 'content-type': 'application/json' };

const admin = databaseServer ? new pg.Client({ connectionString: databaseServer }) : undefined;
await admin?.connect();
const databaseOf = (build: string) => `portal_bench_${build}_${process.pid}`;
const urlOf = (name: string) => Object.assign(new URL(databaseServer ?? 'postgres://x'), { pathname: `/${name}` }).href;

/** A server measured, and the database of its own whose connections' processor time counts with it (PostgreSQL). */
interface Target {
  server: BenchServer;
  database?: string;
}

interface Build extends Target {
  name: 'before' | 'after';
  /** The portal session's token and its GET /auth/user answer. */
  token: string;
  answer: unknown;
  /** The client's form headers, an offline access token of it, and the chains' current refresh tokens. */
  form: Record<string, string>;
  accessToken: string;
  refreshTokens: string[];
}

async function call(url: string, init: RequestInit = {}, expected = 200) {
  const response = await fetch(url, init);
  if (response.status !== expected) throw new Error(`${url}: ${response.status} ${await response.text()}`);
  return response.status === 204 ? undefined : ((await response.json()) as Record<string, unknown>);
}

/** A company with rules its session meets, the person an active member (PostgreSQL only: the membership is a row). */
async function joinCompany(api: string, token: string, databaseUrl: string) {
  const auth = { ...json, authorization: `Bearer ${token}` };
  const company = await call(
    `${api}/admin/empresas`,
    {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ nombre: 'Benchmark' }),
    },
    201,
  );
  const id = Number(company?.id);
  const database = new pg.Client({ connectionString: databaseUrl });
  await database.connect();
  await database.query(
    `insert into company_members (company_id, user_id, role) select $1, id, 'miembro' from users where email = $2`,
    [id, adminEmail],
  );
  await database.end();
  await call(`${api}/empresas/${id}/ajustes`, {
    method: 'PATCH',
    headers: auth,
    body: JSON.stringify({
      redesPermitidas: ['127.0.0.0/8', '::1/128'],
      sesionMaximaHoras: 24,
      inactividadMinutos: 60,
    }),
  });
}

async function start(name: Build['name']): Promise<Build> {
  const databaseUrl = admin ? urlOf(databaseOf(name)) : undefined;
  if (admin) await admin.query(`CREATE DATABASE ${databaseOf(name)}`);
  const server = await startBenchServer(
    {
      ADMIN_EMAIL: adminEmail,
      ADMIN_PASSWORD: adminPassword,
      ADMIN_SECOND_FACTOR: 'optional',
      BENCH_DATABASE_URL: databaseUrl,
    },
    name === 'before' ? { tree: before } : {},
  );
  const { api } = server;
  const signIn = async () =>
    String(
      (
        await call(`${api}/auth/login`, {
          method: 'POST',
          headers: json,
          body: JSON.stringify({ email: adminEmail, password: adminPassword }),
        })
      )?.access_token,
    );
  // The company first: joining it ends sessions that break its rules, and the measured session starts under them.
  if (databaseUrl) await joinCompany(api, await signIn(), databaseUrl);
  const token = await signIn();
  const auth = { authorization: `Bearer ${token}` };
  const answer = await call(`${api}/auth/user`, { headers: auth });
  const client = await createBenchClient(api, token);
  const tokens = await Promise.all(
    Array.from({ length: chains + 1 }, async () => {
      const browser = new TestBrowser(api);
      browser.portalToken = token;
      return client.redeem(await client.newCode(browser));
    }),
  );
  return {
    name,
    server,
    ...(admin ? { database: databaseOf(name) } : {}),
    token,
    answer,
    form: client.form,
    accessToken: String(tokens[0]?.access_token),
    refreshTokens: tokens.slice(1).map((found) => found.refresh_token),
  };
}

interface Window {
  perSecond: number;
  /** The server's processor time a request, µs. */
  processor: number;
  /** The processor time of the database's connections a request, µs (PostgreSQL; 0 on PGlite, in the server). */
  database: number;
  /** Mean time a request, ms (the refresh chains). */
  latency?: number;
}

/** The processor seconds used so far by each server process of the target's database's connections, by pid. */
async function databaseSeconds(database: string | undefined): Promise<Map<number, number>> {
  const used = new Map<number, number>();
  if (!admin || !database) return used;
  const { rows } = await admin.query<{ pid: number }>('select pid from pg_stat_activity where datname = $1', [
    database,
  ]);
  for (const { pid } of rows) used.set(pid, processorSecondsOf(pid) ?? 0);
  return used;
}

/** What the connections open at the end used since the start (a connection opened meanwhile: all of its time). */
const databaseSpent = (from: Map<number, number>, to: Map<number, number>) =>
  [...to].reduce((sum, [pid, seconds]) => sum + seconds - (from.get(pid) ?? 0), 0);

/** `measure` on the target, with its server's processor time over it and its database connections'. */
async function timed(
  target: Target,
  measure: () => Promise<{ requests: number; perSecond: number; latency?: number }>,
) {
  const from = target.server.processorSeconds() ?? 0;
  const databaseFrom = await databaseSeconds(target.database);
  const { requests, perSecond, latency } = await measure();
  const processor = (((target.server.processorSeconds() ?? 0) - from) * 1e6) / requests;
  const database = (databaseSpent(databaseFrom, await databaseSeconds(target.database)) * 1e6) / requests;
  return { perSecond, processor, database, ...(latency === undefined ? {} : { latency }) } satisfies Window;
}

const load = (target: Target, options: autocannon.Options) =>
  timed(target, async () => {
    const result = await autocannon({ duration: seconds, connections: 50, ...options });
    if (result.non2xx > 0 || result.errors > 0)
      throw new Error(`${options.url}: ${result.non2xx} respuestas no 2xx y ${result.errors} errores`);
    return { requests: result.requests.total, perSecond: result.requests.total / seconds };
  });

/** `chains` connections each following its own chain of refresh tokens for the window. */
const refreshes = (build: Build) =>
  timed(build, async () => {
    let done = 0;
    let spent = 0;
    const end = Date.now() + seconds * 1000;
    await Promise.all(
      build.refreshTokens.map(async (_, chain) => {
        while (Date.now() < end) {
          const at = performance.now();
          const answer = await call(`${build.server.api}/oidc/token`, {
            method: 'POST',
            headers: build.form,
            body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: build.refreshTokens[chain] ?? '' }),
          });
          spent += performance.now() - at;
          done += 1;
          build.refreshTokens[chain] = String(answer?.refresh_token);
        }
      }),
    );
    return { requests: done, perSecond: done / seconds, latency: spent / done };
  });

type Row = 'bare' | 'user' | 'introspection' | 'refresh' | 'reference';
const results = new Map<string, Window[]>();
const note = (build: string, row: Row, window: Window) => {
  const key = `${build} ${row}`;
  results.set(key, [...(results.get(key) ?? []), window]);
};

const builds: Build[] = [];
try {
  builds.push(await start('before'), await start('after'));
  const after = builds[1] as Build;
  const reference = after.server.reference;
  if (!reference) throw new Error('the reference route is this build’s (server.ts)');
  await call(
    `${reference}/tokens`,
    {
      method: 'PUT',
      headers: json,
      body: JSON.stringify({ token: after.token, answer: after.answer }),
    },
    204,
  );
  // One untimed round first: the servers' code is compiled hot before any window counts.
  for (let round = -1; round < rounds; round++) {
    const order = round % 2 === 0 ? builds : [...builds].reverse();
    note(
      'both',
      'reference',
      await load(
        { server: after.server },
        { url: `${reference}/user`, headers: { authorization: `Bearer ${after.token}` } },
      ),
    );
    for (const build of order) {
      const { server } = build;
      note(build.name, 'bare', await load(build, { url: `${server.bare}/bare` }));
      note(
        build.name,
        'user',
        await load(build, { url: `${server.api}/auth/user`, headers: { authorization: `Bearer ${build.token}` } }),
      );
      note(
        build.name,
        'introspection',
        await load(build, {
          url: `${server.api}/oidc/token/introspection`,
          method: 'POST',
          headers: build.form,
          body: new URLSearchParams({ token: build.accessToken }).toString(),
        }),
      );
      note(build.name, 'refresh', await refreshes(build));
    }
    if (round === -1) results.clear();
    else process.stderr.write(`round ${round + 1} of ${rounds}\n`);
  }
} finally {
  await Promise.all(builds.map((build) => build.server.stop()));
  for (const name of ['before', 'after'] as const)
    await admin?.query(`DROP DATABASE IF EXISTS ${databaseOf(name)} WITH (FORCE)`);
  await admin?.end();
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
};
const spread = (values: number[], digits: number) =>
  `${median(values).toFixed(digits)} (${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)})`;
const windows = (build: string, row: Row) => results.get(`${build} ${row}`) ?? [];
/** Per round, a build's row's rate over another row's (the same round's window). */
const ratios = (build: string, row: Row, over: string, overRow: Row) =>
  windows(build, row).map((window, i) => window.perSecond / (windows(over, overRow)[i]?.perSecond ?? Number.NaN));

console.log(
  `${rounds} rounds, ${seconds} s a window, ${databaseServer ? 'PostgreSQL' : 'PGlite'}; medians (lowest–highest)\n`,
);
console.log('| row | before | after |');
console.log('|---|---:|---:|');
const processor = (row: Row) => (build: string) => windows(build, row).map((w) => w.processor);
const rows: [string, (build: string) => number[], number][] = [
  ['bare route, µs of processor a request', processor('bare'), 1],
  ['GET /auth/user, µs a request', processor('user'), 1],
  ['GET /auth/user ÷ the reference route (rate)', (b) => ratios(b, 'user', 'both', 'reference'), 2],
  ['GET /auth/user ÷ the bare route (rate)', (b) => ratios(b, 'user', b, 'bare'), 2],
  ['introspection, µs a request', processor('introspection'), 1],
  ['introspection ÷ the bare route (rate)', (b) => ratios(b, 'introspection', b, 'bare'), 2],
  ['refresh grant, ms a request (8 chains)', (b) => windows(b, 'refresh').map((w) => w.latency ?? 0), 2],
  ['refresh grant, µs of processor a request', processor('refresh'), 0],
];
if (admin) {
  const database = (row: Row) => (build: string) => windows(build, row).map((w) => w.database);
  rows.push(['refresh grant, µs of the database’s processor a request', database('refresh'), 0]);
  rows.push(['introspection, µs of the database’s processor a request', database('introspection'), 1]);
}
for (const [what, values, digits] of rows)
  console.log(`| ${what} | ${spread(values('before'), digits)} | ${spread(values('after'), digits)} |`);
const reference = windows('both', 'reference');
console.log(
  `\nthe reference route: ${spread(
    reference.map((w) => w.perSecond),
    0,
  )} a second, ${spread(
    reference.map((w) => w.processor),
    1,
  )} µs of processor a request`,
);
