// The one sender on PostgreSQL (BENCH_DATABASE_URL names a server: a database of its own is created there and
// dropped; without it, the bench says so and exits 0), the whole API running as `npm start` runs it:
// 1. Idle with 100 SIEM destinations (20 companies, 5 each, every one caught up): the database transactions the
//    instance makes a second, read from pg_stat_database over a quiet minute by a connection to another database.
// 2. The same 100 destinations, one of them hung (its collector never answers): an entry written every 50 ms to a
//    company in turn for 20 s; the time from each write's commit to its arrival at each of its company's collectors
//    (p50, p95, max), against one POST to the same collector (the bare baseline).
// 3. Twelve companies streaming while one collector answers each POST after 8 s (three destinations): each of the
//    twelve's changes at its collector.
// node --import tsx bench/sender.bench.ts
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request as httpsRequest, createServer, type Server } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { auditActorJson } from '../src/domain/audit/log.js';
import { scimActor } from '../src/domain/companies/scim/membership.js';
import { createAuditStream } from '../src/domain/audit-streams/destinations.js';
import { sealingKey } from '../src/lib/sealed.js';
import { waitFor } from '../test/helpers/processes.js';
import { testCertificates } from '../test/helpers/rsyslog.js';
import { startBenchApi } from './bench-api.js';
import { benchDatabase, seededDatabaseUrl } from './seeded.js';

const baseUrl = seededDatabaseUrl('sender.bench.ts');
if (!baseUrl) process.exit(0);
const { database, url, drop } = await benchDatabase(baseUrl, 'portal_bench_sender');
const databaseName = new URL(url).pathname.slice(1);
const dir = mkdtempSync(join(tmpdir(), 'portal-bench-sender-'));
const certs = testCertificates(dir);

/** A collector of NDJSON on loopback: when each entry (by its `portal.detalles.n`) arrived; answers after `delayMs`, or never. */
async function collector(delayMs: number | 'never' = 0) {
  const arrived = new Map<number, number>();
  let documents = 0;
  const server: Server = createServer(
    { cert: readFileSync(certs.certFile), key: readFileSync(certs.keyFile) },
    (request, response) => {
      let body = '';
      request.setEncoding('utf8');
      request.on('data', (chunk) => {
        body += chunk;
      });
      request.on('end', () => {
        if (delayMs === 'never') return;
        const answer = () => {
          const at = performance.now();
          for (const line of body.split('\n').filter(Boolean)) {
            documents++;
            const n = (JSON.parse(line) as { portal?: { detalles?: { n?: number } } }).portal?.detalles?.n;
            if (typeof n === 'number' && !arrived.has(n)) arrived.set(n, at);
          }
          if (!response.destroyed) response.writeHead(200).end();
        };
        if (delayMs > 0) setTimeout(answer, delayMs).unref();
        else answer();
      });
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    arrived,
    documents: () => documents,
    url: (path: string) => `https://127.0.0.1:${port}${path}`,
    close() {
      server.closeAllConnections();
      server.close();
    },
  };
}

/** One POST of one line to a collector, timed: the bare cost of what each delivery does at least once. */
function barePost(to: string): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const request = httpsRequest(to, { method: 'POST', ca: certs.ca, agent: false }, (response) => {
      response.resume();
      response.on('end', () => resolve(performance.now() - started));
    });
    request.on('error', reject);
    request.end('{"bare":true}\n');
  });
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};

const stats = new pg.Client({ connectionString: baseUrl });
await stats.connect();
/** Transactions committed and rolled back in the bench's database, as the statistics have them. */
const transactions = async () => {
  const { rows } = await stats.query<{ n: string }>(
    'SELECT xact_commit + xact_rollback AS n FROM pg_stat_database WHERE datname = $1',
    [databaseName],
  );
  return Number(rows[0]?.n ?? 0);
};

const { app, dispose } = await startBenchApi({
  DATABASE_URL: url,
  OIDC_BACKCHANNEL_PRIVATE_NETWORK: 'true',
  PARTNER_EVENTS_TIMEOUT_MS: '10000',
});
await app.ready();
const { db } = database;
const key = sealingKey(app.signingKey.privateKey, 'portal audit stream secret');
const deps = { db, sealingKey: key, privateNetwork: true, now: Date.now };
const actor = { user: { id: null, email: 'bench' } };
const written = new Map<number, number>();
let next = 0;
/** An entry of the company's, committed; when its write answered. */
async function write(companyId: number) {
  const n = ++next;
  await db.execute(sql`SELECT audit_write(${auditActorJson(scimActor)}::jsonb, jsonb_build_array(jsonb_build_object(
      'action', 'company.member_provision', 'targetType', 'company', 'targetId', ${companyId}::int,
      'companyId', ${companyId}::int, 'details', jsonb_build_object('n', ${n}::int))))`);
  written.set(n, performance.now());
  return n;
}

const collectors: Awaited<ReturnType<typeof collector>>[] = [];
try {
  // 1. 100 destinations, caught up, then a quiet minute.
  const companies: { id: number; at: Awaited<ReturnType<typeof collector>>[] }[] = [];
  const hung = await collector('never');
  collectors.push(hung);
  for (let c = 0; c < 20; c++) {
    const [row] = (
      (await db.execute(
        sql`INSERT INTO companies (name) VALUES (${`Banco ${c + 1} S.A.`}) RETURNING id`,
      )) as unknown as {
        rows: { id: number }[];
      }
    ).rows;
    const company = { id: row!.id, at: [] as Awaited<ReturnType<typeof collector>>[] };
    for (let d = 0; d < 5; d++) {
      const at = await collector();
      collectors.push(at);
      company.at.push(at);
      await createAuditStream(deps, actor, company.id, {
        tipo: 'https',
        url: at.url(`/d${d}`),
        formato: 'ndjson',
        ca: certs.ca,
      });
    }
    companies.push(company);
  }
  // Each collector holds its company's history (the destinations' creations): caught up.
  await waitFor(
    'caught up',
    () => companies.every((company) => company.at.every((at) => at.documents() >= 5)),
    120_000,
    50,
  );
  await new Promise((resolve) => setTimeout(resolve, 12_000));
  const quietSeconds = 60;
  const before = await transactions();
  await new Promise((resolve) => setTimeout(resolve, quietSeconds * 1000));
  // The statistics of an idle connection reach the view within 10 s of its last transaction.
  await new Promise((resolve) => setTimeout(resolve, 11_000));
  const idle = ((await transactions()) - before - 1) / (quietSeconds + 11);
  console.log(`Inactiva con 100 destinos al día: ${idle.toFixed(2)} transacciones por segundo (límite 1)`);

  // 2. One destination hung; an entry every 50 ms to a company in turn for 20 s.
  // The first company's first destination now points at a collector that never answers (a company has 5 at most).
  const first = companies[0]!;
  const moved = first.at.shift()!;
  await db.execute(sql`UPDATE audit_streams SET settings = jsonb_set(settings, '{url}', to_jsonb(${hung.url('/colgado')}::text))
      WHERE company_id = ${first.id} AND settings->>'url' = ${moved.url('/d0')}`);
  const bare: number[] = [];
  for (let i = 0; i < 50; i++) bare.push(await barePost(collectors[1]!.url('/bare')));
  const owedTo = new Map<number, Awaited<ReturnType<typeof collector>>[]>();
  const until = performance.now() + 20_000;
  for (let i = 0; performance.now() < until; i++) {
    const company = companies[i % companies.length]!;
    const n = await write(company.id);
    owedTo.set(n, company.at);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await waitFor(
    'every entry at every collector of its company',
    () => [...owedTo].every(([n, at]) => at.every((one) => one.arrived.has(n))),
    120_000,
    50,
  );
  const lags = [...owedTo].flatMap(([n, at]) => at.map((one) => (one.arrived.get(n) ?? 0) - (written.get(n) ?? 0)));
  console.log(
    `100 destinos y uno colgado: ${owedTo.size} entradas, ${lags.length} llegadas; retraso p50 ${percentile(lags, 50).toFixed(0)} ms, ` +
      `p95 ${percentile(lags, 95).toFixed(0)} ms, máx. ${Math.max(...lags).toFixed(0)} ms (límite p95 2 000 ms); ` +
      `un POST directo al mismo colector: p50 ${percentile(bare, 50).toFixed(1)} ms`,
  );

  // 3. Twelve companies while one collector answers after 8 s, with three destinations.
  const slow = await collector(8_000);
  collectors.push(slow);
  const second = companies[1]!;
  for (const [index, path] of ['/d0', '/d1', '/d2'].entries())
    await db.execute(sql`UPDATE audit_streams SET settings = jsonb_set(settings, '{url}', to_jsonb(${slow.url(`/${index}`)}::text))
        WHERE company_id = ${second.id} AND settings->>'url' = ${second.at[index]!.url(path)}`);
  await write(companies[1]!.id);
  const twelve = companies.slice(2, 14);
  const changes = new Map<number, Awaited<ReturnType<typeof collector>>[]>();
  for (const company of twelve) changes.set(await write(company.id), company.at);
  await waitFor(
    "the twelve companies' changes",
    () => [...changes].every(([n, at]) => at.every((one) => one.arrived.has(n))),
    120_000,
    20,
  );
  const slowLags = [...changes].flatMap(([n, at]) =>
    at.map((one) => (one.arrived.get(n) ?? 0) - (written.get(n) ?? 0)),
  );
  console.log(
    `12 empresas con un colector que responde a los 8 s: cada cambio en su colector en máx. ${Math.max(...slowLags).toFixed(0)} ms (límite 2 000 ms)`,
  );
} finally {
  for (const one of collectors) one.close();
  await dispose();
  await stats.end();
  await drop();
  rmSync(dir, { recursive: true, force: true });
}
