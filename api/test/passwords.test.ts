import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { base64url, SignJWT } from 'jose';
import { createPrivateKey, createSecretKey } from 'node:crypto';
import { users } from '../src/db/schema.js';
import { capturingTransport, codeIn, mailsTo, manualClock, post } from './helpers/accounts.js';
import { buildTestApp, createUser, forEachBackend, generateEcKeyPem, login, type TestApp } from './helpers/app.js';

forEachBackend((backend) => {
  let t: TestApp;
  const transport = capturingTransport();
  const clock = manualClock();
  before(async () => {
    t = await buildTestApp(
      backend,
      { authRateLimitPerMinute: 1000, loginRateLimitPerMinute: 1000 },
      { mailTransport: transport, clock },
    );
  });
  after(() => t.close());
  beforeEach(() => clock.advance(2 * 60 * 60_000));

  const currentUser = (token: string) =>
    t.app.inject({ method: 'GET', url: '/auth/user', headers: { authorization: `Bearer ${token}` } });
  const loginRequest = (email: string, password: string) => post(t.app, '/auth/login', { email, password });
  const forgot = (email: string) => post(t.app, '/auth/forgot-password', { email });
  const change = (email: string, code: string, newPassword: string) =>
    post(t.app, '/auth/change-password', { email, code, newPassword });
  const invalidCredentials = { statusCode: 401, code: 'INVALID_CREDENTIALS', message: 'Credenciales inválidas' };

  describe('POST /auth/forgot-password and /auth/change-password', () => {
    it('mails a reset code that sets the new password and ends every earlier session', async () => {
      const email = 'olvido@portal.test';
      await createUser(t.app, { email, password: 'clave-vieja', status: 'active' });
      const sessions = [await login(t.app, email, 'clave-vieja'), await login(t.app, email, 'clave-vieja')];

      const response = await forgot(` ${email.toUpperCase()}`);
      assert.equal(response.statusCode, 200);
      assert.deepEqual(response.json(), {
        message: 'Si el email está registrado, te enviamos un código para cambiar la contraseña.',
      });
      const [mail] = await mailsTo(t.app, transport, email);
      assert.match(mail!.subject, /cambiar la contraseña/);
      assert.match(mail!.html, /\/reset-password\?email=olvido%40portal\.test/);

      const changed = await change(email, codeIn(mail), 'clave-nueva');
      assert.equal(changed.statusCode, 200);
      assert.deepEqual(changed.json(), { message: 'Contraseña cambiada correctamente. Ya puedes iniciar sesión.' });
      for (const token of sessions) assert.equal((await currentUser(token)).statusCode, 401);
      assert.deepEqual((await loginRequest(email, 'clave-vieja')).json(), invalidCredentials);
      await login(t.app, email, 'clave-nueva');
      assert.equal((await change(email, codeIn(mail), 'otra-clave')).statusCode, 400, 'the code was used up');
    });

    it('answers an unknown email exactly like a known one, cooldown included', async () => {
      await createUser(t.app, { email: 'conocido@portal.test', password: 'clave-conocida', status: 'active' });
      const known = [await forgot('conocido@portal.test'), await forgot('conocido@portal.test')];
      const unknown = [await forgot('desconocido@portal.test'), await forgot('desconocido@portal.test')];
      for (const i of [0, 1]) {
        assert.equal(known[i]!.statusCode, unknown[i]!.statusCode);
        assert.equal(known[i]!.body, unknown[i]!.body);
        assert.equal(known[i]!.headers['retry-after'], unknown[i]!.headers['retry-after']);
      }
      assert.equal(known[1]!.statusCode, 429);
      assert.equal((await mailsTo(t.app, transport, 'desconocido@portal.test')).length, 0);
    });

    it('refuses a wrong code, a wrong email and a short password without changing anything', async () => {
      const email = 'codigo@portal.test';
      await createUser(t.app, { email, password: 'clave-codigo', status: 'active' });
      await forgot(email);
      const code = codeIn((await mailsTo(t.app, transport, email)).at(-1));
      const other = String((Number(code) + 7) % 1_000_000).padStart(6, '0');
      assert.deepEqual((await change(email, other, 'clave-nueva')).json(), {
        statusCode: 400,
        code: 'INVALID_CODE',
        message: 'Código inválido o expirado',
      });
      assert.equal((await change('otro@portal.test', code, 'clave-nueva')).statusCode, 400);
      const short = await change(email, code, '1234');
      assert.equal(short.statusCode, 400);
      assert.equal(short.json().message, "Datos inválidos: 'newPassword' debe tener al menos 5 caracteres");
      await login(t.app, email, 'clave-codigo');
      clock.advance(10 * 60_000 + 1);
      assert.equal((await change(email, code, 'clave-nueva')).statusCode, 400, 'expired');
      await login(t.app, email, 'clave-codigo');
    });
  });

  describe('PUT and POST /auth/update-password', () => {
    for (const method of ['PUT', 'POST'] as const) {
      it(`${method}: needs the current password, answers a new token and ends the other sessions`, async () => {
        const email = `cambio-${method.toLowerCase()}@portal.test`;
        await createUser(t.app, { email, password: 'clave-actual', status: 'active' });
        const token = await login(t.app, email, 'clave-actual');
        const other = await login(t.app, email, 'clave-actual');
        const update = (body: unknown) =>
          t.app.inject({
            method,
            url: '/auth/update-password',
            payload: body as object,
            headers: { authorization: `Bearer ${token}` },
          });

        const wrong = await update({ currentPassword: 'no-es', newPassword: 'clave-nueva' });
        assert.equal(wrong.statusCode, 400);
        assert.deepEqual(wrong.json(), {
          statusCode: 400,
          code: 'INVALID_CURRENT_PASSWORD',
          message: 'La contraseña actual es incorrecta',
        });
        assert.equal((await update({ currentPassword: 'clave-actual', newPassword: '1234' })).statusCode, 400);

        const response = await update({ currentPassword: 'clave-actual', newPassword: 'clave-nueva' });
        assert.equal(response.statusCode, 200);
        assert.equal(response.json().message, 'Contraseña actualizada correctamente');
        assert.equal((await currentUser(response.json().access_token)).statusCode, 200);
        assert.equal((await currentUser(token)).statusCode, 401);
        assert.equal((await currentUser(other)).statusCode, 401);
        await login(t.app, email, 'clave-nueva');
      });
    }

    it('needs a session', async () => {
      const response = await t.app.inject({
        method: 'PUT',
        url: '/auth/update-password',
        payload: { currentPassword: 'a', newPassword: 'bbbbb' },
      });
      assert.equal(response.statusCode, 401);
    });
  });

  describe('sign-in lockout', () => {
    it('locks an email after 5 failures with the generic 401 plus Retry-After, doubling up to 15 minutes', async () => {
      const email = 'bloqueo@portal.test';
      await createUser(t.app, { email, password: 'clave-buena', status: 'active' });
      for (let i = 1; i <= 4; i++) {
        const response = await loginRequest(email, 'mala');
        assert.deepEqual(response.json(), invalidCredentials, `failure ${i}`);
        assert.equal(response.headers['retry-after'], undefined);
      }
      const fifth = await loginRequest(email, 'mala');
      assert.equal(fifth.statusCode, 401);
      assert.deepEqual(fifth.json(), { ...invalidCredentials, retryAfter: 30 });
      assert.equal(fifth.headers['retry-after'], '30');

      const locked = await loginRequest(email, 'clave-buena');
      assert.equal(locked.statusCode, 401, 'even the right password waits');
      assert.equal(locked.json().message, 'Credenciales inválidas');
      assert.equal(locked.headers['retry-after'], '30');

      clock.advance(30_000);
      assert.equal((await loginRequest(email, 'mala')).headers['retry-after'], '60', 'the next lock is twice as long');
      for (const expected of ['120', '240', '480', '900', '900']) {
        clock.advance(15 * 60_000);
        assert.equal((await loginRequest(email, 'mala')).headers['retry-after'], expected);
      }

      clock.advance(15 * 60_000);
      assert.equal((await loginRequest(email, 'clave-buena')).statusCode, 200, 'released after the lock');
      assert.equal(
        (await loginRequest(email, 'mala')).headers['retry-after'],
        undefined,
        'a success forgets the failures',
      );
    });

    it('locks an unknown email the same way, so the lock reveals no account', async () => {
      await createUser(t.app, { email: 'existe@portal.test', password: 'clave-existe', status: 'active' });
      const answers: Record<string, Array<[number, string, string | undefined]>> = {};
      for (const email of ['existe@portal.test', 'no-existe@portal.test']) {
        answers[email] = [];
        for (let i = 0; i < 7; i++) {
          const response = await loginRequest(email, 'mala');
          answers[email]!.push([
            response.statusCode,
            response.body,
            response.headers['retry-after'] as string | undefined,
          ]);
        }
      }
      assert.deepEqual(answers['existe@portal.test'], answers['no-existe@portal.test']);
    });

    it('counts wrong current passwords on update-password and refuses it while locked', async () => {
      const email = 'sesion-robada@portal.test';
      await createUser(t.app, { email, password: 'clave-real', status: 'active' });
      const token = await login(t.app, email, 'clave-real');
      const update = (currentPassword: string) =>
        t.app.inject({
          method: 'PUT',
          url: '/auth/update-password',
          payload: { currentPassword, newPassword: 'clave-nueva' },
          headers: { authorization: `Bearer ${token}` },
        });
      for (let i = 0; i < 5; i++) assert.equal((await update('adivina')).statusCode, 400);
      const locked = await update('clave-real');
      assert.equal(locked.statusCode, 429);
      assert.equal(locked.json().code, 'ACCOUNT_LOCKED');
      assert.equal(locked.headers['retry-after'], '30');
      assert.equal((await loginRequest(email, 'clave-real')).statusCode, 401);
      clock.advance(30_000);
      assert.equal((await update('clave-real')).statusCode, 200);
    });

    it('lets a reset code lift the lock', async () => {
      const email = 'reset-bloqueo@portal.test';
      await createUser(t.app, { email, password: 'clave-olvidada', status: 'active' });
      for (let i = 0; i < 5; i++) await loginRequest(email, 'mala');
      await forgot(email);
      await change(email, codeIn((await mailsTo(t.app, transport, email)).at(-1)), 'clave-recordada');
      assert.equal((await loginRequest(email, 'clave-recordada')).statusCode, 200);
    });
  });

  describe('tokens', () => {
    const now = () => Math.floor(Date.now() / 1000);

    it('accepts only untampered, current tokens', async () => {
      const email = 'tokens@portal.test';
      const id = await createUser(t.app, { email, password: 'clave-tokens', status: 'active' });
      const good = await login(t.app, email, 'clave-tokens');
      assert.equal((await currentUser(good)).statusCode, 200);
      const [header, payload, signature] = good.split('.') as [string, string, string];
      // The jti of the live session: each forged token below is refused for its own defect alone.
      const jti = JSON.parse(new TextDecoder().decode(base64url.decode(payload))).jti as string;
      const claims = { sub: String(id), role: 2, tv: 0, jti, iat: now(), exp: now() + 3600 };
      const sign = (extra: Record<string, unknown>, key = t.signingKey.privateKey, kid = t.signingKey.kid) =>
        new SignJWT({ ...claims, ...extra }).setProtectedHeader({ alg: 'ES256', kid }).sign(key);
      const encode = (value: unknown) => base64url.encode(JSON.stringify(value));
      const revoked = await login(t.app, email, 'clave-tokens');
      await post(t.app, '/auth/logout', undefined, revoked);

      const table: Array<[string, string]> = [
        [
          'payload changed (role 1)',
          `${header}.${encode({ ...JSON.parse(new TextDecoder().decode(base64url.decode(payload))), role: 1 })}.${signature}`,
        ],
        ['signature of another token', `${header}.${payload}.${revoked.split('.')[2]}`],
        ['signature removed', `${header}.${payload}.`],
        ['alg none', `${encode({ alg: 'none', typ: 'JWT' })}.${payload}.`],
        [
          'HS256 keyed with the public JWK',
          await new SignJWT(claims)
            .setProtectedHeader({ alg: 'HS256', kid: t.signingKey.kid })
            .sign(createSecretKey(Buffer.from(JSON.stringify(t.signingKey.publicJwk)))),
        ],
        ['expired', await sign({ iat: now() - 7200, exp: now() - 60 })],
        ['foreign key', await sign({}, createPrivateKey(generateEcKeyPem()))],
        ['unknown kid', await sign({}, t.signingKey.privateKey, 'otra')],
        ['older token version', await sign({ tv: -1 })],
        ['logged out', revoked],
        ['user that does not exist', await sign({ sub: '999999' })],
        ['garbage', 'a.b.c'],
      ];
      for (const [what, token] of table) {
        const response = await currentUser(token);
        assert.equal(response.statusCode, 401, what);
        assert.deepEqual(
          response.json(),
          { statusCode: 401, code: 'UNAUTHENTICATED', message: 'No autenticado' },
          what,
        );
      }
      assert.equal((await currentUser(await sign({}))).statusCode, 200, 'the same claims, properly signed, pass');
    });

    it('logout revokes the presented token', async () => {
      const token = await login(t.app);
      assert.equal((await post(t.app, '/auth/logout', undefined, token)).statusCode, 204);
      assert.equal((await currentUser(token)).statusCode, 401);
    });

    it("an admin suspending a user ends the user's sessions", async () => {
      const id = await createUser(t.app, { email: 'suspender@portal.test', password: 'clave-s', status: 'active' });
      const token = await login(t.app, 'suspender@portal.test', 'clave-s');
      const response = await t.app.inject({
        method: 'PUT',
        url: `/auth/editar/${id}`,
        payload: { status: 'suspended' },
        headers: { authorization: `Bearer ${await login(t.app)}` },
      });
      assert.equal(response.statusCode, 200);
      assert.equal(response.json().user.status, 'suspended');
      // Ended, and told why: 403 USER_SUSPENDED instead of the plain 401.
      assert.equal((await currentUser(token)).statusCode, 403);
      const [row] = await t.app.db.select().from(users).where(eq(users.id, id));
      assert.equal(row?.tokenVersion, 1);
      assert.equal((await loginRequest('suspender@portal.test', 'clave-s')).json().code, 'USER_SUSPENDED');
    });
  });
});
