// 'Cambio en la seguridad de tu cuenta': the owner of an account hears at once, by mail, of every way into it that
// was added or removed beyond the password (an authenticator app, its recovery codes, a passkey), with the device,
// browser and address that did it. Refused attempts send nothing. The mail is queued in the change's transaction.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { generate } from 'otplib';
import type { OutgoingMail } from '../src/domain/mail/mailer.js';
import { buildTestApp, createUser, forEachBackend, login, type TestApp } from './helpers/app.js';
import { SoftAuthenticator } from './helpers/soft-authenticator.js';

const password = 'clave-de-avisos';
const subject = 'Cambio en la seguridad de tu cuenta';
const firefoxWindows = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0';

forEachBackend((backend) => {
  const clock = { now: Date.now() };
  const sent: OutgoingMail[] = [];
  let t: TestApp;
  before(async () => {
    t = await buildTestApp(
      backend,
      { trustProxy: ['127.0.0.1'], loginRateLimitPerMinute: 10_000, authRateLimitPerMinute: 10_000 },
      {
        clock: () => clock.now,
        mailTransport: {
          async send(mail) {
            sent.push(mail);
          },
        },
      },
    );
  });
  after(() => t.close());

  const call = (method: 'POST' | 'DELETE', url: string, token: string, payload?: object) =>
    t.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${token}`, 'user-agent': firefoxWindows, 'x-forwarded-for': '203.0.113.9' },
      ...(payload === undefined ? {} : { payload }),
    });
  const code = (secret: string) => generate({ secret, epoch: Math.floor(clock.now / 1000) });
  /** The notices `email` received since the last call (the outbox delivered first). */
  const notices = async (email: string) => {
    await t.app.mailer.deliverDue();
    const mine = sent.filter((mail) => mail.to === email && mail.subject === subject);
    for (const mail of mine) sent.splice(sent.indexOf(mail), 1);
    return mine;
  };
  const assertNotice = (mails: OutgoingMail[], sentence: string) => {
    assert.equal(mails.length, 1, `one notice: ${sentence}`);
    const [mail] = mails;
    for (const part of [
      sentence,
      'Dispositivo: Computadora',
      'Navegador: Firefox en Windows',
      'Dirección: 203.0.113.9',
    ])
      assert.ok(mail!.text.includes(part), `"${part}" in:\n${mail!.text}`);
    assert.ok(mail!.html.includes('Revisar la seguridad de mi cuenta'));
    assert.match(mail!.text, /\/perfil\?tab=seguridad/);
  };

  it('mails the owner when the authenticator app is added, its codes replaced and it is removed; not on refusals', async () => {
    const email = 'avisos-totp@portal.test';
    await createUser(t.app, { email, password, status: 'active' });
    const token = await login(t.app, email, password);

    const setup = await call('POST', '/auth/totp', token);
    assert.equal(setup.statusCode, 200, setup.body);
    const { secret } = setup.json<{ secret: string }>();
    assert.deepEqual(await notices(email), [], 'a secret not confirmed yet adds no way in');
    const wrong = String((Number(await code(secret)) + 1) % 1_000_000).padStart(6, '0');
    assert.equal((await call('POST', '/auth/totp/confirmar', token, { code: wrong })).statusCode, 400);
    assert.deepEqual(await notices(email), [], 'a refused confirmation sends nothing');

    const confirmed = await call('POST', '/auth/totp/confirmar', token, { code: await code(secret) });
    assert.equal(confirmed.statusCode, 200, confirmed.body);
    assertNotice(await notices(email), 'Se activó la verificación en dos pasos con una aplicación de autenticación.');

    clock.now += 30_000;
    const replaced = await call('POST', '/auth/codigos-recuperacion', token, { code: await code(secret) });
    assert.equal(replaced.statusCode, 200, replaced.body);
    assertNotice(await notices(email), 'Se generaron códigos de recuperación nuevos; los anteriores dejaron de valer.');

    clock.now += 30_000;
    assert.equal((await call('DELETE', '/auth/totp', token, { code: '000000' })).statusCode, 400);
    assert.deepEqual(await notices(email), [], 'a refused removal sends nothing');
    const removed = await call('DELETE', '/auth/totp', token, { code: await code(secret) });
    assert.equal(removed.statusCode, 204, removed.body);
    assertNotice(
      await notices(email),
      'Se desactivó la verificación en dos pasos con la aplicación de autenticación, y sus códigos de recuperación dejaron de valer.',
    );
  });

  it('mails the owner when a passkey is added and removed, naming it', async () => {
    const email = 'avisos-llave@portal.test';
    await createUser(t.app, { email, password, status: 'active' });
    const token = await login(t.app, email, password);
    const device = new SoftAuthenticator({
      rpId: t.app.config.webauthn.rpId,
      origin: t.app.config.webauthn.origins[0]!,
    });

    const options = await call('POST', '/auth/passkeys/opciones-registro', token);
    assert.equal(options.statusCode, 200, options.body);
    const { ceremonyId, options: creation } = options.json<{ ceremonyId: string; options: Record<string, unknown> }>();
    const added = await call('POST', '/auth/passkeys', token, {
      ceremonyId,
      name: 'Llave <azul>',
      response: device.register(creation as never),
    });
    assert.equal(added.statusCode, 201, added.body);
    const [addedMail] = await notices(email);
    assertNotice([addedMail!], 'Se agregó la llave de acceso «Llave <azul>».');
    assert.ok(addedMail!.html.includes('«Llave &#60;azul&#62;»'), 'the name is escaped in the HTML');

    assert.equal((await call('DELETE', '/auth/passkeys/no-existe', token)).statusCode, 404);
    assert.deepEqual(await notices(email), [], 'removing nothing sends nothing');
    const removed = await call('DELETE', `/auth/passkeys/${added.json<{ id: string }>().id}`, token);
    assert.equal(removed.statusCode, 204, removed.body);
    assertNotice(await notices(email), 'Se eliminó la llave de acceso «Llave <azul>».');
  });
});
