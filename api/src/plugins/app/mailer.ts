import { randomUUID } from 'node:crypto';
import { and, asc, eq, inArray, isNull, lte, or } from 'drizzle-orm';
import fp from 'fastify-plugin';
import nodemailer from 'nodemailer';
import type { Db } from '../../db/client.js';
import { mailOutbox } from '../../db/schema.js';
import { isDatabaseUnavailable } from '../../lib/errors.js';
import type { MailContent } from '../../lib/mail-templates.js';

export interface OutgoingMail extends MailContent {
  to: string;
}

/** Hands one mail over; rejecting means "not delivered, try again later". */
export interface MailTransport {
  send(mail: OutgoingMail): Promise<void>;
  /** Ends open connections when the app closes. */
  close?(): void;
}

export interface Mailer {
  /** Writes the mail to the outbox with the caller's transaction, so it exists exactly when the change commits. */
  enqueue(db: Db, mail: OutgoingMail): Promise<void>;
  /** Starts a delivery round now instead of at the next poll (call after the transaction commits). */
  wake(): void;
  /**
   * Runs `work` (which may enqueue mail) after the current request is answered, then starts a delivery round.
   * Answers that must not depend on whether an account exists use it: the lookup no longer shows in the response time.
   */
  later(work: () => Promise<void>): void;
  /** Waits for the work handed to `later`, then delivers every mail that is due, answering how many were delivered. */
  deliverDue(): Promise<number>;
}

declare module 'fastify' {
  interface FastifyInstance {
    mailer: Mailer;
  }
}

const pollMs = 5_000;
const batchSize = 20;
/** SMTP connections each instance keeps open; a claimed batch is sent over them in parallel. */
const smtpConnections = 4;
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
const firstRetryMs = 10_000;
const maxRetryMs = 30 * 60_000;

/** 10 s, 20 s, 40 s… up to 30 min, and then every 30 min for as long as it takes: a mail is never dropped. */
export function retryDelayMs(attempts: number): number {
  return Math.min(maxRetryMs, firstRetryMs * 2 ** Math.min(attempts - 1, 20));
}

/** A delivered mail's subject as kept: the code (and any other digit) becomes a dot. */
export function redactSubject(subject: string): string {
  return subject.replace(/\d/g, '•');
}

export function smtpTransport(url: string, from: string): MailTransport {
  const transporter = nodemailer.createTransport({
    url,
    // nodemailer waits minutes by default; a dead server (or one that accepts and never speaks) fails the attempt and
    // leaves the mail for a retry. `sendTimeoutMs` bounds the whole send on top of these.
    connectionTimeout: 5_000,
    greetingTimeout: 5_000,
    socketTimeout: 10_000,
    // A few kept connections instead of one conversation per mail: under a burst of registrations a new connection
    // per mail (~100 ms each) left codes a minute late (`npm run load`).
    pool: true,
    maxConnections: smtpConnections,
  });
  return {
    async send(mail) {
      await transporter.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html });
    },
    close() {
      transporter.close();
    },
  };
}

/** The embedded default: each mail (code included) is printed, so a local install works without a mail server. */
export function consoleTransport(write: (text: string) => void): MailTransport {
  return {
    async send(mail) {
      write(`\n--- Correo para ${mail.to} ---\nAsunto: ${mail.subject}\n\n${mail.text}\n--- fin del correo ---\n\n`);
    },
  };
}

export interface MailerPluginOptions {
  /** Replaces the transport chosen from the configuration (tests capture mails). */
  transport?: MailTransport;
}

export default fp<MailerPluginOptions>(
  async (app, options) => {
    const { config, clock } = app;
    let closed = false;
    const transport =
      options.transport ??
      (config.smtpUrl
        ? smtpTransport(config.smtpUrl, config.mailFrom)
        : consoleTransport((text) => {
            if (config.logLevel !== 'silent') process.stdout.write(text);
          }));

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
      if (isDatabaseUnavailable(error)) app.databaseOutage.lost(error);
      else app.log.error({ err: error }, what);
    }

    async function claimDue(now: Date) {
      const due = app.db
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
      const claimed = await app.db
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
      await app.db
        .update(mailOutbox)
        .set({ lockedUntil: new Date(clock() + leaseMs) })
        .where(and(inArray(mailOutbox.id, [...held]), eq(mailOutbox.claimedBy, instanceId), isNull(mailOutbox.sentAt)));
    }

    /** Gives back every claim this instance still holds, due at once for whichever instance polls next. */
    async function releaseClaims() {
      await app.db
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
              app.log.warn({ err: error, mailId: mail.id, attempts }, 'mail delivery failed; will retry');
              await app.db
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
            await app.db
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

    // One round at a time per instance; a wake-up during a round asks for another round right after it.
    let running: Promise<number> | undefined;
    let again = false;
    async function deliverDue(): Promise<number> {
      await Promise.all(pendingWork);
      if (running) {
        again = true;
        return running;
      }
      running = (async () => {
        let total = 0;
        do {
          again = false;
          total += await deliverRound();
        } while (again && !closed);
        return total;
      })().finally(() => {
        running = undefined;
      });
      return running;
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
    app.addHook('onReady', async () => runInBackground());
    app.addHook('onClose', async () => {
      await Promise.all(pendingWork);
      closed = true;
      clearInterval(timer);
      // Sends in progress may finish (and be marked sent) for a moment; then they are given up.
      const round = running?.catch(() => 0);
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
    });

    app.decorate('mailer', {
      async enqueue(db, mail) {
        const now = new Date(clock());
        await db.insert(mailOutbox).values({
          recipient: mail.to,
          subject: mail.subject,
          textBody: mail.text,
          htmlBody: mail.html,
          nextAttemptAt: now,
          createdAt: now,
        });
      },
      wake: runInBackground,
      later,
      deliverDue,
    } satisfies Mailer);
  },
  { name: 'mailer', dependencies: ['database', 'counters'] },
);
