import nodemailer from 'nodemailer';
import type { Db } from '../../db/client.js';
import type { MailContent } from './templates.js';

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

/** SMTP connections each instance keeps open; a claimed batch is sent over them in parallel. */
const smtpConnections = 4;

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
    // per mail makes codes arrive late (`npm run load`; docs/benchmarks.md).
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
