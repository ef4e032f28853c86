import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { count, eq } from 'drizzle-orm';
import { accountCodes, mailOutbox, pendingRegistrations, userPlans, users } from '../src/db/schema.js';
import { capturingTransport, codeIn, mailsTo, manualClock, post, registration } from './helpers/accounts.js';
import { adminEmail, buildTestApp, forEachBackend, login, type TestApp } from './helpers/app.js';

forEachBackend((backend) => {
  let t: TestApp;
  const transport = capturingTransport();
  const clock = manualClock();
  before(async () => {
    t = await buildTestApp(
      backend,
      { authRateLimitPerMinute: 1000, portalUrl: 'https://portal.example.com' },
      { mailTransport: transport, clock },
    );
  });
  after(() => t.close());
  // Cooldowns and hourly limits of one test must not leak into the next.
  beforeEach(() => clock.advance(2 * 60 * 60_000));

  const register = (body: Record<string, unknown>) => post(t.app, '/auth/register', body);
  const verify = (email: string, code: string) => post(t.app, '/auth/verify-registration', { email, code });
  const resend = (email: string) => post(t.app, '/auth/resend-verification', { email });
  const userRow = async (email: string) => (await t.app.db.select().from(users).where(eq(users.email, email)))[0];
  const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

  describe('POST /auth/register', () => {
    it('creates a pending account and mails a Spanish code that verify-registration accepts', async () => {
      const response = await register(registration('  Nueva@Portal.Test '));
      assert.equal(response.statusCode, 201);
      const { registrationId, ...answer } = response.json();
      // The page counts the resend cooldown down from the server's own figure.
      assert.deepEqual(answer, { email: 'nueva@portal.test', resendAfter: 60 });

      const user = await userRow('nueva@portal.test');
      assert.equal(user?.status, 'pending_verification');
      assert.equal(user?.lastName, 'Pérez');
      // The password belongs to the registration until its code is verified with its id.
      assert.equal(user?.passwordHash, null);
      const [pending] = await t.app.db
        .select()
        .from(pendingRegistrations)
        .where(eq(pendingRegistrations.id, registrationId));
      assert.match(pending!.passwordHash, /^\$argon2id\$v=19\$/);

      const [mail, ...others] = await mailsTo(t.app, transport, 'nueva@portal.test');
      assert.equal(others.length, 0);
      const code = codeIn(mail);
      assert.match(mail!.subject, /código de verificación/);
      // The name typed into the form is not proved yet: the mail greets nobody by name.
      assert.match(mail!.text, /^Hola:$/m);
      assert.doesNotMatch(mail!.text, /Ana/);
      assert.match(mail!.text, /vence en 10 minutos/);
      assert.match(mail!.html, new RegExp(`>${code}<`));
      assert.match(mail!.html, /https:\/\/portal\.example\.com\/verify-email\?email=nueva%40portal\.test/);
      const [stored] = await t.app.db.select().from(accountCodes).where(eq(accountCodes.userId, user!.id));
      assert.ok(stored && !stored.codeHash.includes(code), 'the code is stored hashed');
      const [outbox] = await t.app.db.select().from(mailOutbox).where(eq(mailOutbox.recipient, 'nueva@portal.test'));
      assert.ok(outbox?.sentAt);
      assert.equal(outbox.textBody, '', 'a delivered mail no longer holds the code');

      const verified = await post(t.app, '/auth/verify-registration', {
        email: 'NUEVA@portal.test',
        code,
        registrationId,
      });
      assert.equal(verified.statusCode, 200);
      const body = verified.json();
      assert.deepEqual(Object.keys(body).sort(), ['access_token', 'passwordSet', 'user']);
      assert.equal(body.passwordSet, true);
      assert.equal(body.user.status, 'active');
      assert.equal(body.user.email, 'nueva@portal.test');
      assert.deepEqual(
        body.user.planesUsuarios.map((entry: { app: { id: number }; plan: { nombre: string } }) => [
          entry.app.id,
          entry.plan.nombre,
        ]),
        [
          [1, 'free'],
          [2, 'free'],
          [3, 'free'],
        ],
      );
      const me = await t.app.inject({
        method: 'GET',
        url: '/auth/user',
        headers: { authorization: `Bearer ${body.access_token}` },
      });
      assert.equal(me.statusCode, 200);
      assert.equal(me.json().planesUsuarios.length, 3);
      assert.equal((await login(t.app, 'nueva@portal.test', 'clave-segura-1')).split('.').length, 3);
    });

    it('answers 409 for the email of an active account and changes nothing', async () => {
      const response = await register(registration(adminEmail, { name: 'Intruso' }));
      assert.equal(response.statusCode, 409);
      assert.deepEqual(response.json(), {
        statusCode: 409,
        code: 'EMAIL_IN_USE',
        message: 'Este email ya está registrado. Inicia sesión para continuar.',
      });
      assert.equal((await userRow(adminEmail))?.name, 'Administrador');
      await login(t.app);
    });

    it("answers the same 409 for that email written with its domain's final dot, and signs in by it", async () => {
      const response = await register(registration(`${adminEmail.toUpperCase()}.`, { name: 'Intruso' }));
      assert.equal(response.statusCode, 409, response.body);
      assert.equal(response.json().code, 'EMAIL_IN_USE');
      assert.equal(await userRow(`${adminEmail}.`), undefined);
      assert.equal((await userRow(adminEmail))?.name, 'Administrador');
      await login(t.app, `${adminEmail}.`);
    });

    it('adds a registration beside the others of a still pending email and mails a new code only after the cooldown', async () => {
      const email = 'repite@portal.test';
      assert.equal((await register(registration(email))).statusCode, 201);
      const first = codeIn((await mailsTo(t.app, transport, email))[0]);

      clock.advance(10_000);
      const again = await register(registration(email, { name: 'Beatriz', password: 'otra-clave-2' }));
      assert.equal(again.statusCode, 201);
      assert.equal(again.json().resendAfter, 0, 'no code mailed: the resend answers with its own retry time');
      assert.equal((await userRow(email))?.name, 'Ana', 'a later registration does not rewrite the account row');
      assert.equal((await mailsTo(t.app, transport, email)).length, 1, 'no second mail within 60 s');

      clock.advance(60_000);
      const third = await register(registration(email, { name: 'Carla', password: 'tercera-clave' }));
      assert.equal(third.statusCode, 201);
      const mails = await mailsTo(t.app, transport, email);
      assert.equal(mails.length, 2);
      assert.match(mails[1]!.text, /^Hola:$/m);
      assert.equal((await verify(email, first)).statusCode, 400, 'only the newest code is live');
      const verified = await post(t.app, '/auth/verify-registration', {
        email,
        code: codeIn(mails[1]),
        registrationId: third.json().registrationId,
      });
      assert.equal(verified.statusCode, 200);
      assert.equal(verified.json().user.name, 'Carla');
      await login(t.app, email, 'tercera-clave');
    });

    it('stores the phone in E.164 however it was written', async () => {
      for (const [email, phone] of [
        ['fono-e164@portal.test', '+51912345678'],
        ['fono-espacios@portal.test', '+51 912 345 678'],
        ['fono-peru@portal.test', '(01) 234-5678'],
      ] as const) {
        const response = await register(registration(email, { phone }));
        assert.equal(response.statusCode, 201, response.body);
        const [pending] = await t.app.db
          .select()
          .from(pendingRegistrations)
          .where(eq(pendingRegistrations.id, response.json().registrationId));
        const stored = phone === '(01) 234-5678' ? '+5112345678' : '+51912345678';
        assert.deepEqual([(await userRow(email))?.phone, pending?.phone], [stored, stored]);
      }
    });

    for (const [what, phone, message] of [
      ['a phone of fewer than 10 digits', '+51 12 345 6', 'El teléfono debe tener al menos 10 dígitos'],
      ['a phone its country does not have', '+51 812 345 678', 'El teléfono no es válido para el país elegido'],
      ['a number no country has', '+999 1234567890', 'El teléfono no es válido para el país elegido'],
    ]) {
      it(`refuses ${what} with a Spanish 400, writes nothing and mails nothing`, async () => {
        const email = 'fono-malo@portal.test';
        const [users0, pending0, mails0] = await Promise.all([
          t.app.db.select({ value: count() }).from(users),
          t.app.db.select({ value: count() }).from(pendingRegistrations),
          t.app.db.select({ value: count() }).from(mailOutbox),
        ]);
        const response = await register(registration(email, { phone }));
        assert.equal(response.statusCode, 400, response.body);
        assert.deepEqual(response.json(), { statusCode: 400, code: 'INVALID_PHONE', message });
        assert.deepEqual(
          await Promise.all([
            t.app.db.select({ value: count() }).from(users),
            t.app.db.select({ value: count() }).from(pendingRegistrations),
            t.app.db.select({ value: count() }).from(mailOutbox),
          ]),
          [users0, pending0, mails0],
        );
        assert.equal(await userRow(email), undefined);
      });
    }

    it('creates one account for 50 concurrent registrations of one email', async () => {
      const email = 'carrera@portal.test';
      const responses = await Promise.all(
        Array.from({ length: 50 }, (_, i) => register(registration(email, { name: `Persona ${i}` }))),
      );
      assert.deepEqual([...new Set(responses.map((response) => response.statusCode))], [201]);
      const [rows] = await t.app.db.select({ value: count() }).from(users).where(eq(users.email, email));
      assert.equal(rows?.value, 1);
      assert.equal((await mailsTo(t.app, transport, email)).length, 1);
    });

    const hostile: Array<[string, unknown]> = [
      ['a number for the email', { ...registration('numero@portal.test'), email: 1234567 }],
      ['an object for the phone', registration('tipo@portal.test', { phone: { numero: 1 } })],
      ['a huge name', registration('grande@portal.test', { name: 'x'.repeat(5000) })],
      ['a huge email', registration(`${'a'.repeat(300)}@portal.test`)],
      ['a NUL character in the name', registration('nul@portal.test', { name: 'Ana\u0000' })],
      ['a control character in the email', registration('ctl\u0007@portal.test')],
      ['a name of spaces only', registration('blanco@portal.test', { name: '   ' })],
      ['a short password', registration('corta@portal.test', { password: '12345' })],
      ['a short phone', registration('fono@portal.test', { phone: '12345' })],
      ['an extra role field', registration('rol@portal.test', { role: 1 })],
      ['an email without @', registration('sin-arroba.portal.test')],
      ['an array body', [registration('lista@portal.test')]],
    ];
    for (const [what, body] of hostile) {
      it(`refuses ${what} with a Spanish 400 and writes nothing`, async () => {
        const before = await t.app.db.select({ value: count() }).from(users);
        const response = await register(body as Record<string, unknown>);
        assert.equal(response.statusCode, 400, response.body);
        assert.match(response.json().message, /^Datos inválidos/);
        assert.deepEqual(await t.app.db.select({ value: count() }).from(users), before);
      });
    }

    for (const key of ['"__proto__":{"role":1}', '"constructor":{"prototype":{"role":1}}']) {
      it(`refuses ${key.split(':')[0]} keys with 400 and writes nothing`, async () => {
        const before = await t.app.db.select({ value: count() }).from(users);
        const response = await t.app.inject({
          method: 'POST',
          url: '/auth/register',
          headers: { 'content-type': 'application/json' },
          payload: `{"email":"proto@portal.test","password":"clave-segura","name":"A","lastName":"B","phone":"1234567890",${key}}`,
        });
        assert.equal(response.statusCode, 400);
        assert.deepEqual(response.json(), {
          statusCode: 400,
          message: 'El cuerpo de la petición no es un JSON válido',
        });
        assert.deepEqual(await t.app.db.select({ value: count() }).from(users), before);
        assert.equal(({} as Record<string, unknown>).role, undefined);
      });
    }

    it('keeps unicode names as written', async () => {
      const response = await register(
        registration('unicode@portal.test', { name: 'José Ñandú 李', lastName: 'Ærøskøbing' }),
      );
      assert.equal(response.statusCode, 201);
      assert.equal((await userRow('unicode@portal.test'))?.name, 'José Ñandú 李');
    });
  });

  describe('POST /auth/verify-registration', () => {
    const invalid = { statusCode: 400, code: 'INVALID_CODE', message: 'Código inválido o expirado' };

    async function pending(email: string) {
      assert.equal((await register(registration(email))).statusCode, 201);
      return codeIn((await mailsTo(t.app, transport, email)).at(-1));
    }

    it('refuses a wrong code, an unknown email and a used code with the same 400', async () => {
      const code = await pending('verifica@portal.test');
      assert.deepEqual((await verify('verifica@portal.test', wrong(code))).json(), invalid);
      assert.deepEqual((await verify('nadie@portal.test', code)).json(), invalid);
      assert.equal((await verify('verifica@portal.test', code)).statusCode, 200);
      const reused = await verify('verifica@portal.test', code);
      assert.equal(reused.statusCode, 400);
      assert.deepEqual(reused.json(), invalid);
    });

    it('refuses a code after its 10 minutes', async () => {
      const code = await pending('expira@portal.test');
      clock.advance(10 * 60_000 + 1);
      assert.deepEqual((await verify('expira@portal.test', code)).json(), invalid);
      assert.equal((await userRow('expira@portal.test'))?.status, 'pending_verification');
    });

    it('accepts a code just before its 10 minutes end', async () => {
      const code = await pending('a-tiempo@portal.test');
      clock.advance(10 * 60_000 - 1000);
      assert.equal((await verify('a-tiempo@portal.test', code)).statusCode, 200);
    });

    it('kills the code at the fifth wrong try: 429, and the right code no longer works', async () => {
      const email = 'intentos@portal.test';
      const code = await pending(email);
      for (let attempt = 1; attempt <= 4; attempt++) {
        assert.equal((await verify(email, wrong(code))).statusCode, 400, `try ${attempt}`);
      }
      const fifth = await verify(email, wrong(code));
      assert.equal(fifth.statusCode, 429);
      assert.deepEqual(fifth.json(), {
        statusCode: 429,
        code: 'CODE_ATTEMPTS_EXCEEDED',
        message: 'Demasiados intentos fallidos. Solicita un código nuevo.',
      });
      assert.equal((await verify(email, code)).statusCode, 429);
      assert.equal((await userRow(email))?.status, 'pending_verification');

      clock.advance(60_000);
      assert.equal((await resend(email)).statusCode, 200);
      assert.equal((await verify(email, codeIn((await mailsTo(t.app, transport, email)).at(-1)))).statusCode, 200);
    });

    it('lets only five of many concurrent wrong guesses count', async () => {
      const email = 'paralelo@portal.test';
      const code = await pending(email);
      const answers = await Promise.all(Array.from({ length: 12 }, () => verify(email, wrong(code))));
      assert.equal(answers.filter((answer) => answer.statusCode === 400).length, 4);
      const [row] = await t.app.db
        .select()
        .from(accountCodes)
        .innerJoin(users, eq(users.id, accountCodes.userId))
        .where(eq(users.email, email));
      assert.equal(row?.account_codes.attempts, 5);
      assert.equal((await verify(email, code)).statusCode, 429);
    });

    it('refuses a malformed code with a validation 400 that costs no try', async () => {
      const email = 'formato@portal.test';
      const code = await pending(email);
      for (const bad of ['12345', '1234567', 'abcdef', 123456]) {
        const response = await post(t.app, '/auth/verify-registration', { email, code: bad });
        assert.equal(response.statusCode, 400);
        assert.equal(response.json().code, 'VALIDATION_ERROR');
      }
      assert.equal((await verify(email, code)).statusCode, 200);
    });
  });

  describe('POST /auth/resend-verification', () => {
    it('mails a new code, and within 60 s answers 429 with the seconds left', async () => {
      const email = 'reenvio@portal.test';
      await register(registration(email));
      const first = codeIn((await mailsTo(t.app, transport, email))[0]);

      clock.advance(15_000);
      const early = await resend(email);
      assert.equal(early.statusCode, 429);
      assert.equal(early.headers['retry-after'], '45');
      assert.deepEqual(early.json(), {
        statusCode: 429,
        code: 'CODE_COOLDOWN',
        message: 'Espera 45 segundos antes de pedir otro código',
        retryAfter: 45,
      });

      clock.advance(45_000);
      const response = await resend(email);
      assert.equal(response.statusCode, 200);
      assert.deepEqual(response.json(), {
        message: 'Si la cuenta está pendiente de verificación, te enviamos un código nuevo.',
        resendAfter: 60,
      });
      const mails = await mailsTo(t.app, transport, email);
      assert.equal(mails.length, 2);
      const second = codeIn(mails[1]);
      assert.equal((await verify(email, first)).statusCode, 400, 'the earlier code died with the new one');
      assert.equal((await verify(email, second)).statusCode, 200);
    });

    it('answers an unknown and an active email exactly like a pending one, cooldown included', async () => {
      await register(registration('pendiente-r@portal.test'));
      clock.advance(60_000);
      const emails = ['pendiente-r@portal.test', 'desconocido-r@portal.test', adminEmail];
      const firsts = await Promise.all(emails.map(resend));
      const seconds = await Promise.all(emails.map(resend));
      for (const [i, email] of emails.entries()) {
        assert.equal(firsts[i]!.statusCode, 200, email);
        assert.equal(firsts[i]!.body, firsts[0]!.body, email);
        assert.equal(seconds[i]!.statusCode, 429, email);
        assert.equal(seconds[i]!.body, seconds[0]!.body, email);
      }
      assert.equal((await mailsTo(t.app, transport, adminEmail)).length, 0);
      assert.equal((await mailsTo(t.app, transport, 'desconocido-r@portal.test')).length, 0);
    });

    it('mails a recipient at most 10 times an hour', async () => {
      const email = 'muchos@portal.test';
      await register(registration(email));
      for (let i = 0; i < 9; i++) {
        clock.advance(61_000);
        assert.equal((await resend(email)).statusCode, 200, `resend ${i + 1}`);
        // Each code is written before the clock moves on, as in real time: a background write that ran a minute
        // late would meet the cooldown kept with the code and send nothing new.
        await mailsTo(t.app, transport, email);
      }
      clock.advance(61_000);
      const refused = await resend(email);
      assert.equal(refused.statusCode, 429);
      assert.equal(refused.json().code, 'CODE_MAIL_LIMIT');
      assert.match(refused.json().message, /^Has pedido demasiados códigos\. Inténtalo de nuevo en \d+ minutos\.$/);
      assert.ok(Number(refused.headers['retry-after']) > 60);
      assert.equal((await mailsTo(t.app, transport, email)).length, 10);
      clock.advance(60 * 60_000);
      assert.equal((await resend(email)).statusCode, 200);
    });
  });

  describe('POST /auth/verificar-email', () => {
    it('answers { email, status } for an account and null otherwise, nothing more', async () => {
      await register(registration('estado@portal.test'));
      const pendingAnswer = await post(t.app, '/auth/verificar-email', { email: ' ESTADO@portal.test' });
      assert.equal(pendingAnswer.statusCode, 200);
      assert.deepEqual(pendingAnswer.json(), { email: 'estado@portal.test', status: 'pending_verification' });
      assert.deepEqual((await post(t.app, '/auth/verificar-email', { email: adminEmail })).json(), {
        email: adminEmail,
        status: 'active',
      });
      const unknown = await post(t.app, '/auth/verificar-email', { email: 'nadie@portal.test' });
      assert.equal(unknown.statusCode, 200);
      assert.equal(unknown.body, 'null');
    });

    it('is rate-limited per IP', async () => {
      const limited = await buildTestApp(backend, { authRateLimitPerMinute: 3 });
      try {
        const answers = [];
        for (let i = 0; i < 4; i++)
          answers.push(await post(limited.app, '/auth/verificar-email', { email: `x${i}@portal.test` }));
        assert.deepEqual(
          answers.map((answer) => answer.statusCode),
          [200, 200, 200, 429],
        );
        assert.equal(answers[3]!.json().code, 'RATE_LIMITED');
        assert.ok(Number(answers[3]!.headers['retry-after']) > 0);
      } finally {
        await limited.close();
      }
    });
  });

  it('gives a user activated by the code no duplicate plans', async () => {
    const email = 'planes@portal.test';
    await register(registration(email));
    await verify(email, codeIn((await mailsTo(t.app, transport, email)).at(-1)));
    const user = await userRow(email);
    const plans = await t.app.db.select().from(userPlans).where(eq(userPlans.userId, user!.id));
    assert.equal(plans.length, 3);
  });
});
