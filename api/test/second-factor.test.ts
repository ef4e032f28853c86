// The TOTP second factor (docs/decisions/0017-second-factor.md): setting it up, the recovery codes, the second step of
// a password sign-in and the admin gate under ADMIN_SECOND_FACTOR=required. Codes are computed here with otplib from
// the secret the API handed out; time is the app's clock, moved by hand, so every 30-second step is known. Attackers
// use plain HTTP.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { generate } from 'otplib';
import { auditLog, recoveryCodes, sessions, signInTickets, totpFactors, users } from '../src/db/schema.js';
import { claimTotpStep } from '../src/domain/second-factor/totp.js';
import { findUserByEmail } from '../src/domain/accounts/queries.js';
import {
  adminEmail,
  adminPassword,
  buildTestApp,
  createUser,
  forEachBackend,
  login,
  sessionToken,
  type TestApp,
} from './helpers/app.js';
import { listRoutes, type RouteKey } from './helpers/hostile.js';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

const password = 'clave-segundo-factor';
const recoveryPattern = /^[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{5}-[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{5}$/;

/** A client of one test app whose clock the test moves. */
function client(getApp: () => FastifyInstance, clock: { now: number }) {
  const call = (method: Method, url: string, options: { token?: string; payload?: unknown } = {}) =>
    getApp().inject({
      method,
      url,
      headers: options.token ? { authorization: `Bearer ${options.token}` } : {},
      ...(options.payload === undefined ? {} : { payload: options.payload as object }),
    });
  /** The code the authenticator app shows `steps` steps from now. */
  const code = (secret: string, steps = 0) => generate({ secret, epoch: Math.floor(clock.now / 1000) + steps * 30 });
  /** On to the next 30-second step: a code not used yet. */
  const nextStep = () => {
    clock.now += 30_000;
  };
  const newAccount = async (email: string) => {
    await createUser(getApp(), { email, password, status: 'active' });
    return login(getApp(), email, password);
  };
  /** Sets up and confirms the authenticator in the session `token`; the clock is then on a fresh step. */
  const enableTotp = async (token: string) => {
    const setup = await call('POST', '/auth/totp', { token });
    assert.equal(setup.statusCode, 200, setup.body);
    const { secret } = setup.json<{ secret: string }>();
    const confirmed = await call('POST', '/auth/totp/confirmar', { token, payload: { code: await code(secret) } });
    assert.equal(confirmed.statusCode, 200, confirmed.body);
    nextStep();
    return { secret, recoveryCodes: confirmed.json<{ recoveryCodes: string[] }>().recoveryCodes };
  };
  const passwordStep = async (email: string, secret = password) => {
    const response = await call('POST', '/auth/login', { payload: { email, password: secret } });
    assert.equal(response.statusCode, 403, response.body);
    const body = response.json<{ code: string; ticket: string; methods: string[]; access_token?: string }>();
    assert.equal(body.code, 'SECOND_FACTOR_REQUIRED');
    return body;
  };
  const secondStep = (ticket: string, secondFactor: string) =>
    call('POST', '/auth/login/segundo-paso', { payload: { ticket, code: secondFactor } });
  return { call, code, nextStep, newAccount, enableTotp, passwordStep, secondStep };
}

const sessionOf = async (app: FastifyInstance, token: string) => {
  const verified = await app.tokens.verify(token);
  assert.ok(verified, 'the token is valid');
  const [row] = await app.db.select().from(sessions).where(eq(sessions.id, verified.sessionId));
  assert.ok(row);
  return row;
};

/** Every (method, url) the app answers but the framework's own HEAD/OPTIONS and the catch-all. */
const answeredRoutes = (app: FastifyInstance): RouteKey[] =>
  listRoutes(app).filter(({ method, url }) => method !== 'HEAD' && method !== 'OPTIONS' && !url.includes('*'));

/** A call to `route` with made-up parameters and an empty JSON body: the admin gate answers before validation. */
const probe = (app: FastifyInstance, route: RouteKey, token: string) =>
  app.inject({
    method: route.method as Method,
    url: route.url.replace(/:[A-Za-z0-9_]+/g, '999999'),
    headers: { authorization: `Bearer ${token}` },
    ...(route.method === 'GET' || route.method === 'DELETE' ? {} : { payload: {} }),
  });

forEachBackend((backend) => {
  const clock = { now: Date.now() };
  let t: TestApp;
  before(async () => {
    t = await buildTestApp(
      backend,
      { adminSecondFactor: 'required', loginRateLimitPerMinute: 10_000, authRateLimitPerMinute: 10_000 },
      { clock: () => clock.now },
    );
  });
  after(() => t.close());
  const { call, code, nextStep, newAccount, enableTotp, passwordStep, secondStep } = client(() => t.app, clock);

  describe('changing the factors of an account that has one', () => {
    it('takes a session that proved a factor: a stolen or Google-like session cannot add its own way in', async () => {
      const email = 'factores@portal.test';
      const verified = await newAccount(email);
      await enableTotp(verified);
      // The attacker's session: valid, but it proved no second factor (a stolen token, a Google/Apple sign-in).
      const account = await findUserByEmail(t.app.db, email);
      assert.ok(account);
      const stolen = await sessionToken(t.app, account);
      for (const [method, url, payload] of [
        ['POST', '/auth/totp', undefined],
        ['POST', '/auth/totp/confirmar', { code: '123456' }],
        ['POST', '/auth/passkeys/opciones-registro', undefined],
        ['POST', '/auth/passkeys', { ceremonyId: 'c'.repeat(43), name: 'Intrusa', response: { id: 'x' } }],
        ['DELETE', '/auth/passkeys/abc', undefined],
      ] as const) {
        const answer = await call(method, url, { token: stolen, payload });
        assert.equal(answer.statusCode, 403, `${method} ${url}: ${answer.body}`);
        assert.equal(answer.json().code, 'VERIFIED_SESSION_REQUIRED');
        assert.match(answer.json().message, /vuelve a iniciar sesión con tu segundo factor/);
      }
      const factors = await t.app.db.select().from(totpFactors).where(eq(totpFactors.userId, account.id));
      assert.equal(factors.length, 1, 'the confirmed authenticator is untouched');
      assert.ok(factors[0]?.confirmedAt);
      // The session that proved the authenticator may add a passkey.
      const options = await call('POST', '/auth/passkeys/opciones-registro', { token: verified });
      assert.equal(options.statusCode, 200, options.body);
    });

    it("trusts the session that sets up an account's first factor", async () => {
      const email = 'primer-factor@portal.test';
      await createUser(t.app, { email, password, status: 'active' });
      const account = await findUserByEmail(t.app.db, email);
      assert.ok(account);
      const token = await sessionToken(t.app, account);
      const setup = await call('POST', '/auth/totp', { token });
      assert.equal(setup.statusCode, 200, setup.body);
      const options = await call('POST', '/auth/passkeys/opciones-registro', { token });
      assert.equal(options.statusCode, 200, options.body);
    });
  });

  describe('setting up the authenticator', () => {
    it('answers the status, a secret with its otpauth address and QR code, and confirms with a right code only', async () => {
      const token = await newAccount('alta@portal.test');
      const before = await call('GET', '/auth/seguridad', { token });
      assert.equal(before.statusCode, 200);
      assert.deepEqual(before.json(), {
        totp: false,
        passkeys: 0,
        recoveryCodesLeft: 0,
        secondFactorRequired: false,
        sessionVerified: false,
        sessionTrustedDevice: false,
      });

      const early = await call('POST', '/auth/totp/confirmar', { token, payload: { code: '123456' } });
      assert.equal(early.statusCode, 404);
      assert.equal(early.json().code, 'TOTP_NOT_STARTED');
      assert.equal(early.json().message, 'Primero genera el código QR');

      const first = (await call('POST', '/auth/totp', { token })).json<{ secret: string }>();
      const setup = await call('POST', '/auth/totp', { token });
      assert.equal(setup.statusCode, 200);
      const { secret, otpauthUrl, qrCode } = setup.json<{ secret: string; otpauthUrl: string; qrCode: string }>();
      assert.match(secret, /^[A-Z2-7]{32}$/, '20 random bytes in base32');
      assert.notEqual(secret, first.secret, 'a new QR code replaces the unconfirmed secret');
      const url = new URL(otpauthUrl);
      assert.equal(url.protocol, 'otpauth:');
      assert.equal(url.host, 'totp');
      assert.equal(decodeURIComponent(url.pathname), '/Portal de Aplicaciones:alta@portal.test');
      assert.equal(url.searchParams.get('secret'), secret);
      assert.equal(url.searchParams.get('issuer'), 'Portal de Aplicaciones');
      assert.equal(url.searchParams.get('algorithm') ?? 'SHA1', 'SHA1');
      assert.equal(url.searchParams.get('digits') ?? '6', '6');
      assert.equal(url.searchParams.get('period') ?? '30', '30');
      assert.ok(qrCode.startsWith('data:image/svg+xml;base64,'));
      assert.match(Buffer.from(qrCode.split(',')[1]!, 'base64').toString(), /^<svg[\s\S]*<\/svg>\s*$/);

      // The replaced secret's code is no good; nor a wrong one.
      for (const wrong of [
        await code(first.secret),
        String((Number(await code(secret)) + 1) % 1_000_000).padStart(6, '0'),
      ]) {
        const refused = await call('POST', '/auth/totp/confirmar', { token, payload: { code: wrong } });
        assert.equal(refused.statusCode, 400);
        assert.deepEqual(refused.json(), {
          statusCode: 400,
          message: 'Código incorrecto',
          code: 'INVALID_SECOND_FACTOR',
        });
      }
      const confirmed = await call('POST', '/auth/totp/confirmar', { token, payload: { code: await code(secret) } });
      assert.equal(confirmed.statusCode, 200, confirmed.body);
      const codes = confirmed.json<{ recoveryCodes: string[] }>().recoveryCodes;
      assert.equal(codes.length, 10);
      assert.equal(new Set(codes).size, 10);
      for (const recovery of codes) assert.match(recovery, recoveryPattern);

      // Stored as SHA-256 of the code without its dash, never the code itself.
      const user = await findUserByEmail(t.app.db, 'alta@portal.test');
      const stored = await t.app.db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, user!.id));
      assert.deepEqual(
        stored.map((row) => row.codeHash).sort(),
        codes.map((recovery) => createHash('sha256').update(recovery.replace('-', '')).digest('hex')).sort(),
      );

      const after = await call('GET', '/auth/seguridad', { token });
      assert.deepEqual(after.json(), {
        totp: true,
        passkeys: 0,
        recoveryCodesLeft: 10,
        secondFactorRequired: false,
        sessionVerified: true,
        sessionTrustedDevice: false,
      });
      assert.equal((await sessionOf(t.app, token)).secondFactor, true, 'setting it up proves it in this session');

      nextStep();
      const again = await call('POST', '/auth/totp', { token });
      assert.equal(again.statusCode, 409);
      assert.equal(again.json().code, 'TOTP_ALREADY_ENABLED');
      assert.equal(again.json().message, 'Ya tienes una aplicación de autenticación activa');
      const reconfirm = await call('POST', '/auth/totp/confirmar', { token, payload: { code: await code(secret) } });
      assert.equal(reconfirm.statusCode, 409);
      assert.equal(reconfirm.json().code, 'TOTP_ALREADY_ENABLED');
    });

    it('is for signed-in portal sessions only: no token, or a partner token, is refused', async () => {
      const token = await newAccount('socio@portal.test');
      const partner = (await t.app.tokens.signPartner((await t.app.tokens.verify(token))!, 'https://socio.example.com'))
        .token;
      for (const [method, url, payload] of [
        ['GET', '/auth/seguridad', undefined],
        ['POST', '/auth/totp', undefined],
        ['POST', '/auth/totp/confirmar', { code: '123456' }],
        ['DELETE', '/auth/totp', { code: '123456' }],
        ['POST', '/auth/codigos-recuperacion', { code: '123456' }],
      ] as const) {
        assert.equal((await call(method, url, { payload })).statusCode, 401, `${method} ${url} anonymous`);
        assert.equal(
          (await call(method, url, { token: partner, payload })).statusCode,
          401,
          `${method} ${url} partner`,
        );
      }
    });
  });

  describe('the second step of a password sign-in', () => {
    it('answers a ticket and the methods, no token; the right code signs in with a session that proved it', async () => {
      const { secret } = await enableTotp(await newAccount('paso@portal.test'));
      const response = await call('POST', '/auth/login', { payload: { email: 'paso@portal.test', password } });
      assert.equal(response.statusCode, 403);
      const body = response.json();
      assert.deepEqual(Object.keys(body).sort(), [
        'code',
        'message',
        'methods',
        'permiteConfiarDispositivo',
        'statusCode',
        'ticket',
      ]);
      assert.equal(body.message, 'Confirma tu identidad con tu segundo factor');
      assert.deepEqual(body.methods, ['totp', 'recovery']);
      assert.match(body.ticket, /^[A-Za-z0-9_-]{43}$/);
      assert.equal(body.access_token, undefined);

      const signedIn = await secondStep(body.ticket, await code(secret));
      assert.equal(signedIn.statusCode, 200, signedIn.body);
      const { access_token: token, user } = signedIn.json();
      assert.equal(user.email, 'paso@portal.test');
      assert.equal((await call('GET', '/auth/user', { token })).statusCode, 200);
      assert.equal((await sessionOf(t.app, token)).secondFactor, true);
      assert.equal((await call('GET', '/auth/seguridad', { token })).json().sessionVerified, true);
    });

    it('a wrong password still answers invalid credentials, never a ticket', async () => {
      await enableTotp(await newAccount('mala@portal.test'));
      const response = await call('POST', '/auth/login', { payload: { email: 'mala@portal.test', password: 'otra' } });
      assert.equal(response.statusCode, 401);
      assert.equal(response.json().code, 'INVALID_CREDENTIALS');
    });

    it('refuses a code already used (the same step), on a second sign-in and by an earlier step', async () => {
      const { secret } = await enableTotp(await newAccount('replay@portal.test'));
      const used = await code(secret);
      const first = await passwordStep('replay@portal.test');
      assert.equal((await secondStep(first.ticket, used)).statusCode, 200);
      const second = await passwordStep('replay@portal.test');
      const replayed = await secondStep(second.ticket, used);
      assert.equal(replayed.statusCode, 401);
      assert.deepEqual(replayed.json(), {
        statusCode: 401,
        message: 'Código incorrecto',
        code: 'INVALID_SECOND_FACTOR',
      });
      // The previous step's code is within the window, but before the step accepted.
      const older = await secondStep(second.ticket, await code(secret, -1));
      assert.equal(older.statusCode, 401);
      assert.equal(older.json().code, 'INVALID_SECOND_FACTOR');
      // The next step's code (a phone a little ahead) is taken.
      assert.equal((await secondStep(second.ticket, await code(secret, 1))).statusCode, 200);
      // Two steps away is outside the window.
      const third = await passwordStep('replay@portal.test');
      nextStep();
      nextStep();
      assert.equal((await secondStep(third.ticket, await code(secret, 2))).statusCode, 401);
    });

    it('uses a ticket once', async () => {
      const { secret } = await enableTotp(await newAccount('unavez@portal.test'));
      const { ticket } = await passwordStep('unavez@portal.test');
      assert.equal((await secondStep(ticket, await code(secret))).statusCode, 200);
      nextStep();
      const again = await secondStep(ticket, await code(secret));
      assert.equal(again.statusCode, 401);
      assert.equal(again.json().code, 'SIGN_IN_TICKET_EXPIRED');
      assert.equal(again.json().message, 'El tiempo para confirmar tu identidad terminó. Inicia sesión de nuevo');
    });

    it('5 wrong codes end the ticket; they count as wrong passwords: the address is locked, on record', async () => {
      const { secret } = await enableTotp(await newAccount('adivina@portal.test'));
      const { ticket } = await passwordStep('adivina@portal.test');
      const right = await code(secret);
      const wrong = String((Number(right) + 1) % 1_000_000).padStart(6, '0');
      for (let attempt = 1; attempt <= 4; attempt++) {
        const refused = await secondStep(ticket, wrong);
        assert.equal(refused.statusCode, 401);
        assert.equal(refused.json().code, 'INVALID_SECOND_FACTOR', `attempt ${attempt}`);
      }
      const fifth = await secondStep(ticket, wrong);
      assert.equal(fifth.statusCode, 401);
      assert.equal(fifth.json().code, 'SIGN_IN_TICKET_EXPIRED');
      const late = await secondStep(ticket, right);
      assert.equal(late.statusCode, 401);
      assert.equal(late.json().code, 'SIGN_IN_TICKET_EXPIRED', 'a dead ticket takes no right code either');

      // Signing in with the password again does not forget the wrong codes: the address is locked.
      const locked = await call('POST', '/auth/login', { payload: { email: 'adivina@portal.test', password } });
      assert.equal(locked.statusCode, 401);
      assert.equal(locked.json().code, 'INVALID_CREDENTIALS');
      assert.ok(locked.json().retryAfter > 0);
      const user = await findUserByEmail(t.app.db, 'adivina@portal.test');
      const lockouts = await t.app.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, 'auth.lockout'), eq(auditLog.targetId, user!.id)));
      assert.equal(lockouts.length, 1);

      clock.now += 31_000;
      const { ticket: fresh } = await passwordStep('adivina@portal.test');
      assert.equal((await secondStep(fresh, await code(secret))).statusCode, 200);
    });

    it('a ticket locked out from its address answers the lock before looking at the code', async () => {
      const { secret } = await enableTotp(await newAccount('cerrojo@portal.test'));
      const { ticket } = await passwordStep('cerrojo@portal.test');
      for (let i = 0; i < 5; i++) {
        const other = await passwordStep('cerrojo@portal.test');
        await secondStep(other.ticket, '000000');
      }
      const refused = await secondStep(ticket, await code(secret));
      assert.equal(refused.statusCode, 401);
      assert.equal(refused.json().code, 'INVALID_SECOND_FACTOR');
      assert.ok(refused.json().retryAfter > 0);
      assert.ok(Number(refused.headers['retry-after']) > 0);
      clock.now += 31_000;
      assert.equal((await secondStep(ticket, await code(secret))).statusCode, 200, 'the ticket itself survived');
    });

    it('refuses an expired ticket, and an unknown one', async () => {
      const { secret } = await enableTotp(await newAccount('caduca@portal.test'));
      const { ticket } = await passwordStep('caduca@portal.test');
      await t.app.db
        .update(signInTickets)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(signInTickets.id, createHash('sha256').update(ticket).digest('hex')));
      const expired = await secondStep(ticket, await code(secret));
      assert.equal(expired.statusCode, 401);
      assert.equal(expired.json().code, 'SIGN_IN_TICKET_EXPIRED');
      const unknown = await secondStep('x'.repeat(43), await code(secret));
      assert.equal(unknown.statusCode, 401);
      assert.equal(unknown.json().code, 'SIGN_IN_TICKET_EXPIRED');
    });

    it('two concurrent second steps with one ticket and a valid code: exactly one signs in', async () => {
      const { secret } = await enableTotp(await newAccount('carrera@portal.test'));
      const { ticket } = await passwordStep('carrera@portal.test');
      const valid = await code(secret);
      const answers = await Promise.all([secondStep(ticket, valid), secondStep(ticket, valid)]);
      assert.deepEqual(answers.map((answer) => answer.statusCode).sort(), [200, 401]);
    });

    it('two concurrent sign-ins with two tickets and one code: exactly one signs in', async () => {
      const { secret } = await enableTotp(await newAccount('carrera2@portal.test'));
      const [first, second] = [await passwordStep('carrera2@portal.test'), await passwordStep('carrera2@portal.test')];
      const valid = await code(secret);
      const answers = await Promise.all([secondStep(first.ticket, valid), secondStep(second.ticket, valid)]);
      assert.deepEqual(answers.map((answer) => answer.statusCode).sort(), [200, 401]);
    });

    it('of two uses that read the same last step, the conditional update lets exactly one claim it', async () => {
      await enableTotp(await newAccount('paso-unico@portal.test'));
      const user = (await findUserByEmail(t.app.db, 'paso-unico@portal.test'))!;
      const step = Math.floor(clock.now / 30_000);
      const claims = await Promise.all([
        claimTotpStep(t.app.db, user.id, step),
        claimTotpStep(t.app.db, user.id, step),
      ]);
      assert.deepEqual(claims.sort(), [false, true]);
      assert.equal(await claimTotpStep(t.app.db, user.id, step - 1), false, 'never back to an earlier step');
    });

    it('two concurrent second steps with one recovery code: exactly one signs in', async () => {
      const { recoveryCodes: codes } = await enableTotp(await newAccount('carrera3@portal.test'));
      const [first, second] = [await passwordStep('carrera3@portal.test'), await passwordStep('carrera3@portal.test')];
      const answers = await Promise.all([secondStep(first.ticket, codes[0]!), secondStep(second.ticket, codes[0]!)]);
      assert.deepEqual(answers.map((answer) => answer.statusCode).sort(), [200, 401]);
    });

    it('a recovery code signs in once (typed in any case, with or without the dash), then is refused', async () => {
      const { recoveryCodes: codes } = await enableTotp(await newAccount('recupera@portal.test'));
      const first = await passwordStep('recupera@portal.test');
      const signedIn = await secondStep(first.ticket, codes[0]!);
      assert.equal(signedIn.statusCode, 200, signedIn.body);
      assert.equal((await sessionOf(t.app, signedIn.json().access_token)).secondFactor, true);
      const second = await passwordStep('recupera@portal.test');
      const reused = await secondStep(second.ticket, codes[0]!);
      assert.equal(reused.statusCode, 401);
      assert.equal(reused.json().code, 'INVALID_SECOND_FACTOR');
      const typed = codes[1]!.replace('-', '').toLowerCase();
      const token = (await secondStep(second.ticket, typed)).json().access_token;
      const status = (await call('GET', '/auth/seguridad', { token })).json();
      assert.equal(status.recoveryCodesLeft, 8);
    });

    it('a suspended account gets no session from its ticket', async () => {
      const { secret } = await enableTotp(await newAccount('suspende@portal.test'));
      const { ticket } = await passwordStep('suspende@portal.test');
      await t.app.db.update(users).set({ status: 'suspended' }).where(eq(users.email, 'suspende@portal.test'));
      const refused = await secondStep(ticket, await code(secret));
      assert.equal(refused.statusCode, 403);
      assert.equal(refused.json().code, 'USER_SUSPENDED');
    });
  });

  describe('recovery codes and removing the authenticator', () => {
    it('a new set voids the old one, and needs a right code of the app', async () => {
      const token = await newAccount('nuevos@portal.test');
      const { secret, recoveryCodes: old } = await enableTotp(token);
      const wrong = await call('POST', '/auth/codigos-recuperacion', { token, payload: { code: '000000' } });
      assert.equal(wrong.statusCode, 400);
      assert.equal(wrong.json().code, 'INVALID_SECOND_FACTOR');
      const fresh = await call('POST', '/auth/codigos-recuperacion', { token, payload: { code: await code(secret) } });
      assert.equal(fresh.statusCode, 200, fresh.body);
      const codes = fresh.json<{ recoveryCodes: string[] }>().recoveryCodes;
      assert.equal(codes.length, 10);
      assert.equal(codes.filter((recovery) => old.includes(recovery)).length, 0);

      const { ticket } = await passwordStep('nuevos@portal.test');
      assert.equal((await secondStep(ticket, old[0]!)).statusCode, 401, 'the old set is void');
      assert.equal((await secondStep(ticket, codes[0]!)).statusCode, 200);
    });

    it('removing it needs a right code; then the password alone signs in again', async () => {
      const token = await newAccount('quita@portal.test');
      const { recoveryCodes: codes } = await enableTotp(token);
      const wrong = await call('DELETE', '/auth/totp', { token, payload: { code: '000000' } });
      assert.equal(wrong.statusCode, 400);
      assert.equal(wrong.json().code, 'INVALID_SECOND_FACTOR');
      const wrongRecovery = await call('DELETE', '/auth/totp', { token, payload: { code: 'AAAAA-AAAAA' } });
      assert.equal(wrongRecovery.statusCode, 400);
      const removed = await call('DELETE', '/auth/totp', { token, payload: { code: codes[0]! } });
      assert.equal(removed.statusCode, 204, removed.body);
      const status = (await call('GET', '/auth/seguridad', { token })).json();
      assert.equal(status.totp, false);
      assert.equal(status.recoveryCodesLeft, 0);
      const user = await findUserByEmail(t.app.db, 'quita@portal.test');
      assert.equal((await t.app.db.select().from(totpFactors).where(eq(totpFactors.userId, user!.id))).length, 0);
      assert.equal((await t.app.db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, user!.id))).length, 0);
      const again = await call('DELETE', '/auth/totp', { token, payload: { code: '123456' } });
      assert.equal(again.statusCode, 404);
      assert.equal(again.json().code, 'TOTP_NOT_ENABLED');
      assert.equal(
        (await call('POST', '/auth/login', { payload: { email: 'quita@portal.test', password } })).statusCode,
        200,
      );
    });
  });

  describe('the admin gate under ADMIN_SECOND_FACTOR=required', () => {
    const adminRoutes: RouteKey[] = [];
    let adminToken = '';
    let adminSecret = '';
    let otherId = 0;

    it('an administrator without a factor: every admin route answers SECOND_FACTOR_SETUP_REQUIRED', async () => {
      // The admin routes are those an ordinary account is refused at the gate (403 FORBIDDEN, before validation),
      // found over the whole route list: a route added later is covered without editing this test.
      const ordinaryId = await createUser(t.app, { email: 'ordinario@portal.test', password, status: 'active' });
      otherId = ordinaryId;
      for (const route of answeredRoutes(t.app)) {
        // A session of its own for each call: a route that ends it (logout) does not spoil the next.
        const ordinary = await sessionToken(t.app, (await findUserByEmail(t.app.db, 'ordinario@portal.test'))!);
        const answer = await probe(t.app, route, ordinary);
        if (answer.statusCode === 403 && answer.json().code === 'FORBIDDEN') adminRoutes.push(route);
      }
      const names = adminRoutes.map(({ method, url }) => `${method} ${url}`);
      for (const expected of [
        '/admin/dashboard',
        '/admin/users/:id/sessions',
        '/user/listar',
        '/auth/cambiar-estado/:id',
        '/plan-usuario/cambiar-plan-app',
        '/apps/register',
        '/apps/update/:id',
        '/auth/editar/:id',
      ]) {
        assert.ok(
          names.some((name) => name.endsWith(` ${expected}`)),
          `${expected} in ${names.join(', ')}`,
        );
      }

      adminToken = await login(t.app, adminEmail, adminPassword);
      const status = (await call('GET', '/auth/seguridad', { token: adminToken })).json();
      assert.equal(status.secondFactorRequired, true);
      assert.equal(status.sessionVerified, false);
      for (const route of adminRoutes) {
        const answer = await probe(t.app, route, adminToken);
        assert.equal(answer.statusCode, 403, `${route.method} ${route.url}`);
        assert.deepEqual(answer.json(), {
          statusCode: 403,
          message:
            'Configura un segundo factor (aplicación de autenticación o llave de acceso) para usar el panel de administración',
          code: 'SECOND_FACTOR_SETUP_REQUIRED',
        });
      }
      // The admin capabilities checked inside a handler, with a valid body: someone else's profile and plans.
      for (const [method, url, payload] of [
        ['POST', '/auth/update-user', { idUsuario: otherId, name: 'Otro' }],
        ['PUT', `/auth/editar/${otherId}`, { name: 'Otro' }],
        ['POST', '/plan-usuario/user-app-plans', { idUsuario: otherId }],
      ] as const) {
        const answer = await call(method, url, { token: adminToken, payload });
        assert.equal(answer.statusCode, 403, `${method} ${url}: ${answer.body}`);
        assert.equal(answer.json().code, 'SECOND_FACTOR_SETUP_REQUIRED');
      }
      // The administrator's own profile is no admin capability.
      const admin = await findUserByEmail(t.app.db, adminEmail);
      const own = await call('PUT', `/auth/editar/${admin!.id}`, { token: adminToken, payload: { name: 'Admin' } });
      assert.equal(own.statusCode, 200, own.body);
    });

    it('after confirming an authenticator in that same session, every admin route works', async () => {
      ({ secret: adminSecret } = await enableTotp(adminToken));
      for (const route of adminRoutes) {
        const answer = await probe(t.app, route, adminToken);
        assert.notEqual(answer.statusCode, 403, `${route.method} ${route.url}: ${answer.body}`);
      }
      assert.equal((await call('GET', '/admin/dashboard', { token: adminToken })).statusCode, 200);
      const other = await call('POST', '/auth/update-user', {
        token: adminToken,
        payload: { idUsuario: otherId, name: 'Otro' },
      });
      assert.equal(other.statusCode, 200, other.body);
    });

    it('a session that did not prove the factor answers SECOND_FACTOR_SESSION_REQUIRED', async () => {
      const admin = (await findUserByEmail(t.app.db, adminEmail))!;
      // As a Google/Apple sign-in's session: no second step asked, second_factor false.
      const unproved = await sessionToken(t.app, admin);
      for (const route of adminRoutes) {
        const answer = await probe(t.app, route, unproved);
        assert.equal(answer.statusCode, 403, `${route.method} ${route.url}`);
        assert.deepEqual(answer.json(), {
          statusCode: 403,
          message: 'Vuelve a iniciar sesión con tu segundo factor para usar el panel de administración',
          code: 'SECOND_FACTOR_SESSION_REQUIRED',
        });
      }
      // Flipping the proof off a proved session takes the panel away at once.
      const verified = await t.app.tokens.verify(adminToken);
      await t.app.db.update(sessions).set({ secondFactor: false }).where(eq(sessions.id, verified!.sessionId));
      const refused = await call('GET', '/admin/dashboard', { token: adminToken });
      assert.equal(refused.json().code, 'SECOND_FACTOR_SESSION_REQUIRED');
      await t.app.db.update(sessions).set({ secondFactor: true }).where(eq(sessions.id, verified!.sessionId));

      // The password alone now asks the second step; with it, the panel opens.
      const { ticket, methods } = await passwordStep(adminEmail, adminPassword);
      assert.deepEqual(methods, ['totp', 'recovery']);
      const signedIn = await secondStep(ticket, await code(adminSecret));
      assert.equal(signedIn.statusCode, 200);
      nextStep();
      assert.equal((await call('GET', '/admin/dashboard', { token: signedIn.json().access_token })).statusCode, 200);
    });

    it('cannot remove its last factor (409); a password change keeps the session proved', async () => {
      const removed = await call('DELETE', '/auth/totp', {
        token: adminToken,
        payload: { code: await code(adminSecret) },
      });
      assert.equal(removed.statusCode, 409);
      assert.equal(removed.json().code, 'LAST_SECOND_FACTOR');
      const status = (await call('GET', '/auth/seguridad', { token: adminToken })).json();
      assert.equal(status.totp, true);

      const changed = await call('POST', '/auth/update-password', {
        token: adminToken,
        payload: { currentPassword: adminPassword, newPassword: 'clave-nueva-del-admin' },
      });
      assert.equal(changed.statusCode, 200, changed.body);
      const fresh = changed.json().access_token;
      assert.equal((await call('GET', '/admin/dashboard', { token: fresh })).statusCode, 200);
      assert.equal((await call('GET', '/admin/dashboard', { token: adminToken })).statusCode, 401);
    });
  });
});

describe('ADMIN_SECOND_FACTOR=optional', () => {
  forEachBackend((backend) => {
    let t: TestApp;
    before(async () => {
      t = await buildTestApp(backend, { adminSecondFactor: 'optional' });
    });
    after(() => t.close());

    it('the second step is rate-limited per address like the password step', async () => {
      const limited = await buildTestApp(backend, { loginRateLimitPerMinute: 2 });
      try {
        const answers = [];
        for (let i = 0; i < 3; i++) {
          answers.push(
            await limited.app.inject({
              method: 'POST',
              url: '/auth/login/segundo-paso',
              payload: { ticket: 'x'.repeat(43), code: '123456' },
            }),
          );
        }
        assert.deepEqual(
          answers.map((answer) => answer.statusCode),
          [401, 401, 429],
        );
      } finally {
        await limited.close();
      }
    });

    it('an administrator without a factor administers with the password alone', async () => {
      const token = await login(t.app, adminEmail, adminPassword);
      const status = await t.app.inject({
        method: 'GET',
        url: '/auth/seguridad',
        headers: { authorization: `Bearer ${token}` },
      });
      assert.equal(status.json().secondFactorRequired, false);
      const dashboard = await t.app.inject({
        method: 'GET',
        url: '/admin/dashboard',
        headers: { authorization: `Bearer ${token}` },
      });
      assert.equal(dashboard.statusCode, 200, dashboard.body);
    });
  });
});
