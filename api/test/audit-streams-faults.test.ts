// A company's log streamed to Debian's rsyslog over TLS (RFC 5425) by the API as a real process on a PostgreSQL server
// of this file's own, through two faults: the API killed (SIGKILL) while it delivers, then started again; and the
// database stopped and started under the running API while it delivers. Each time every committed entry arrives, in
// the log's order, and the only repeats are the ones docs/registro-para-siem.md allows: the batch that was on its way,
// sent again whole from its first entry.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { batchSize } from '../src/domain/audit-streams/worker.js';
import { createPostgresCluster, type PostgresCluster } from './helpers/postgres-cluster.js';
import { type ApiProcess, freePort, startApi, waitFor } from './helpers/processes.js';
import { type Rsyslog, rsyslogIn, testCertificates } from './helpers/rsyslog.js';

/** Entries per fault: several batches, so that the fault falls inside one with others before and after it. */
const entries = 3 * batchSize;

/**
 * Checks what a receiver got (`received`, event ids in arrival order) against the log (`expected`, in cursor order,
 * its batches starting at `expected[0]`): every entry, in order; at most one run sent again, and only the batch that
 * was on its way, from its first entry. Answers how many entries came twice.
 */
function assertEveryEntryInOrder(received: string[], expected: string[]): number {
  let next = 0;
  let repeated = 0;
  for (const [at, id] of received.entries()) {
    if (id === expected[next]) {
      next++;
      continue;
    }
    const from = expected.indexOf(id);
    assert.ok(
      from >= 0 && from < next,
      `entry ${id} (received #${at}) is out of order or not in the log; ${expected[next]} was due`,
    );
    assert.equal(repeated, 0, `a second run sent again, at received #${at}`);
    assert.equal(from % batchSize, 0, `the repeat begins at entry #${from}, not at the first of a batch`);
    assert.ok(next - from <= batchSize, `${next - from} entries sent again: more than the batch on its way`);
    repeated = next - from;
    next = from + 1;
  }
  assert.equal(next, expected.length, `${expected.length - next} entries never arrived`);
  return repeated;
}

describe('audit-streams-faults.test.ts: the SIEM stream through a killed API and a restarted database', () => {
  const dir = mkdtempSync(join(tmpdir(), 'portal-siem-faults-'));
  let cluster: PostgresCluster;
  let db: pg.Pool;
  let rsyslog: Rsyslog;
  let api: ApiProcess | undefined;
  let companyId: number;
  let env: Record<string, string | undefined>;

  /** `count` rules changes of the company, committed in transactions of 100. */
  const changes = async (count: number) => {
    for (let first = 0; first < count; first += 100)
      await db.query(
        `SELECT audit_write('{"actorEmail": "duena@minera.test"}', jsonb_agg(jsonb_build_object(
           'action', 'company.settings_change', 'targetType', 'company', 'targetId', $1::int, 'companyId', $1::int,
           'details', jsonb_build_object('sesionMaximaHoras', jsonb_build_object('de', n - 1, 'a', n))) ORDER BY n))
         FROM generate_series($2::int, $3::int) n`,
        [companyId, first + 1, Math.min(count, first + 100)],
      );
  };
  /** The company's entries after the first `skip`, in the log's (the cursor's) order: those still unplaced last. */
  const logIds = async (skip: number) =>
    (
      await db.query<{ id: string }>(
        `SELECT a.id::text AS id FROM audit_log a LEFT JOIN audit_positions p ON p.entry_id = a.id
         WHERE a.company_id = $1 ORDER BY p.position NULLS LAST, a.id OFFSET $2`,
        [companyId, skip],
      )
    ).rows.map((row) => row.id);
  /** The event ids rsyslog wrote after its first `skip` messages, in the order it wrote them. */
  const receivedIds = (skip: number) =>
    rsyslog
      .received()
      .slice(skip)
      .map((line) => {
        assert.equal(line.msgId, 'company.settings_change');
        return (JSON.parse(line.msg) as { event: { id: string } }).event.id;
      });
  /** Whether rsyslog wrote `id` last (the log's last entry: every entry arrived, if they come in order). */
  const lastIs = (id: string | undefined) => {
    const last = rsyslog.received().at(-1);
    return last !== undefined && (JSON.parse(last.msg) as { event: { id: string } }).event.id === id;
  };
  const setStatus = (status: 'activo' | 'pausado') =>
    db.query('UPDATE audit_streams SET status = $1, next_attempt_at = now() WHERE company_id = $2', [
      status,
      companyId,
    ]);

  before(async () => {
    const certs = testCertificates(dir);
    [cluster, rsyslog] = await Promise.all([
      createPostgresCluster(),
      freePort().then((port) => rsyslogIn(dir, port, certs)),
    ]);
    await rsyslog.start();
    db = new pg.Pool({ connectionString: cluster.url, max: 2 });
    db.on('error', () => {});
    env = { DATABASE_URL: cluster.url, DATA_DIR: join(dir, 'datos'), REDIS_URL: undefined };
    api = await startApi(env); // it migrates the new database
    companyId = (
      await db.query<{ id: number }>(`INSERT INTO companies (name) VALUES ('Minera del Sur S.A.') RETURNING id`)
    ).rows[0]!.id;
    // The destination as the API's route makes it (audit-streams.test.ts), paused until the first test's log is written.
    await db.query(
      `INSERT INTO audit_streams (company_id, kind, settings, status) VALUES ($1, 'syslog', $2, 'pausado')`,
      [companyId, { host: '127.0.0.1', puerto: rsyslog.port, ca: certs.ca, certificado: null }],
    );
  });
  after(async () => {
    if (api && api.child.exitCode !== null && api.child.signalCode !== 'SIGKILL')
      process.stderr.write(`the API exited:\n${api.output()}\n`);
    await api?.stop();
    await db?.end().catch(() => {});
    await Promise.all([cluster?.drop(), rsyslog?.kill()]);
    rmSync(dir, { recursive: true, force: true });
  });

  it('the API killed (SIGKILL) mid-stream and started again: every entry arrives, in order, one batch at most twice', async () => {
    await changes(entries);
    await setStatus('activo');
    // Once the second batch reaches rsyslog, rsyslog hangs: the API, waiting for it to close the batch's connection (or
    // sending the next one), cannot finish it. Killed there; rsyslog then reads whatever the dead API's socket had sent.
    const atKill = await waitFor(
      'the second batch at rsyslog',
      () => rsyslog.count() > batchSize && rsyslog.count(),
      30_000,
      5,
    );
    rsyslog.freeze();
    api!.child.kill('SIGKILL');
    await new Promise((resolve) => api!.child.once('exit', resolve));
    rsyslog.thaw();
    assert.ok(atKill < entries, `everything had arrived (${atKill}) before the API was killed`);
    // Committed while no API runs: sent too, after the rest.
    await changes(10);
    const expected = await logIds(0);
    api = await startApi(env);
    // The dead instance's claim on the destination lapses (15 s), then the new one sends from the saved position.
    await waitFor('the last entry at rsyslog', () => lastIs(expected.at(-1)), 40_000, 50);
    const repeated = assertEveryEntryInOrder(receivedIds(0), expected);
    process.stdout.write(`# killed at ${atKill} received; ${repeated} sent again\n`);
    const [stream] = (await db.query('SELECT last_error FROM audit_streams WHERE company_id = $1', [companyId])).rows;
    assert.equal(stream.last_error, null);
  });

  it('the database stopped and started while entries are pending and being sent: every entry arrives, in order', async () => {
    const earlier = rsyslog.count();
    await setStatus('pausado');
    await changes(entries);
    await setStatus('activo');
    // rsyslog hangs with part of the first batch read; the database stops; rsyslog then takes the whole batch, but the
    // API cannot save how far it got.
    await waitFor('a batch on its way', () => rsyslog.count() > earlier, 30_000, 5);
    rsyslog.freeze();
    const atStop = rsyslog.count() - earlier;
    await cluster.stop().finally(() => rsyslog.thaw());
    assert.ok(atStop < entries, `everything had arrived (${atStop}) before the database stopped`);
    await waitFor('the batch at rsyslog', () => rsyslog.count() - earlier >= batchSize, 10_000, 20);
    await cluster.start();
    // Committed once it is back: sent too.
    await changes(10);
    const expected = await logIds(entries + 10);
    await waitFor('the last entry at rsyslog', () => lastIs(expected.at(-1)), 40_000, 50);
    const repeated = assertEveryEntryInOrder(receivedIds(earlier), expected);
    process.stdout.write(`# stopped at ${atStop} received; ${repeated} sent again\n`);
    assert.equal(api!.child.exitCode, null, 'the API outlived its database');
    const answer = await fetch(`${api!.url}/health`);
    assert.equal(answer.status, 200);
  });
});
