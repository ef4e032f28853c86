// A company's activity log streamed to its SIEM on PostgreSQL (BENCH_DATABASE_URL names a server: a database of its own
// is created there and dropped; without it, the bench says so and exits 0): 10 000 committed entries of one company
// (written in 100 transactions of 100, as requests write them) delivered by the real worker to one destination, in
// order, from the first entry: an HTTPS NDJSON receiver in this process, and Debian's rsyslog over TLS (RFC 5425) when
// it is installed. The time from the worker's start to the last entry received. The log's writes are not measured:
// streaming adds a queue row to each (its place in the stream is given after it commits: decision 0162).
// node --import tsx bench/audit-streams.bench.ts   (BENCH_AUDIT_ENTRIES changes the 10 000)
import { generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { migrate } from '../src/db/migrate.js';
import { seed } from '../src/db/seed.js';
import { auditActorJson } from '../src/domain/audit/log.js';
import { placeEntries } from '../src/domain/audit/positions.js';
import { scimActor } from '../src/domain/companies/scim/membership.js';
import { createAuditStream } from '../src/domain/audit-streams/destinations.js';
import { createAuditStreamWorker } from '../src/domain/audit-streams/worker.js';
import { sealingKey } from '../src/lib/sealed.js';
import { freePort, waitFor } from '../test/helpers/processes.js';
import { rsyslogd, rsyslogIn, testCertificates } from '../test/helpers/rsyslog.js';
import { benchDatabase, seededDatabaseUrl } from './seeded.js';

const entries = Number(process.env.BENCH_AUDIT_ENTRIES || 10_000);
const limitSeconds = 30;
const baseUrl = seededDatabaseUrl('audit-streams.bench.ts');
if (!baseUrl) process.exit(0);
const { database, drop } = await benchDatabase(baseUrl, 'portal_bench_siem');
const { db } = database;
const dir = mkdtempSync(join(tmpdir(), 'portal-bench-siem-'));
const key = sealingKey(generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey, 'bench audit stream secret');
const deps = { db, sealingKey: key, privateNetwork: true, now: Date.now };
const actor = { user: { id: null, email: 'bench' } };

/** The worker's time to deliver every entry to the one destination: until `received()` (asked every `everyMs`) counts them all. */
async function timeDelivery(received: () => number, everyMs: number): Promise<number> {
  const worker = createAuditStreamWorker({
    db,
    clock: Date.now,
    sealingKey: key,
    privateNetwork: true,
    timeoutMs: 30_000,
    hostname: 'bench.portal.local',
    mailer: { enqueue: async () => {}, wake() {}, later() {}, deliverDue: async () => 0 },
    portalUrl: 'http://localhost:3000',
    log: { warn() {}, error: (details) => console.error(details) },
    databaseLost: (error) => console.error(error),
  });
  // The places an instance's sequencer gives as they commit: not the sender's time.
  await placeEntries(db);
  const started = performance.now();
  worker.start();
  // The entries plus the destination's own creation, which is in the company's log too.
  await waitFor('every entry delivered', () => received() >= entries + 1, 600_000, everyMs);
  const elapsed = (performance.now() - started) / 1000;
  await worker.close();
  return elapsed;
}

/** A company whose log holds `entries` committed entries, 100 a transaction. */
async function companyWithLog(label: string): Promise<number> {
  const rows = await db.execute(sql`INSERT INTO companies (name) VALUES (${label}) RETURNING id`);
  const companyId = (rows as unknown as { rows: { id: number }[] }).rows[0]!.id;
  for (let written = 0; written < entries; written += 100)
    await db.execute(sql`SELECT audit_write(${auditActorJson(scimActor)}::jsonb, jsonb_agg(jsonb_build_object(
        'action', 'company.member_provision', 'targetType', 'company', 'targetId', ${companyId}::int,
        'companyId', ${companyId}::int, 'details', jsonb_build_object('email', 'p' || n || '@minera.bench', 'fuente', 'scim'))
        ORDER BY n))
      FROM generate_series(${written + 1}::int, ${Math.min(written + 100, entries)}::int) AS n`);
  return companyId;
}

try {
  await migrate(database);
  await seed(db, { adminEmail: 'bench@portal.local', adminPassword: 'clave-del-benchmark' });
  const certs = testCertificates(dir);
  const results: { destination: string; seconds: number }[] = [];

  let https = 0;
  let requests = 0;
  const receiver = createServer(
    { cert: readFileSync(certs.certFile), key: readFileSync(certs.keyFile) },
    (request, response) => {
      let body = '';
      request.setEncoding('utf8');
      request.on('data', (chunk) => {
        body += chunk;
      });
      request.on('end', () => {
        requests++;
        https += body.split('\n').filter(Boolean).length;
        response.writeHead(200).end();
      });
    },
  );
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const httpsCompany = await companyWithLog('Bench HTTPS S.A.');
  await createAuditStream(deps, actor, httpsCompany, {
    tipo: 'https',
    url: `https://127.0.0.1:${(receiver.address() as { port: number }).port}/ingesta`,
    formato: 'ndjson',
    ca: certs.ca,
  });
  const httpsSeconds = await timeDelivery(() => https, 10);
  results.push({ destination: `HTTPS NDJSON, ${requests} POST`, seconds: httpsSeconds });
  receiver.close();

  if (existsSync(rsyslogd)) {
    const rsyslog = rsyslogIn(dir, await freePort(), certs);
    await rsyslog.start();
    try {
      const syslogCompany = await companyWithLog('Bench syslog S.A.');
      await createAuditStream(deps, actor, syslogCompany, {
        tipo: 'syslog',
        host: '127.0.0.1',
        puerto: rsyslog.port,
        ca: certs.ca,
      });
      results.push({
        destination: 'syslog TLS (RFC 5425) a rsyslog',
        seconds: await timeDelivery(() => rsyslog.count(), 100),
      });
    } finally {
      await rsyslog.kill();
    }
  } else console.log(`syslog: omitido, no hay ${rsyslogd}`);

  console.log(
    `${entries} entradas confirmadas de una empresa a un destino, en orden, desde la primera (límite ${limitSeconds} s)`,
  );
  console.log('| destino | segundos | entradas/s |');
  console.log('|---|---:|---:|');
  for (const { destination, seconds } of results)
    console.log(`| ${destination} | ${seconds.toFixed(1)} | ${Math.round((entries + 1) / seconds)} |`);
} finally {
  await drop();
  rmSync(dir, { recursive: true, force: true });
}
