import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { mailOutbox } from '../src/db/schema.js';
import { resetCodeMail, verificationCodeMail } from '../src/domain/mail/templates.js';
import { consoleTransport, retryDelayMs } from '../src/domain/mail/mailer.js';
import { manualClock, post, registration } from './helpers/accounts.js';
import { buildTestApp, forEachBackend, type TestApp } from './helpers/app.js';
import { freePort } from './helpers/processes.js';
import { decodeQuotedPrintable, startSink, textPart, type SmtpSink } from './helpers/smtp-sink.js';

forEachBackend((backend) => {
  describe('SMTP delivery', () => {
    let sink: SmtpSink;
    let t: TestApp;
    before(async () => {
      sink = await startSink();
      t = await buildTestApp(backend, {
        smtpUrl: `smtp://127.0.0.1:${sink.port}`,
        mailFrom: 'Portal <no-reply@portal.test>',
      });
    });
    after(async () => {
      await t.close();
      await sink.close();
    });

    it('delivers the verification mail over SMTP, and its code verifies the account', async () => {
      const response = await post(t.app, '/auth/register', registration('smtp@portal.test'));
      assert.equal(response.statusCode, 201);
      await t.app.mailer.deliverDue();
      assert.equal(sink.received.length, 1);
      const [mail] = sink.received;
      assert.deepEqual(mail!.to, ['smtp@portal.test']);
      assert.equal(mail!.from, 'no-reply@portal.test');
      assert.match(mail!.data, /multipart\/alternative/);
      assert.match(mail!.data, /text\/html/);
      const text = decodeQuotedPrintable(textPart(mail!.data));
      assert.match(text, /verificar tu email/);
      const code = /\b(\d{6})\b/.exec(text)?.[1];
      assert.ok(code);
      const verified = await post(t.app, '/auth/verify-registration', { email: 'smtp@portal.test', code });
      assert.equal(verified.statusCode, 200);
      assert.equal(verified.json().user.status, 'active');
    });

    it('greets a pending registration without the name typed into the form, in the mail and in its resend', async () => {
      const clock = manualClock();
      const hostile = 'Tu cuenta será bloqueada. Verifica en https://evil.example';
      const app = await buildTestApp(backend, { smtpUrl: `smtp://127.0.0.1:${sink.port}` }, { clock });
      try {
        const email = 'victima@portal.test';
        const before = sink.received.length;
        const response = await post(app.app, '/auth/register', registration(email, { name: hostile, lastName: 'X' }));
        assert.equal(response.statusCode, 201);
        await app.app.mailer.deliverDue();
        clock.advance(61_000);
        assert.equal((await post(app.app, '/auth/resend-verification', { email })).statusCode, 200);
        await app.app.mailer.deliverDue();
        const mails = sink.received.slice(before).filter((mail) => mail.to.includes(email));
        assert.equal(mails.length, 2, 'the registration mail and the resend');
        for (const mail of mails) {
          const text = decodeQuotedPrintable(textPart(mail.data));
          const whole = decodeQuotedPrintable(mail.data);
          assert.match(text, /^Hola:\r?$/m);
          assert.doesNotMatch(whole, /bloqueada|evil\.example/);
        }
      } finally {
        await app.close();
      }
    });

    it('greets an active account by the name its owner proved, in a password-reset mail', async () => {
      const clock = manualClock();
      const app = await buildTestApp(backend, { smtpUrl: `smtp://127.0.0.1:${sink.port}` }, { clock });
      try {
        const email = 'activa@portal.test';
        const registered = await post(app.app, '/auth/register', registration(email, { name: 'Lucía' }));
        await app.app.mailer.deliverDue();
        const first = sink.received.filter((mail) => mail.to.includes(email)).at(-1)!;
        const code = /\b(\d{6})\b/.exec(decodeQuotedPrintable(textPart(first.data)))?.[1];
        const verified = await post(app.app, '/auth/verify-registration', {
          email,
          code,
          registrationId: registered.json().registrationId,
        });
        assert.equal(verified.statusCode, 200);
        clock.advance(61_000);
        assert.equal((await post(app.app, '/auth/forgot-password', { email })).statusCode, 200);
        await app.app.mailer.deliverDue();
        const reset = sink.received.filter((mail) => mail.to.includes(email)).at(-1)!;
        const text = decodeQuotedPrintable(textPart(reset.data));
        assert.match(text, /cambiar la contraseña/);
        assert.match(text, /^Hola, Lucía:\r?$/m);
      } finally {
        await app.close();
      }
    });
  });

  describe('SMTP outage', () => {
    it('keeps the registration working, retries with back-off and delivers once when SMTP is back', async () => {
      const port = await freePort();
      const clock = manualClock();
      const t = await buildTestApp(backend, { smtpUrl: `smtp://127.0.0.1:${port}` }, { clock });
      let sink: SmtpSink | undefined;
      try {
        const response = await post(t.app, '/auth/register', registration('caida@portal.test'));
        assert.equal(response.statusCode, 201, 'SMTP being down does not fail the registration');
        assert.equal(await t.app.mailer.deliverDue(), 0);
        const [queued] = await t.app.db.select().from(mailOutbox).where(eq(mailOutbox.recipient, 'caida@portal.test'));
        assert.equal(queued?.attempts, 1);
        assert.equal(queued.sentAt, null);
        assert.match(queued.lastError ?? '', /ECONNREFUSED|connect/i);
        assert.equal(queued.nextAttemptAt.getTime(), clock() + retryDelayMs(1));

        sink = await startSink(port);
        assert.equal(await t.app.mailer.deliverDue(), 0, 'not due before its back-off');
        clock.advance(retryDelayMs(1));
        assert.equal(await t.app.mailer.deliverDue(), 1);
        clock.advance(60 * 60_000);
        assert.equal(await t.app.mailer.deliverDue(), 0);
        assert.equal(sink.received.length, 1);
        assert.deepEqual(sink.received[0]!.to, ['caida@portal.test']);
        const [sent] = await t.app.db.select().from(mailOutbox).where(eq(mailOutbox.recipient, 'caida@portal.test'));
        assert.ok(sent?.sentAt);
        assert.equal(sent.attempts, 2);
      } finally {
        await t.close();
        await sink?.close();
      }
    });
  });
});

describe('mail', () => {
  it('backs off from 10 s, doubling, up to 30 minutes and never gives up', () => {
    assert.deepEqual([1, 2, 3, 4].map(retryDelayMs), [10_000, 20_000, 40_000, 80_000]);
    assert.equal(retryDelayMs(12), 30 * 60_000);
    assert.equal(retryDelayMs(10_000), 30 * 60_000);
  });

  it('prints the whole mail, code included, in the embedded default', async () => {
    const printed: string[] = [];
    const mail = verificationCodeMail({
      email: 'ana@portal.test',
      code: '042917',
      portalUrl: 'http://127.0.0.1:8080',
    });
    await consoleTransport((text) => printed.push(text)).send({ to: 'ana@portal.test', ...mail });
    assert.equal(printed.length, 1);
    assert.match(printed[0]!, /Correo para ana@portal\.test/);
    assert.match(printed[0]!, /042917/);
    assert.match(printed[0]!, /http:\/\/127\.0\.0\.1:8080\/verify-email\?email=ana%40portal\.test/);
  });

  it('escapes the name in the HTML', () => {
    const mail = resetCodeMail({
      name: '<b>Ana</b>',
      email: 'a@b.cd',
      code: '123456',
      portalUrl: 'http://127.0.0.1:8080',
    });
    assert.doesNotMatch(mail.html, /<b>Ana/);
    assert.match(mail.html, /&#60;b&#62;Ana/);
  });
});
