// Streaming each company's activity log to its SIEM destinations, on every instance (docs/decisions/0139-audit-streams.md),
// by the one sender (domain/sender.ts): each destination is a lane, claimed by one instance at a time (a short
// claim on its row, renewed while it sends, lapsing if the instance dies) and only when its company has entries past
// the last one it sent. A lane reads the company's log after its cursor (domain/audit/ecs.ts: entries in the order of
// their places, never one skipped) in batches, and moves the cursor only once the receiver took the batch: at least
// once, in order. After a few batches it gives its place to the destinations served longer ago. A failure is retried
// with a growing wait; after 24 h of failures the destination pauses and the company's owners are mailed. Resumed, it
// sends what it missed from where it got to.
import { and, eq, inArray, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client.js';
import { auditStreams, companies, companyMembers, users } from '../../db/schema.js';
import { recordAudit, systemActor } from '../audit/log.js';
import { companyLogAfter, positionOf, positionText } from '../audit/ecs.js';
import type { Clock } from '../clock.js';
import type { Mailer } from '../mail/mailer.js';
import { auditStreamPausedMail } from '../mail/templates.js';
import { createSender, type Sender, type Served } from '../sender.js';
import { notServedHere, rowClaims } from '../row-claims.js';
import { targetOf } from './destinations.js';
import { auditStreamMessages as M } from './messages.js';
import { send, type SendOptions } from './transports.js';

/** Destinations served at once by one instance; more due wait their turn, longest unserved first. */
const lanesPerInstance = 32;
/** Batches a destination sends before it gives its place to the others (and is claimed again after them). */
const batchesPerTurn = 4;
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

/** This instance's sender of the SIEM streams: `deliverDue` resolves with how many entries were delivered. */
export type AuditStreamWorker = Sender;

type Stream = typeof auditStreams.$inferSelect;

export function createAuditStreamWorker(deps: AuditStreamWorkerDeps): AuditStreamWorker {
  const { db, clock } = deps;
  const claims = rowClaims(db, 'audit_streams', clock);
  const { instanceId } = claims;
  // The signal of each send is the sender's: aborted when the instance shuts down, the batches in flight end at once
  // (and are sent again).
  const sendOptions: Omit<SendOptions, 'signal'> = {
    privateNetwork: deps.privateNetwork,
    timeoutMs: deps.timeoutMs,
    hostname: deps.hostname,
  };

  /**
   * Claims up to `limit` active destinations not in `busy`, due (no retry pending) and whose company has entries past
   * the last one they sent, served longest ago first: a delivered batch moves `next_attempt_at` to its time.
   */
  async function claim(limit: number, busy: ReadonlySet<string>): Promise<Stream[]> {
    const now = new Date(clock());
    const ids = await rowsOf<{ id: string }>(
      db,
      sql`UPDATE audit_streams s SET claimed_by = ${instanceId}, locked_until = ${claims.leaseEnd()}
          WHERE s.id IN (
            SELECT c.id FROM audit_streams c
            WHERE c.status = 'activo' AND c.next_attempt_at <= ${now}
              AND (c.locked_until IS NULL OR c.locked_until <= ${now}) ${notServedHere(busy)}
              AND ((c.sent_position IS NULL AND c.cursor IS NOT NULL)
                OR EXISTS (SELECT 1 FROM audit_positions p
                           WHERE p.company_id = c.company_id AND p.position > coalesce(c.sent_position, 0)))
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

  /**
   * Sends the company's entries after the destination's cursor, batch after batch, until none is left, one fails, or
   * its turn ends with more to send.
   */
  async function drain(stream: Stream, signal: AbortSignal): Promise<Served> {
    const target = targetOf(deps.sealingKey, stream);
    let after = stream.cursor ? positionOf(stream.cursor) : undefined;
    let delivered = 0;
    for (let batch = 0; !signal.aborted; batch++) {
      if (batch === batchesPerTurn) return { delivered, more: true };
      const page = await companyLogAfter(db, stream.companyId, after, batchSize);
      if (page.data.length === 0) {
        // Nothing past a cursor that only names an entry, or past the start: its place is kept as a number.
        if (stream.sentPosition === null)
          await db
            .update(auditStreams)
            .set({ cursor: after === undefined ? null : positionText(page.last), sentPosition: page.last.position })
            .where(and(eq(auditStreams.id, stream.id), eq(auditStreams.claimedBy, instanceId)));
        return { delivered };
      }
      const result = await send(target, page.data, { ...sendOptions, signal });
      const now = new Date(clock());
      if (result.ok) {
        const last = page.data.at(-1);
        const [kept] = await db
          .update(auditStreams)
          .set({
            cursor: positionText(page.last),
            sentPosition: page.last.position,
            deliveredUntil: last ? new Date(last['@timestamp']) : null,
            deliveredAt: now,
            lastError: null,
            failingSince: null,
            attempts: 0,
            // Served now: the claim serves the destinations waiting longer first.
            nextAttemptAt: now,
          })
          .where(and(eq(auditStreams.id, stream.id), eq(auditStreams.claimedBy, instanceId)))
          .returning({ status: auditStreams.status });
        delivered += page.data.length;
        // Deleted, paused by its company or its claim lost meanwhile: this instance stops here.
        if (kept?.status !== 'activo') return { delivered };
        after = page.last;
        continue;
      }
      if (result.interrupted) return { delivered };
      const attempts = stream.attempts + 1;
      const failingSince = stream.failingSince ?? now;
      if (now.getTime() - failingSince.getTime() >= pauseAfterMs) {
        await pause(stream, result.error);
        return { delivered };
      }
      const retryAt = new Date(now.getTime() + retryDelayMs(attempts));
      await db
        .update(auditStreams)
        .set({ lastError: result.error, attempts, failingSince, nextAttemptAt: retryAt })
        .where(and(eq(auditStreams.id, stream.id), eq(auditStreams.claimedBy, instanceId)));
      deps.log.warn(
        { auditStreamId: stream.id, attempts, error: result.error, code: result.code },
        'audit stream delivery failed; will retry',
      );
      return { delivered, dueAt: retryAt };
    }
    return { delivered };
  }

  return createSender<Stream>(
    {
      name: 'audit stream',
      maxLanes: lanesPerInstance,
      keyOf: (stream) => stream.id,
      claim,
      serve: drain,
      release: (stream) => claims.release(stream.id),
      renew: claims.renew,
    },
    { ...deps, now: clock },
  );
}
