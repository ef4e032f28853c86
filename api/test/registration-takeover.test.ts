// A registration of an email still pending must never put its password on the account of the person who verifies
// the code (docs/decisions/0006-registration-ids.md); and wrong codes are capped per email and purpose per day.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, beforeEach, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import { eq } from 'drizzle-orm';
import { pendingRegistrations, users } from '../src/db/schema.js';
import { maxWrongCodesPerDay } from '../src/domain/sign-in-limits/limits.js';
import { signInWithIdentity } from '../src/domain/social-sign-in/identities.js';
import {
  capturingTransport,
  codeIn,
  mailsTo,
  manualClock,
  post,
  registration,
  testRedisUrl,
} from './helpers/accounts.js';
import { buildTestApp, forEachBackend, login as adminLogin, type TestApp } from './helpers/app.js';

const victim = { password: 'clave-de-la-victima', name: 'Valeria', lastName: 'Rojas', phone: '+51900000001' };
const attacker = { password: 'clave-del-atacante', name: 'Atacante', lastName: 'Malo', phone: '+51911111111' };

forEachBackend((backend) => {
  let t: TestApp;
  const transport = capturingTransport();
  const clock = manualClock();
  before(async () => {
    t = await buildTestApp(
      backend,
      { authRateLimitPerMinute: 10_000, loginRateLimitPerMinute: 10_000 },
      { mailTransport: transport, clock },
    );
  });
  after(() => t.close());
  beforeEach(() => clock.advance(2 * 60 * 60_000));

  let n = 0;
  const freshEmail = () => `victima${++n}-${backend}@correo.test`;
  const register = async (email: string, who: typeof victim) => {
    const response = await post(t.app, '/auth/register', registration(email, who));
    assert.equal(response.statusCode, 201, response.body);
    const body = response.json<{ email: string; registrationId: string }>();
    assert.equal(body.email, email);
    assert.match(body.registrationId, /^[A-Za-z0-9_-]{16,64}$/);
    return body.registrationId;
  };
  const verify = (email: string, code: string, registrationId?: string) =>
    post(t.app, '/auth/verify-registration', { email, code, ...(registrationId ? { registrationId } : {}) });
  const loginStatus = async (email: string, password: string) =>
    (await post(t.app, '/auth/login', { email, password })).statusCode;
  const lastCode = async (email: string) => codeIn((await mailsTo(t.app, transport, email)).at(-1));
  const userRow = async (email: string) => (await t.app.db.select().from(users).where(eq(users.email, email)))[0]!;
  const registrationsOf = async (userId: number) =>
    t.app.db.select().from(pendingRegistrations).where(eq(pendingRegistrations.userId, userId));

  /** The victim verifies in their browser (code from their mailbox, their registration id): what do they get? */
  async function victimVerifies(email: string, victimId: string) {
    const verified = await verify(email, await lastCode(email), victimId);
    assert.equal(verified.statusCode, 200, verified.body);
    const body = verified.json();
    assert.equal(body.passwordSet, true);
    assert.deepEqual(
      [body.user.name, body.user.lastName, body.user.phone],
      [victim.name, victim.lastName, victim.phone],
    );
    assert.equal(await loginStatus(email, victim.password), 200, "the victim's password signs in");
    assert.equal(await loginStatus(email, attacker.password), 401, "the attacker's password never does");
    assert.equal((await registrationsOf((await userRow(email)).id)).length, 0, 'every other registration is gone');
  }

  /** The answer to a right code sent with a registration id the server no longer has, and no profile. */
  function assertRegistrationExpired(refused: Awaited<ReturnType<typeof verify>>) {
    assert.equal(refused.statusCode, 409, refused.body);
    assert.deepEqual(refused.json(), {
      statusCode: 409,
      code: 'REGISTRATION_EXPIRED',
      message:
        'Los datos de tu registro ya no están guardados (caducan en un día, o este email tiene registros más nuevos). Escríbelos junto al mismo código y elige tu contraseña.',
    });
  }

  describe('two registrations of one pending email', () => {
    it('victim first, attacker inside the cooldown: the victim gets their own password and profile', async () => {
      const email = freshEmail();
      const victimId = await register(email, victim);
      clock.advance(10_000);
      await register(email, attacker);
      assert.equal((await mailsTo(t.app, transport, email)).length, 1, 'no second mail inside the cooldown');
      assert.equal((await userRow(email)).passwordHash, null, 'the pending account row holds no password');
      await victimVerifies(email, victimId);
    });

    it('victim first, attacker after the cooldown (a second code is mailed): the same', async () => {
      const email = freshEmail();
      const victimId = await register(email, victim);
      clock.advance(61_000);
      await register(email, attacker);
      assert.equal((await mailsTo(t.app, transport, email)).length, 2);
      await victimVerifies(email, victimId);
    });

    it('attacker first, victim inside the cooldown (no new mail): the victim gets their own password', async () => {
      const email = freshEmail();
      await register(email, attacker);
      clock.advance(20_000);
      const victimId = await register(email, victim);
      assert.equal((await mailsTo(t.app, transport, email)).length, 1);
      await victimVerifies(email, victimId);
    });

    it('attacker first, victim after the cooldown: the same', async () => {
      const email = freshEmail();
      await register(email, attacker);
      clock.advance(5 * 60_000);
      const victimId = await register(email, victim);
      await victimVerifies(email, victimId);
    });

    it("an id of another email's registration proves nothing: refused like an id the server no longer has", async () => {
      const email = freshEmail();
      const other = freshEmail();
      await register(email, victim);
      const otherId = await register(other, attacker);
      const refused = await verify(email, await lastCode(email), otherId);
      assertRegistrationExpired(refused);
      assert.equal((await userRow(email)).status, 'pending_verification');
      assert.equal(await loginStatus(email, attacker.password), 401);
      // The other email's registration is untouched.
      assert.equal((await registrationsOf((await userRow(other)).id)).length, 1);
    });
  });

  describe('a code without a matching registration id', () => {
    it('activates the account with no password and no profile; the person creates a password with the reset code', async () => {
      const email = freshEmail();
      await register(email, attacker);
      clock.advance(10_000);
      await register(email, victim);
      const verified = await verify(email, await lastCode(email));
      assert.equal(verified.statusCode, 200, verified.body);
      const body = verified.json();
      assert.equal(body.passwordSet, false);
      assert.equal(body.user.status, 'active');
      assert.deepEqual([body.user.name, body.user.lastName, body.user.phone], ['', '', '']);
      assert.equal(
        (
          await t.app.inject({
            method: 'GET',
            url: '/auth/user',
            headers: { authorization: `Bearer ${body.access_token}` },
          })
        ).statusCode,
        200,
      );
      assert.equal(await loginStatus(email, attacker.password), 401);
      assert.equal(await loginStatus(email, victim.password), 401);
      assert.equal((await userRow(email)).passwordHash, null);

      assert.equal((await post(t.app, '/auth/forgot-password', { email })).statusCode, 200);
      const reset = await post(t.app, '/auth/change-password', {
        email,
        code: await lastCode(email),
        newPassword: 'mi-clave-nueva',
      });
      assert.equal(reset.statusCode, 200, reset.body);
      assert.equal(await loginStatus(email, 'mi-clave-nueva'), 200);
    });
  });

  describe('a code typed on another device, with the profile typed there', () => {
    const phone = { password: 'clave-del-telefono', name: 'Valeria', lastName: 'Rojas', phone: '+51 987 654 321' };

    it('activates the account with that password and profile; no registration password works', async () => {
      const email = freshEmail();
      await register(email, attacker);
      clock.advance(10_000);
      await register(email, victim);
      const verified = await post(t.app, '/auth/verify-registration', {
        email,
        code: await lastCode(email),
        profile: phone,
      });
      assert.equal(verified.statusCode, 200, verified.body);
      const body = verified.json();
      assert.equal(body.passwordSet, true);
      assert.deepEqual([body.user.name, body.user.lastName, body.user.phone], ['Valeria', 'Rojas', '+51987654321']);
      assert.equal(await loginStatus(email, phone.password), 200);
      assert.equal(await loginStatus(email, attacker.password), 401);
      assert.equal(await loginStatus(email, victim.password), 401);
      assert.equal((await registrationsOf((await userRow(email)).id)).length, 0);
    });

    it("this browser's registration id comes first: the profile beside it is not used", async () => {
      const email = freshEmail();
      const victimId = await register(email, victim);
      const verified = await post(t.app, '/auth/verify-registration', {
        email,
        code: await lastCode(email),
        registrationId: victimId,
        profile: attacker,
      });
      assert.equal(verified.statusCode, 200, verified.body);
      assert.equal(verified.json().user.name, 'Valeria');
      assert.equal(await loginStatus(email, victim.password), 200);
      assert.equal(await loginStatus(email, attacker.password), 401);
    });

    it('a profile that cannot be stored is refused in Spanish, and the code stays usable', async () => {
      const email = freshEmail();
      await register(email, victim);
      const code = await lastCode(email);
      const refused = await post(t.app, '/auth/verify-registration', {
        email,
        code,
        profile: { ...phone, phone: '+51 123 456 789' },
      });
      assert.equal(refused.statusCode, 400, refused.body);
      assert.equal(refused.json().code, 'INVALID_PHONE');
      assert.equal((await userRow(email)).status, 'pending_verification');
      for (const profile of [{ ...phone, password: 'corta' }, { ...phone, name: '   ' }, { name: 'Solo nombre' }]) {
        const invalid = await post(t.app, '/auth/verify-registration', { email, code, profile });
        assert.equal(invalid.statusCode, 400, invalid.body);
        assert.equal((await userRow(email)).status, 'pending_verification');
      }
      const verified = await post(t.app, '/auth/verify-registration', { email, code, profile: phone });
      assert.equal(verified.statusCode, 200, verified.body);
    });

    it('a wrong code with a profile changes nothing', async () => {
      const email = freshEmail();
      await register(email, victim);
      const code = await lastCode(email);
      const wrong = await post(t.app, '/auth/verify-registration', {
        email,
        code: code === '000000' ? '111111' : '000000',
        profile: attacker,
      });
      assert.equal(wrong.statusCode, 400, wrong.body);
      const row = await userRow(email);
      assert.equal(row.status, 'pending_verification');
      assert.equal(row.passwordHash, null);
    });
  });

  describe('a registration id the server no longer has (expired, or pushed out by newer registrations)', () => {
    const phone = { password: 'clave-del-telefono', name: 'Valeria', lastName: 'Rojas', phone: '+51 987 654 321' };
    const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

    /** The victim registers, then five registrations of the attacker push hers out of the kept five. */
    async function pushedOut(email: string) {
      const victimId = await register(email, victim);
      for (let i = 0; i < 5; i++) {
        clock.advance(1000);
        await register(email, attacker);
      }
      return victimId;
    }

    it('with the right code and no profile: refused, nothing activated, the code not used up', async () => {
      const email = freshEmail();
      const staleId = await pushedOut(email);
      const code = await lastCode(email);
      assertRegistrationExpired(await verify(email, code, staleId));
      const row = await userRow(email);
      assert.equal(row.status, 'pending_verification');
      assert.equal(row.passwordHash, null);
      assert.deepEqual([row.name, row.lastName, row.phone], [victim.name, victim.lastName, victim.phone]);
      assert.equal((await registrationsOf(row.id)).length, 5, 'the registrations are kept');

      // The same code with the profile typed beside it completes the account with what its holder typed.
      const verified = await post(t.app, '/auth/verify-registration', {
        email,
        code,
        registrationId: staleId,
        profile: phone,
      });
      assert.equal(verified.statusCode, 200, verified.body);
      const body = verified.json();
      assert.equal(body.passwordSet, true);
      assert.deepEqual([body.user.name, body.user.lastName, body.user.phone], ['Valeria', 'Rojas', '+51987654321']);
      assert.equal(await loginStatus(email, phone.password), 200);
      assert.equal(await loginStatus(email, attacker.password), 401, "the attacker's registrations never count");
      assert.equal(await loginStatus(email, victim.password), 401);
    });

    it('an expired one is refused the same way', async () => {
      const email = freshEmail();
      const oldId = await register(email, victim);
      clock.advance(24 * 60 * 60_000 + 1000);
      assert.equal((await post(t.app, '/auth/resend-verification', { email })).statusCode, 200);
      await mailsTo(t.app, transport, email);
      assertRegistrationExpired(await verify(email, await lastCode(email), oldId));
      assert.equal((await userRow(email)).status, 'pending_verification');
    });

    it('wrong codes count against the code as before; the refusal of the right one takes no try', async () => {
      const email = freshEmail();
      const staleId = await pushedOut(email);
      const code = await lastCode(email);
      for (let attempt = 1; attempt <= 4; attempt++) {
        const answer = await verify(email, wrong(code), staleId);
        assert.equal(answer.statusCode, 400, `try ${attempt}`);
        assert.equal(answer.json().code, 'INVALID_CODE');
      }
      for (let again = 0; again < 3; again++) assertRegistrationExpired(await verify(email, code, staleId));
      const verified = await post(t.app, '/auth/verify-registration', { email, code, profile: phone });
      assert.equal(verified.statusCode, 200, verified.body);
    });

    it('the fifth wrong code kills it, stale id or not', async () => {
      const email = freshEmail();
      const staleId = await pushedOut(email);
      const code = await lastCode(email);
      for (let attempt = 1; attempt <= 4; attempt++) {
        assert.equal((await verify(email, wrong(code), staleId)).statusCode, 400);
      }
      const fifth = await verify(email, wrong(code), staleId);
      assert.equal(fifth.statusCode, 429);
      assert.equal(fifth.json().code, 'CODE_ATTEMPTS_EXCEEDED');
      assert.equal((await verify(email, code, staleId)).statusCode, 429);
      const withProfile = await post(t.app, '/auth/verify-registration', { email, code, profile: phone });
      assert.equal(withProfile.statusCode, 429);
      assert.equal((await userRow(email)).status, 'pending_verification');
    });
  });

  describe('POST /auth/login of a pending account', () => {
    it('answers 403 EMAIL_NOT_VERIFIED with the id of the registration whose password it is; that id activates it', async () => {
      const email = freshEmail();
      await register(email, attacker);
      clock.advance(10_000);
      const victimId = await register(email, victim);
      const pending = await post(t.app, '/auth/login', { email, password: victim.password });
      assert.equal(pending.statusCode, 403);
      assert.deepEqual(pending.json(), {
        statusCode: 403,
        message: 'Debes verificar tu email antes de iniciar sesión',
        code: 'EMAIL_NOT_VERIFIED',
        registrationId: victimId,
      });
      const wrong = await post(t.app, '/auth/login', { email, password: 'ninguna-de-ellas' });
      assert.equal(wrong.statusCode, 401);
      assert.equal(wrong.json().message, 'Credenciales inválidas');
      // A lost tab: the id from the sign-in works as the one from the registration.
      await victimVerifies(email, pending.json().registrationId);
    });
  });

  describe('activation without a code', () => {
    it('Google/Apple sign-in of a pending account leaves no password and drops every registration', async () => {
      const email = freshEmail();
      await register(email, attacker);
      const user = await signInWithIdentity(t.app.db, {
        provider: 'google',
        subject: `sub-${email}`,
        email,
        name: 'Valeria',
        lastName: 'Rojas',
        picture: null,
      });
      assert.equal(user.status, 'active');
      assert.equal(user.passwordHash, null);
      assert.deepEqual([user.name, user.lastName, user.phone], ['Valeria', 'Rojas', '']);
      assert.equal((await registrationsOf(user.id)).length, 0);
      assert.equal(await loginStatus(email, attacker.password), 401);
    });

    for (const how of ['POST /user/verify-emails', 'PUT /auth/editar/{id}'] as const) {
      it(`an administrator's activation (${how}) leaves no password and drops every registration`, async () => {
        const email = freshEmail();
        await register(email, attacker);
        const { id } = await userRow(email);
        const admin = await adminLogin(t.app);
        const response =
          how === 'POST /user/verify-emails'
            ? await post(t.app, '/user/verify-emails', { userIds: [id] }, admin)
            : await t.app.inject({
                method: 'PUT',
                url: `/auth/editar/${id}`,
                payload: { status: 'active' },
                headers: { authorization: `Bearer ${admin}` },
              });
        assert.equal(response.statusCode, 200, response.body);
        assert.equal((await userRow(email)).status, 'active');
        assert.equal((await userRow(email)).passwordHash, null);
        assert.equal((await registrationsOf(id)).length, 0);
        assert.equal(await loginStatus(email, attacker.password), 401);

        // The person is told, and how to choose a password; the mail names nobody (the name is a registrant's).
        const mail = (await mailsTo(t.app, transport, email)).at(-1);
        assert.equal(mail?.subject, 'Tu cuenta está activa');
        assert.match(mail?.text ?? '', /^Hola:\n/);
        const link = `${t.app.config.portalUrl.replace(/\/$/, '')}/forgot-password?email=${encodeURIComponent(email)}`;
        assert.ok(mail?.text.includes(`Elegir mi contraseña: ${link}`), mail?.text);
        assert.ok(mail?.html.includes(`href="${link}"`), mail?.html);
        // Signing in says why no password works and where to go, then the mailed code gives one.
        const answer = await post(t.app, '/auth/login', { email, password: victim.password });
        assert.equal(answer.statusCode, 401);
        assert.deepEqual(answer.json(), {
          statusCode: 401,
          code: 'PASSWORD_NOT_SET',
          message:
            'Tu cuenta está activa pero aún no tiene contraseña. Elígela con «¿Olvidaste tu contraseña?»: te enviaremos un código a tu email.',
        });
        assert.equal((await post(t.app, '/auth/forgot-password', { email })).statusCode, 200);
        const reset = await post(t.app, '/auth/change-password', {
          email,
          code: await lastCode(email),
          newPassword: 'clave-elegida',
        });
        assert.equal(reset.statusCode, 200, reset.body);
        assert.equal(await loginStatus(email, 'clave-elegida'), 200);
        // A second activation of the same account mails nothing more.
        const again = await post(t.app, '/user/verify-emails', { userIds: [id] }, admin);
        assert.equal(again.json().verified, 0);
        assert.equal(
          (await mailsTo(t.app, transport, email)).filter((sent) => sent.subject === 'Tu cuenta está activa').length,
          1,
        );
      });
    }

    it('an account with no password is locked like any other: the lock answers as for an unknown address', async () => {
      const email = freshEmail();
      await register(email, attacker);
      const admin = await adminLogin(t.app);
      await post(t.app, '/user/verify-emails', { userIds: [(await userRow(email)).id] }, admin);
      const answers = [];
      for (let attempt = 0; attempt < 6; attempt++) {
        answers.push((await post(t.app, '/auth/login', { email, password: `intento-${attempt}` })).json());
      }
      assert.equal(answers[0].code, 'PASSWORD_NOT_SET');
      const locked = answers.at(-1);
      assert.equal(locked.code, 'INVALID_CREDENTIALS');
      assert.equal(locked.message, 'Credenciales inválidas');
      assert.ok(locked.retryAfter > 0, JSON.stringify(locked));
    });
  });

  describe('expiry', () => {
    it('a registration older than a day proves nothing, and the next registration clears it away', async () => {
      const email = freshEmail();
      const oldId = await register(email, victim);
      clock.advance(24 * 60 * 60_000 + 1000);
      assert.equal(await loginStatus(email, victim.password), 401, 'an expired registration does not sign in');
      assert.equal((await post(t.app, '/auth/resend-verification', { email })).statusCode, 200);
      await mailsTo(t.app, transport, email);
      assertRegistrationExpired(await verify(email, await lastCode(email), oldId));

      const other = freshEmail();
      await register(other, victim);
      clock.advance(24 * 60 * 60_000 + 1000);
      await register(freshEmail(), victim);
      assert.equal((await registrationsOf((await userRow(other)).id)).length, 0, 'expired rows are deleted');
    });

    it('resending the code keeps the registration id working', async () => {
      const email = freshEmail();
      const victimId = await register(email, victim);
      clock.advance(61_000);
      assert.equal((await post(t.app, '/auth/resend-verification', { email })).statusCode, 200);
      assert.equal((await mailsTo(t.app, transport, email)).length, 2);
      await victimVerifies(email, victimId);
    });

    it('an account keeps only its 5 newest registrations', async () => {
      const email = freshEmail();
      const first = await register(email, victim);
      for (let i = 0; i < 5; i++) {
        clock.advance(1000);
        await register(email, attacker);
      }
      const { id } = await userRow(email);
      const kept = await registrationsOf(id);
      assert.equal(kept.length, 5);
      assert.ok(!kept.some((row) => row.id === first));
    });
  });

  describe(`wrong codes: at most ${maxWrongCodesPerDay} an email and purpose a day`, () => {
    const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

    it('verify-registration: past the cap, 429 with the time to come back, and not even the right code is checked', async () => {
      const email = freshEmail();
      const victimId = await register(email, victim);
      let guesses = 0;
      // Each new code used to reset the count: 4 wrong tries per code, then ask for another one.
      while (guesses < maxWrongCodesPerDay) {
        const code = await lastCode(email);
        for (let i = 0; i < 4 && guesses < maxWrongCodesPerDay; i++, guesses++) {
          assert.equal((await verify(email, wrong(code), victimId)).statusCode, 400);
        }
        clock.advance(61_000);
        assert.equal((await post(t.app, '/auth/resend-verification', { email })).statusCode, 200);
      }
      const code = await lastCode(email);
      const refused = await verify(email, code, victimId);
      assert.equal(refused.statusCode, 429);
      const body = refused.json();
      assert.equal(body.code, 'CODE_GUESSES_EXCEEDED');
      assert.match(
        body.message,
        /^Demasiados códigos incorrectos\. Podrás intentarlo de nuevo el \d{2}\/\d{2}\/\d{4} a las \d{2}:\d{2} \(hora UTC\)\.$/,
      );
      assert.ok(body.retryAfter > 20 * 60 * 60 && body.retryAfter <= 24 * 60 * 60);
      assert.equal(refused.headers['retry-after'], String(body.retryAfter));
      assert.equal((await userRow(email)).status, 'pending_verification', 'nothing changed');

      clock.advance(body.retryAfter * 1000 - 60_000);
      assert.equal((await verify(email, code, victimId)).statusCode, 429, 'still closed a minute before that time');
      clock.advance(60_000);
      assert.equal((await post(t.app, '/auth/resend-verification', { email })).statusCode, 200);
      // A day later the registration has expired too: the code asks for the profile, and activates the account with it.
      const code2 = await lastCode(email);
      assertRegistrationExpired(await verify(email, code2, victimId));
      const verified = await post(t.app, '/auth/verify-registration', { email, code: code2, profile: victim });
      assert.equal(verified.statusCode, 200, verified.body);
      assert.equal(verified.json().user.status, 'active');
    });

    it('change-password: the same cap, counted apart from verification', async () => {
      const email = freshEmail();
      const victimId = await register(email, victim);
      await victimVerifies(email, victimId);
      clock.advance(61_000);
      assert.equal((await post(t.app, '/auth/forgot-password', { email })).statusCode, 200);
      let code = await lastCode(email);
      for (let guesses = 0; guesses < maxWrongCodesPerDay; guesses++) {
        if (guesses % 4 === 0 && guesses > 0) {
          clock.advance(61_000);
          assert.equal((await post(t.app, '/auth/forgot-password', { email })).statusCode, 200);
          code = await lastCode(email);
        }
        const answer = await post(t.app, '/auth/change-password', {
          email,
          code: wrong(code),
          newPassword: 'otra-clave-9',
        });
        assert.equal(answer.statusCode, 400, answer.body);
      }
      const refused = await post(t.app, '/auth/change-password', { email, code, newPassword: 'otra-clave-9' });
      assert.equal(refused.statusCode, 429);
      assert.equal(refused.json().code, 'CODE_GUESSES_EXCEEDED');
      assert.equal(await loginStatus(email, victim.password), 200, 'the password did not change');
      assert.equal(await loginStatus(email, 'otra-clave-9'), 401);
    });

    it('an unknown email meets the same cap (no account is told apart)', async () => {
      const email = freshEmail();
      for (let i = 0; i < maxWrongCodesPerDay; i++) assert.equal((await verify(email, '123456')).statusCode, 400);
      assert.equal((await verify(email, '123456')).statusCode, 429);
    });
  });
});

describe('the daily cap of wrong codes in Redis, shared by two instances', () => {
  it(`closes verification on both after ${maxWrongCodesPerDay} wrong codes sent to either, and opens it when the window ends`, async () => {
    const prefix = `cap-${randomBytes(4).toString('hex')}:`;
    const clock = manualClock();
    const config = { redisUrl: testRedisUrl, redisKeyPrefix: prefix, authRateLimitPerMinute: 10_000 };
    const one = await buildTestApp('pglite', config, { clock });
    const two = await buildTestApp('pglite', config, { clock });
    try {
      const email = 'adivina@correo.test';
      for (let i = 0; i < maxWrongCodesPerDay; i++) {
        const answer = await post(i % 2 === 0 ? one.app : two.app, '/auth/verify-registration', {
          email,
          code: '000000',
        });
        assert.equal(answer.statusCode, 400);
      }
      for (const { app } of [one, two]) {
        const refused = await post(app, '/auth/verify-registration', { email, code: '000000' });
        assert.equal(refused.statusCode, 429);
        assert.equal(refused.json().code, 'CODE_GUESSES_EXCEEDED');
      }
      // A reset code of the same email is counted apart.
      assert.equal(
        (await post(one.app, '/auth/change-password', { email, code: '000000', newPassword: 'clave-nueva' }))
          .statusCode,
        400,
      );
      clock.advance(24 * 60 * 60_000);
      assert.equal((await post(two.app, '/auth/verify-registration', { email, code: '000000' })).statusCode, 400);
    } finally {
      await Promise.all([one.close(), two.close()]);
      const redis = new Redis(testRedisUrl);
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length > 0) await redis.del(...keys);
      await redis.quit();
    }
  });
});
