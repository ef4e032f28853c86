import { and, asc, eq, inArray, isNull, lte, or } from 'drizzle-orm'
import fp from 'fastify-plugin'
import nodemailer from 'nodemailer'
import type { Db } from '../../db/client.js'
import { mailOutbox } from '../../db/schema.js'
import type { MailContent } from '../../lib/mail-templates.js'

export interface OutgoingMail extends MailContent {
  to: string
}

/** Hands one mail over; rejecting means "not delivered, try again later". */
export interface MailTransport {
  send(mail: OutgoingMail): Promise<void>
  /** Ends open connections when the app closes. */
  close?(): void
}

export interface Mailer {
  /** Writes the mail to the outbox with the caller's transaction, so it exists exactly when the change commits. */
  enqueue(db: Db, mail: OutgoingMail): Promise<void>
  /** Starts a delivery round now instead of at the next poll (call after the transaction commits). */
  wake(): void
  /**
   * Runs `work` (which may enqueue mail) after the current request is answered, then starts a delivery round.
   * Answers that must not depend on whether an account exists use it: the lookup no longer shows in the response time.
   */
  later(work: () => Promise<void>): void
  /** Waits for the work handed to `later`, then delivers every mail that is due, answering how many were delivered. */
  deliverDue(): Promise<number>
}

declare module 'fastify' {
  interface FastifyInstance {
    mailer: Mailer
  }
}

const pollMs = 5_000
const batchSize = 20
/** SMTP connections each instance keeps open; a claimed batch is sent over them in parallel. */
const smtpConnections = 4
/** Long enough for a slow SMTP conversation; a crashed instance's claim runs out after it. */
const leaseMs = 2 * 60_000
const firstRetryMs = 10_000
const maxRetryMs = 30 * 60_000

/** 10 s, 20 s, 40 s… up to 30 min, and then every 30 min for as long as it takes: a mail is never dropped. */
export function retryDelayMs(attempts: number): number {
  return Math.min(maxRetryMs, firstRetryMs * 2 ** Math.min(attempts - 1, 20))
}

export function smtpTransport(url: string, from: string): MailTransport {
  const transporter = nodemailer.createTransport({
    url,
    // nodemailer waits minutes by default; a dead server should fail the attempt and leave the mail for a retry.
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
    // A few kept connections instead of one conversation per mail: under a burst of registrations a new connection
    // per mail (~100 ms each) left codes a minute late (`npm run load`).
    pool: true,
    maxConnections: smtpConnections,
  })
  return {
    async send(mail) {
      await transporter.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html })
    },
    close() {
      transporter.close()
    },
  }
}

/** The embedded default: each mail (code included) is printed, so a local install works without a mail server. */
export function consoleTransport(write: (text: string) => void): MailTransport {
  return {
    async send(mail) {
      write(`\n--- Correo para ${mail.to} ---\nAsunto: ${mail.subject}\n\n${mail.text}\n--- fin del correo ---\n\n`)
    },
  }
}

export interface MailerPluginOptions {
  /** Replaces the transport chosen from the configuration (tests capture mails). */
  transport?: MailTransport
}

export default fp<MailerPluginOptions>(async (app, options) => {
  const { config, clock } = app
  const transport = options.transport
    ?? (config.smtpUrl
      ? smtpTransport(config.smtpUrl, config.mailFrom)
      : consoleTransport((text) => { if (config.logLevel !== 'silent') process.stdout.write(text) }))

  async function claimDue(now: Date) {
    const due = app.db.select({ id: mailOutbox.id }).from(mailOutbox)
      .where(and(
        isNull(mailOutbox.sentAt),
        lte(mailOutbox.nextAttemptAt, now),
        or(isNull(mailOutbox.lockedUntil), lte(mailOutbox.lockedUntil, now)),
      ))
      .orderBy(asc(mailOutbox.id))
      .limit(batchSize)
      // Instances sharing PostgreSQL skip each other's rows instead of sending the same mail twice.
      .for('update', { skipLocked: true })
    return app.db.update(mailOutbox)
      .set({ lockedUntil: new Date(now.getTime() + leaseMs) })
      .where(inArray(mailOutbox.id, due))
      .returning()
  }

  async function deliverRound(): Promise<number> {
    let delivered = 0
    for (;;) {
      const batch = await claimDue(new Date(clock()))
      const results = await Promise.all(batch.map(async (mail) => {
        try {
          await transport.send({ to: mail.recipient, subject: mail.subject, text: mail.textBody, html: mail.htmlBody })
        } catch (error) {
          const attempts = mail.attempts + 1
          app.log.warn({ err: error, mailId: mail.id, attempts }, 'mail delivery failed; will retry')
          await app.db.update(mailOutbox).set({
            attempts,
            nextAttemptAt: new Date(clock() + retryDelayMs(attempts)),
            lockedUntil: null,
            lastError: String((error as Error).message ?? error).slice(0, 500),
          }).where(eq(mailOutbox.id, mail.id))
          return 0
        }
        // The bodies hold a code in clear text: once delivered they are erased, and only the record stays.
        await app.db.update(mailOutbox)
          .set({ sentAt: new Date(clock()), attempts: mail.attempts + 1, lockedUntil: null, textBody: '', htmlBody: '' })
          .where(eq(mailOutbox.id, mail.id))
        return 1
      }))
      delivered += results.reduce<number>((sum, one) => sum + one, 0)
      if (batch.length < batchSize) return delivered
    }
  }

  const pendingWork = new Set<Promise<void>>()
  function later(work: () => Promise<void>) {
    const task: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
      .then(work)
      .then(runInBackground, (error) => app.log.error({ err: error }, 'background mail work failed'))
      .finally(() => pendingWork.delete(task))
    pendingWork.add(task)
  }

  // One round at a time per instance; a wake-up during a round asks for another round right after it.
  let running: Promise<number> | undefined
  let again = false
  let closed = false
  async function deliverDue(): Promise<number> {
    await Promise.all(pendingWork)
    if (running) {
      again = true
      return running
    }
    running = (async () => {
      let total = 0
      do {
        again = false
        total += await deliverRound()
      } while (again && !closed)
      return total
    })().finally(() => { running = undefined })
    return running
  }

  const runInBackground = () => {
    if (closed) return
    deliverDue().catch((error) => app.log.error({ err: error }, 'mail delivery round failed'))
  }
  const timer = setInterval(runInBackground, pollMs)
  timer.unref()
  app.addHook('onReady', async () => runInBackground())
  app.addHook('onClose', async () => {
    await Promise.all(pendingWork)
    closed = true
    clearInterval(timer)
    await running?.catch(() => {})
    transport.close?.()
  })

  app.decorate('mailer', {
    async enqueue(db, mail) {
      const now = new Date(clock())
      await db.insert(mailOutbox).values({
        recipient: mail.to,
        subject: mail.subject,
        textBody: mail.text,
        htmlBody: mail.html,
        nextAttemptAt: now,
        createdAt: now,
      })
    },
    wake: runInBackground,
    later,
    deliverDue,
  } satisfies Mailer)
}, { name: 'mailer', dependencies: ['database', 'counters'] })
