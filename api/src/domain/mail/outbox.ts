import { randomUUID } from 'node:crypto';
import { and, asc, count, eq, inArray, isNull, lte, min, or } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { mailOutbox } from '../../db/schema.js';
import { isDatabaseUnavailable } from '../../lib/errors.js';
import { currentRequestId } from '../../lib/request-scope.js';
import type { Clock } from '../clock.js';
import { serialRounds } from '../serial-rounds.js';
import { type Mailer, type MailTransport, type OutgoingMail, redactSubject, retryDelayMs } from './mailer.js';

const pollMs = 5_000;
const batchSize = 20;
/**
 * A claim is short and renewed every `heartbeatMs` while its sender lives: a crashed instance's mails are taken over
 * by another one (or by itself restarted) within `leaseMs` plus one poll, instead of minutes.
 */
export const leaseMs = 10_000;
const heartbeatMs = 3_000;
/** Past this, one send is given up (and retried later), whatever the SMTP server does. */
export const sendTimeoutMs = 20_000;
/** At shutdown, sends in progress get this long to finish before their claims are released. */
const closeGraceMs = 2_000;

/** What the outbox needs: the database, the clock, where mails go, and how to report trouble. */
export interface OutboxDeps {
  db: Db;
  clock: Clock;
  transport: MailTransport;
  log: {
    info(details: object, message: string): void;
    warn(details: object, message: string): void;
    error(details: object, message: string): void;
  };
  /** A database outage: the outage tracker's to report (once). */
  databaseLost(error: unknown): void;
  /** Counts deliveries for the metrics. */
  metrics: OutboxMetrics;
}

export interface OutboxMetrics {
  mailSent(): void;
  mailSendFailed(): void;
}

/**
 * Mails not yet sent and how long the oldest has waited, for the metrics: both read from the partial index of unsent
 * mail (migration 0017), so the cost follows the backlog, not the table.
 */
export async function outboxBacklog(db: Db, now: number): Promise<{ pending: number; oldestAgeSeconds: number }> {
  const [row] = await db
    .select({ pending: count(), oldest: min(mailOutbox.createdAt) })
    .from(mailOutbox)
    .where(isNull(mailOutbox.sentAt));
  const oldest = row?.oldest ? new Date(row.oldest).getTime() : undefined;
  return {
    pending: Number(row?.pending ?? 0),
    oldestAgeSeconds: oldest === undefined ? 0 : Math.max(0, (now - oldest) / 1000),
  };
}

/** The mailer and its delivery loop: `start` once the app is ready, `close` when it shuts down. */
export interface OutboxMailer extends Mailer {
  start(): void;
  close(): Promise<void>;
}

/**
 * Mails written to the outbox with the change that causes them, and delivered by a loop that claims due rows for a
 * short, renewed lease (instances sharing the database skip each other's rows) and retries failures with backoff.
 */
export function createOutboxMailer(deps: OutboxDeps): OutboxMailer {
  const { db, clock, transport } = deps;
  let closed = false;
  // The instance's name on its claims: renewed and released by it alone.
  const instanceId = randomUUID();
  /** Ids this instance has claimed and not yet marked sent or released. */
  const held = new Set<number>();
  /** Rejects every send in progress when the app closes (after `closeGraceMs`), so shutdown is not held by SMTP. */
  let abortSends!: (error: Error) => void;
  const aborted = new Promise<never>((_resolve, reject) => {
    abortSends = reject;
  });
  aborted.catch(() => {});

  /** A database outage is the outage tracker's to report (once); anything else is a bug worth its stack. */
  function reportFailure(error: unknown, what: string) {
    if (isDatabaseUnavailable(error)) deps.databaseLost(error);
    else deps.log.error({ err: error }, what);
  }

  async function claimDue(now: Date) {
    const due = db
      .select({ id: mailOutbox.id })
      .from(mailOutbox)
      .where(
        and(
          isNull(mailOutbox.sentAt),
          lte(mailOutbox.nextAttemptAt, now),
          or(isNull(mailOutbox.lockedUntil), lte(mailOutbox.lockedUntil, now)),
        ),
      )
      .orderBy(asc(mailOutbox.id))
      .limit(batchSize)
      // Instances sharing PostgreSQL skip each other's rows instead of sending the same mail twice.
      .for('update', { skipLocked: true });
    const claimed = await db
      .update(mailOutbox)
      .set({ lockedUntil: new Date(now.getTime() + leaseMs), claimedBy: instanceId })
      .where(inArray(mailOutbox.id, due))
      .returning();
    for (const mail of claimed) held.add(mail.id);
    return claimed;
  }

  /** Extends this instance's claims while their mails are being sent. */
  async function renewClaims() {
    if (held.size === 0) return;
    await db
      .update(mailOutbox)
      .set({ lockedUntil: new Date(clock() + leaseMs) })
      .where(and(inArray(mailOutbox.id, [...held]), eq(mailOutbox.claimedBy, instanceId), isNull(mailOutbox.sentAt)));
  }

  /** Gives back every claim this instance still holds, due at once for whichever instance polls next. */
  async function releaseClaims() {
    await db
      .update(mailOutbox)
      .set({ lockedUntil: null, claimedBy: null })
      .where(and(eq(mailOutbox.claimedBy, instanceId), isNull(mailOutbox.sentAt)));
    held.clear();
  }

  function send(mail: OutgoingMail): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(
        () => reject(new Error(`no answer from the mail server within ${sendTimeoutMs} ms`)),
        sendTimeoutMs,
      );
    });
    return Promise.race([transport.send(mail), late, aborted]).finally(() => clearTimeout(timer));
  }

  async function deliverRound(): Promise<number> {
    let delivered = 0;
    for (;;) {
      if (closed) return delivered;
      const batch = await claimDue(new Date(clock()));
      const results = await Promise.all(
        batch.map(async (mail) => {
          try {
            await send({ to: mail.recipient, subject: mail.subject, text: mail.textBody, html: mail.htmlBody });
          } catch (error) {
            if (closed) return 0; // released with the others at close, due at once: not a failed attempt
            const attempts = mail.attempts + 1;
            deps.metrics.mailSendFailed();
            deps.log.warn(
              { err: error, mailId: mail.id, reqId: mail.requestId ?? undefined, attempts },
              'mail delivery failed; will retry',
            );
            await db
              .update(mailOutbox)
              .set({
                attempts,
                nextAttemptAt: new Date(clock() + retryDelayMs(attempts)),
                lockedUntil: null,
                claimedBy: null,
                lastError: String((error as Error).message ?? error).slice(0, 500),
              })
              .where(eq(mailOutbox.id, mail.id));
            held.delete(mail.id);
            return 0;
          }
          // Subject and bodies hold the code in clear text: once delivered they are erased (the subject keeps its words,
          // its digits become dots); recipient, attempts and times stay for operators.
          await db
            .update(mailOutbox)
            .set({
              sentAt: new Date(clock()),
              attempts: mail.attempts + 1,
              lockedUntil: null,
              claimedBy: null,
              subject: redactSubject(mail.subject),
              textBody: '',
              htmlBody: '',
            })
            .where(eq(mailOutbox.id, mail.id));
          held.delete(mail.id);
          deps.metrics.mailSent();
          deps.log.info(
            { mailId: mail.id, reqId: mail.requestId ?? undefined, attempts: mail.attempts + 1 },
            'mail sent',
          );
          return 1;
        }),
      );
      delivered += results.reduce<number>((sum, one) => sum + one, 0);
      if (batch.length < batchSize) return delivered;
    }
  }

  const pendingWork = new Set<Promise<void>>();
  function later(work: () => Promise<void>) {
    const task: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
      .then(work)
      .then(runInBackground, (error) => reportFailure(error, 'background mail work failed'))
      .finally(() => pendingWork.delete(task));
    pendingWork.add(task);
  }

  const rounds = serialRounds(deliverRound, () => closed);
  async function deliverDue(): Promise<number> {
    await Promise.all(pendingWork);
    return rounds.run();
  }

  const runInBackground = () => {
    if (closed) return;
    deliverDue().catch((error) => reportFailure(error, 'mail delivery round failed'));
  };
  const timer = setInterval(runInBackground, pollMs);
  timer.unref();
  const heartbeat = setInterval(() => {
    renewClaims().catch((error) => reportFailure(error, 'renewing mail claims failed'));
  }, heartbeatMs);
  heartbeat.unref();

  return {
    async enqueue(into, mail) {
      const now = new Date(clock());
      await into.insert(mailOutbox).values({
        recipient: mail.to,
        subject: mail.subject,
        textBody: mail.text,
        htmlBody: mail.html,
        nextAttemptAt: now,
        createdAt: now,
        requestId: currentRequestId() ?? null,
      });
    },
    wake: runInBackground,
    later,
    deliverDue,
    start: runInBackground,
    async close() {
      await Promise.all(pendingWork);
      closed = true;
      clearInterval(timer);
      // Sends in progress may finish (and be marked sent) for a moment; then they are given up.
      const round = rounds.current()?.catch(() => 0);
      let grace: NodeJS.Timeout | undefined;
      await Promise.race([
        round,
        new Promise((resolve) => {
          grace = setTimeout(resolve, closeGraceMs);
        }),
      ]);
      clearTimeout(grace);
      abortSends(new Error('the API is shutting down'));
      transport.close?.();
      await round;
      clearInterval(heartbeat);
      // Another instance (or this one restarted) sends them at its next poll. A mail the SMTP server accepted but that
      // was not yet marked sent goes out twice: accepted, as a lost mail is worse.
      await releaseClaims().catch((error) => reportFailure(error, 'releasing mail claims failed'));
    },
  };
}
