import assert from 'node:assert/strict';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { Clock } from '../../src/domain/sign-in-limits/counters.js';
import type { MailTransport, OutgoingMail } from '../../src/domain/mail/mailer.js';

/** Redis of this machine kind (started before every session and CI run); REDIS_URL points elsewhere. */
export const testRedisUrl = process.env.REDIS_URL || 'redis://127.0.0.1:6379';

/** A clock that only moves when the test says so. */
export function manualClock(start = Date.UTC(2026, 0, 15, 12)): Clock & { advance(ms: number): void } {
  let now = start;
  const clock = () => now;
  clock.advance = (ms: number) => {
    now += ms;
  };
  return clock;
}

/** Keeps every mail handed to it, in order. */
export function capturingTransport(): MailTransport & { mails: OutgoingMail[] } {
  const mails: OutgoingMail[] = [];
  return {
    mails,
    async send(mail) {
      mails.push(mail);
    },
  };
}

/** The 6-digit code a mail carries (subject, text and HTML all show it). */
export function codeIn(mail: OutgoingMail | undefined): string {
  assert.ok(mail, 'expected a mail');
  const code = /\b(\d{6})\b/.exec(mail.text)?.[1];
  assert.ok(code, `no code in: ${mail.text}`);
  return code;
}

/** Delivers what is due and answers the mails sent to `email`. */
export async function mailsTo(app: FastifyInstance, transport: { mails: OutgoingMail[] }, email: string) {
  await app.mailer.deliverDue();
  return transport.mails.filter((mail) => mail.to === email);
}

export const registration = (email: string, overrides: Record<string, unknown> = {}) => ({
  email,
  password: 'clave-segura-1',
  name: 'Ana',
  lastName: 'Pérez',
  phone: '+51 987654321',
  ...overrides,
});

export function post(
  app: FastifyInstance,
  url: string,
  payload: unknown,
  token?: string,
): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'POST',
    url,
    payload: payload as object,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
}
