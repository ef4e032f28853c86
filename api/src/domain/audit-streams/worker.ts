// Streaming each company's activity log to its SIEM destinations, on every instance (docs/decisions/0139-audit-streams.md).
// A destination is sent to by one instance at a time (a short claim on its row, renewed while it sends, lapsing if the
// instance dies); it reads the company's log after its cursor (domain/audit/ecs.ts: committed entries only, in commit
// order, never one skipped) in batches, and moves the cursor only once the receiver took the batch: at least once, in
// order. A failure is retried with a growing wait; after 24 h of failures the destination pauses and the company's
// owners are mailed. Resumed, it sends what it missed from where it got to.
import { and, eq, inArray, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client.js';
import { auditStreams, companies, companyMembers, users } from '../../db/schema.js';
import { isDatabaseUnavailable } from '../../lib/errors.js';
import { recordAudit, systemActor } from '../audit/log.js';
import { companyLogAfter, positionOf, positionText } from '../audit/ecs.js';
import type { Clock } from '../clock.js';
import type { Mailer } from '../mail/mailer.js';
import { auditStreamPausedMail } from '../mail/templates.js';
import { rowClaims } from '../row-claims.js';
import { serialRounds } from '../serial-rounds.js';
import { targetOf } from './destinations.js';
import { auditStreamMessages as M } from './messages.js';
import { send, type SendOptions } from './transports.js';

const pollMs = 1_000;
const heartbeatMs = 4_000;
const streamsPerRound = 8;
/** Entries per batch: one TLS connection or one POST each. */
export const batchSize = 500;
/** Failing this long since the last delivery, a destination pauses. */
export const pauseAfterMs = 24 * 60 * 60_000;
const firstRetryMs = 1_000;
const maxRetryMs = 15_000;

/** 1 s, 2 s, 4 s, 8 s, then every 15 s while a receiver is down: it is sent to within seconds of coming back. */
export const retryDelayMs = (attempts: number) => Math.min(maxRetryMs, firstRetryMs * 2 ** Math.min(attempts - 1, 20));

export interface AuditStreamWorkerDeps {
  db: Db;
  clock: Clock;
  sealingKey: Buffer;
  privateNetwork: boolean;
  timeoutMs: number;
  /** This portal's host name, as a syslog message's HOSTNAME. */
  hostname: string;
  mailer: Mailer;
  portalUrl: string;
  log: { warn(details: object, message: string): void; error(details: object, message: string): void };
  databaseLost(error: unknown): void;
}

export interface AuditStreamWorker {
  /** Sends whatever is due now; resolves with how many entries were delivered. */
  deliverDue(): Promise<number>;
  wake(): void;
  start(): void;
  close(): Promise<void>;
}

type Stream = typeof auditStreams.$inferSelect;

export function createAuditStreamWorker(deps: AuditStreamWorkerDeps): AuditStreamWorker {
  const { db, clock } = deps;
  const claims = rowClaims(db, 'audit_streams', clock);
  const { instanceId } = claims;
  let closed = false;
  // Aborted when the instance shuts down: the batches in flight end at once (and are sent again).
  const shutdown = new AbortController();
  const sendOptions: SendOptions = {
    privateNetwork: deps.privateNetwork,
    timeoutMs: deps.timeoutMs,
    signal: shutdown.signal,
    hostname: deps.hostname,
  };

  async function claim(limit: number): Promise<Stream[]> {
    const now = new Date(clock());
    const ids = await rowsOf<{ id: string }>(
      db,
      sql`UPDATE audit_streams s SET claimed_by = ${instanceId}, locked_until = ${claims.leaseEnd()}
          WHERE s.id IN (
            SELECT c.id FROM audit_streams c
            WHERE c.status = 'activo' AND c.next_attempt_at <= ${now}
              AND (c.locked_until IS NULL OR c.locked_until <= ${now})
            ORDER BY c.next_attempt_at LIMIT ${limit} FOR UPDATE SKIP LOCKED)
          AND (s.locked_until IS NULL OR s.locked_until <= ${now})
          RETURNING s.id`,
    );
    if (ids.length === 0) return [];
    claims.took(ids.map(({ id }) => id));
    return db
      .select()
      .from(auditStreams)
      .where(
        inArray(
          auditStreams.id,
          ids.map(({ id }) => id),
        ),
      );
  }

  /** After 24 h of failures: paused, audited in the company's log, and its owners mailed, in one transaction. */
  async function pause(stream: Stream, error: string) {
    await db.transaction(async (tx) => {
      const [paused] = await tx
        .update(auditStreams)
        .set({ status: 'pausado', lastError: `${M.paused}. ${error}`, updatedAt: new Date(clock()) })
        .where(and(eq(auditStreams.id, stream.id), eq(auditStreams.claimedBy, instanceId)))
        .returning({ id: auditStreams.id });
      if (!paused) return;
      const settings = stream.settings;
      const destination = 'host' in settings ? `${settings.host}:${settings.puerto}` : settings.url;
      await recordAudit(tx, systemActor, [
        {
          action: 'company.audit_stream_paused',
          target: { type: 'company', id: stream.companyId },
          details: { flujo: stream.id, tipo: stream.kind, destino: destination, motivo: error },
          companyId: stream.companyId,
        },
      ]);
      const owners = await tx
        .select({ email: users.email, name: users.name, company: companies.name })
        .from(companyMembers)
        .innerJoin(users, eq(users.id, companyMembers.userId))
        .innerJoin(companies, eq(companies.id, companyMembers.companyId))
        .where(
          and(
            eq(companyMembers.companyId, stream.companyId),
            eq(companyMembers.role, 'propietario'),
            eq(companyMembers.status, 'active'),
          ),
        );
      for (const owner of owners)
        await deps.mailer.enqueue(tx, {
          to: owner.email,
          ...auditStreamPausedMail({
            name: owner.name ?? '',
            company: owner.company,
            companyId: stream.companyId,
            destination,
            error,
            portalUrl: deps.portalUrl,
          }),
        });
    });
    deps.mailer.wake();
  }

  /** Sends the company's entries after the destination's cursor, batch after batch, until none is left or one fails. */
  async function drain(stream: Stream): Promise<number> {
    const target = targetOf(deps.sealingKey, stream);
    let after = stream.cursor ? positionOf(stream.cursor) : undefined;
    let delivered = 0;
    while (!closed) {
      const page = await companyLogAfter(db, stream.companyId, after, batchSize);
      if (page.data.length === 0) return delivered;
      const result = await send(target, page.data, sendOptions);
      const now = new Date(clock());
      if (result.ok) {
        const last = page.data.at(-1);
        const [kept] = await db
          .update(auditStreams)
          .set({
            cursor: positionText(page.last),
            deliveredUntil: last ? new Date(last['@timestamp']) : null,
            deliveredAt: now,
            lastError: null,
            failingSince: null,
            attempts: 0,
          })
          .where(and(eq(auditStreams.id, stream.id), eq(auditStreams.claimedBy, instanceId)))
          .returning({ status: auditStreams.status });
        delivered += page.data.length;
        // Deleted, paused by its company or its claim lost meanwhile: this instance stops here.
        if (kept?.status !== 'activo') return delivered;
        after = page.last;
        continue;
      }
      if (result.interrupted) return delivered;
      const attempts = stream.attempts + 1;
      const failingSince = stream.failingSince ?? now;
      if (now.getTime() - failingSince.getTime() >= pauseAfterMs) {
        await pause(stream, result.error);
        return delivered;
      }
      await db
        .update(auditStreams)
        .set({
          lastError: result.error,
          attempts,
          failingSince,
          nextAttemptAt: new Date(now.getTime() + retryDelayMs(attempts)),
        })
        .where(and(eq(auditStreams.id, stream.id), eq(auditStreams.claimedBy, instanceId)));
      deps.log.warn(
        { auditStreamId: stream.id, attempts, error: result.error, code: result.code },
        'audit stream delivery failed; will retry',
      );
      return delivered;
    }
    return delivered;
  }

  async function round(): Promise<number> {
    let delivered = 0;
    for (;;) {
      if (closed) return delivered;
      const streams = await claim(streamsPerRound);
      if (streams.length === 0) return delivered;
      const counts = await Promise.all(
        streams.map((stream) =>
          drain(stream)
            .catch((error) => {
              reportFailure(error, 'audit stream drain failed');
              return 0;
            })
            .finally(() => claims.release(stream.id).catch(() => {})),
        ),
      );
      delivered += counts.reduce((sum, count) => sum + count, 0);
      // What was due is sent: the next poll comes back for what commits meanwhile.
      if (counts.every((count) => count === 0)) return delivered;
    }
  }

  function reportFailure(error: unknown, what: string) {
    if (isDatabaseUnavailable(error)) deps.databaseLost(error);
    else deps.log.error({ err: error }, what);
  }

  const rounds = serialRounds(round, () => closed);
  const deliverDue = () => rounds.run();
  const wake = () => {
    if (!closed) deliverDue().catch((error) => reportFailure(error, 'audit stream round failed'));
  };
  let timer: NodeJS.Timeout | undefined;
  let heartbeat: NodeJS.Timeout | undefined;

  return {
    deliverDue,
    wake,
    start() {
      timer = setInterval(wake, pollMs);
      timer.unref();
      heartbeat = setInterval(() => {
        claims.renew().catch((error) => reportFailure(error, 'renewing audit stream claims failed'));
      }, heartbeatMs);
      heartbeat.unref();
      wake();
    },
    async close() {
      closed = true;
      clearInterval(timer);
      clearInterval(heartbeat);
      shutdown.abort();
      await rounds.current()?.catch(() => 0);
      await claims.releaseAll().catch(() => {});
    },
  };
}
