// Trusted devices (docs/decisions/0143-trusted-devices.md): 'No volver a pedir en este dispositivo durante 30 días' at
// a second step sets a cookie; a password sign-in that brings it skips the second step, without its session having
// proved a factor. 'Seguridad' lists and removes them; a password change, a removed factor, a suspension and 'Cerrar
// otras sesiones' end them; a company may forbid them; a platform administrator is asked at every sign-in all the same
// (decision 0150). The sign-in that asks the code again says why the device stopped counting (decision 0151). The
// attacker makes plain HTTP calls with whatever cookie it has. That a trusted device never meets an app's step-up is
// in step-up.test.ts.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { generate } from 'otplib';
import { roles, sessions, trustedDevices, users } from '../src/db/schema.js';
import { buildTestApp, createUser, forEachBackend, login, type TestApp } from './helpers/app.js';
import { insertCompany, insertMember, memberPassword } from './helpers/company-fixtures.js';

type Json = Record<string, unknown>;
const password = 'clave-dispositivo-1';
const chrome = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const cookieName = 'portal_dispositivo_confiable';

forEachBackend((backend) => {
  describe(`trusted devices (${backend})`, () => {
    const clock = { now: Date.now() };
    let t: TestApp;
    let people = 0;
    before(async () => {
      t = await buildTestApp(
        backend,
        { adminSecondFactor: 'required', loginRateLimitPerMinute: 100_000, authRateLimitPerMinute: 100_000 },
        { clock: () => clock.now },
      );
    });
    after(() => t.close());

    const call = (
      method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
      url: string,
      options: { token?: string; payload?: object; cookie?: string } = {},
    ) =>
      t.app.inject({
        method,
        url,
        headers: {
          'user-agent': chrome,
          ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
          ...(options.cookie === undefined ? {} : { cookie: `${cookieName}=${options.cookie}` }),
        },
        ...(options.payload ? { payload: options.payload } : {}),
      });
    /** The authenticator app's code now; the clock then moves a step on, so the next one is new. */
    const totp = async (secret: string) => {
      const code = await generate({ secret, epoch: Math.floor(clock.now / 1000) });
      clock.now += 30_000;
      return code;
    };
    /** The trusted device's cookie an answer sets, or undefined. */
    const deviceCookieOf = (response: LightMyRequestResponse) =>
      response.cookies.find((cookie) => cookie.name === cookieName);

    /** A person with the authenticator app set up; `email` and `pass` sign them in. */
    async function personWithTotp(email = `persona${++people}@portal.test`, pass = password) {
      const id = (await t.app.db.select({ id: users.id }).from(users).where(eq(users.email, email)))[0]?.id;
      const userId = id ?? (await createUser(t.app, { email, password: pass, status: 'active' }));
      const token = await login(t.app, email, pass);
      const setup = await call('POST', '/auth/totp', { token });
      assert.equal(setup.statusCode, 200, setup.body);
      const { secret } = setup.json<{ secret: string }>();
      const confirmed = await call('POST', '/auth/totp/confirmar', { token, payload: { code: await totp(secret) } });
      assert.equal(confirmed.statusCode, 200, confirmed.body);
      return { email, userId, secret, token };
    }
    /** The password step: a session (200) or the second step's ticket (403 SECOND_FACTOR_REQUIRED). */
    const passwordStep = (email: string, cookie?: string, pass = password) =>
      call('POST', '/auth/login', { payload: { email, password: pass }, ...(cookie ? { cookie } : {}) });
    /** Signs in with the password and the code, ticking the box: the cookie the answer sets. */
    async function trustThisBrowser(person: { email: string; secret: string }, pass = password) {
      const first = await passwordStep(person.email, undefined, pass);
      assert.equal(first.statusCode, 403, first.body);
      const { ticket, permiteConfiarDispositivo } = first.json<{
        ticket: string;
        permiteConfiarDispositivo: boolean;
      }>();
      assert.equal(permiteConfiarDispositivo, true);
      const second = await call('POST', '/auth/login/segundo-paso', {
        payload: { ticket, code: await totp(person.secret), confiarDispositivo: true },
      });
      assert.equal(second.statusCode, 200, second.body);
      const cookie = deviceCookieOf(second);
      assert.ok(cookie, 'the answer sets the cookie');
      return cookie.value;
    }
    const skipsSecondStep = async (email: string, cookie: string, pass = password) => {
      const response = await passwordStep(email, cookie, pass);
      if (response.statusCode === 200) return response.json<{ access_token: string }>().access_token;
      assert.equal(response.json<Json>().code, 'SECOND_FACTOR_REQUIRED', response.body);
      return undefined;
    };
    /** Why the second step is asked although the browser brought its cookie: the reason the answer gives, if any. */
    const whyAskedAgain = async (email: string, cookie: string, pass = password) => {
      const response = await passwordStep(email, cookie, pass);
      assert.equal(response.json<Json>().code, 'SECOND_FACTOR_REQUIRED', response.body);
      return response.json<{ dispositivoNoConfiable?: { motivo: string; mensaje: string } }>().dispositivoNoConfiable;
    };
    const sessionRow = async (token: string) => {
      const verified = await t.app.tokens.verify(token, ['session'], { fresh: true });
      assert.ok(verified);
      const [row] = await t.app.db.select().from(sessions).where(eq(sessions.id, verified.sessionId));
      assert.ok(row);
      return row;
    };

    it("the box trusts this browser: the next sign-in asks no code, its session proves no factor; 'Seguridad' lists and removes it", async () => {
      const person = await personWithTotp();
      // Without the box: a session that proved the factor, and no cookie.
      const plain = await passwordStep(person.email);
      const plainSecond = await call('POST', '/auth/login/segundo-paso', {
        payload: { ticket: plain.json<{ ticket: string }>().ticket, code: await totp(person.secret) },
      });
      assert.equal(plainSecond.statusCode, 200, plainSecond.body);
      assert.equal(deviceCookieOf(plainSecond), undefined);

      const before = Date.now();
      const cookie = await trustThisBrowser(person);
      const response = await passwordStep(person.email);
      assert.equal(response.statusCode, 403, 'no cookie: the second step as ever');
      // The cookie: random, HttpOnly, Lax, the whole API's path; only its SHA-256 is kept. The browser keeps it 30 days
      // past the trust's own 30, so that a sign-in after those can say the device stopped counting (decision 0151).
      const again = await call('POST', '/auth/login/segundo-paso', {
        payload: {
          ticket: response.json<{ ticket: string }>().ticket,
          code: await totp(person.secret),
          confiarDispositivo: true,
        },
      });
      const set = deviceCookieOf(again);
      assert.ok(set);
      assert.match(set.value, /^[A-Za-z0-9_-]{43}$/);
      assert.notEqual(set.value, cookie);
      assert.deepEqual(
        { httpOnly: set.httpOnly, sameSite: set.sameSite, path: set.path, maxAge: set.maxAge, secure: set.secure },
        { httpOnly: true, sameSite: 'Lax', path: '/', maxAge: 60 * 86_400, secure: undefined },
      );
      const rows = await t.app.db.select().from(trustedDevices).where(eq(trustedDevices.userId, person.userId));
      assert.equal(rows.length, 2);
      assert.deepEqual(rows.map((row) => row.tokenHash).sort(), [cookie, set.value].map(sha256).sort());
      assert.ok(rows.every((row) => row.label === 'Chrome en Linux'));
      for (const row of rows) {
        const days = (row.expiresAt.getTime() - before) / 86_400_000;
        assert.ok(days > 29.99 && days < 30.01, `${days}`);
      }

      // With the cookie: no second step. The session proved no factor (amr, acr, step-up see none).
      const token = await skipsSecondStep(person.email, cookie);
      assert.ok(token, 'signed in without the code');
      const row = await sessionRow(token);
      assert.equal(row.secondFactor, false);
      assert.equal(row.trustedDeviceId, rows.find((device) => device.tokenHash === sha256(cookie))?.id);
      const security = (await call('GET', '/auth/seguridad', { token })).json<Json>();
      assert.deepEqual([security.sessionVerified, security.sessionTrustedDevice], [false, true]);
      // A wrong password with the cookie is still a wrong password.
      assert.equal((await passwordStep(person.email, cookie, 'otra-clave-1')).statusCode, 401);

      // 'Seguridad': this browser's device first, marked, then the other; one removed, then all.
      const listed = await call('GET', '/auth/dispositivos-confiables', { token, cookie });
      assert.equal(listed.statusCode, 200, listed.body);
      const devices =
        listed.json<{ id: number; label: string; actual: boolean; createdAt: string; lastUsedAt: string }[]>();
      assert.deepEqual(
        devices.map((device) => [device.label, device.actual]),
        [
          ['Chrome en Linux', true],
          ['Chrome en Linux', false],
        ],
      );
      assert.ok(devices[0] && devices[0].lastUsedAt >= devices[0].createdAt);
      const mine = devices[0]?.id as number;
      assert.equal((await call('DELETE', `/auth/dispositivos-confiables/${mine}`, { token })).statusCode, 204);
      const gone = await call('DELETE', `/auth/dispositivos-confiables/${mine}`, { token });
      assert.equal(gone.statusCode, 404);
      assert.equal(gone.json<Json>().code, 'DISPOSITIVO_NO_ENCONTRADO');
      // Removed: the code again, and the sign-in says why.
      assert.deepEqual(await whyAskedAgain(person.email, cookie), {
        motivo: 'quitado',
        mensaje: 'Este dispositivo dejó de ser de confianza porque lo quitaste en Seguridad.',
      });
      const all = await call('DELETE', '/auth/dispositivos-confiables', { token });
      assert.deepEqual(all.json(), { quitados: 1 });
      assert.equal((await whyAskedAgain(person.email, set.value))?.motivo, 'quitado');
      assert.deepEqual((await call('GET', '/auth/dispositivos-confiables', { token })).json(), []);
    });

    it('attacks: another account’s cookie, a forged or expired one, one from before a password change or a suspension does nothing', async () => {
      const victim = await personWithTotp();
      const attacker = await personWithTotp();
      const attackersCookie = await trustThisBrowser(attacker);
      // The attacker's own cookie (or one stolen from anybody else) skips nobody else's second step, and the answer
      // says nothing of that device.
      assert.equal(await whyAskedAgain(victim.email, attackersCookie), undefined);
      for (const forged of ['A'.repeat(43), 'x', `${attackersCookie}x`, '%00%ff;;', sha256(attackersCookie)])
        assert.equal(await skipsSecondStep(attacker.email, forged), undefined, forged);
      // Listing with another account's cookie marks nothing as this browser.
      const victimsCookie = await trustThisBrowser(victim);
      const listed = await call('GET', '/auth/dispositivos-confiables', {
        token: victim.token,
        cookie: attackersCookie,
      });
      assert.deepEqual(
        listed.json<{ actual: boolean }[]>().map((device) => device.actual),
        [false],
      );
      // Removing another account's device by its id: 404, it stays.
      const [attackersDevice] = await t.app.db
        .select({ id: trustedDevices.id })
        .from(trustedDevices)
        .where(eq(trustedDevices.userId, attacker.userId));
      const foreign = await call('DELETE', `/auth/dispositivos-confiables/${attackersDevice?.id}`, {
        token: victim.token,
      });
      assert.equal(foreign.statusCode, 404);
      assert.ok(await skipsSecondStep(attacker.email, attackersCookie), 'untouched');

      // Expired: refused and no longer listed.
      await t.app.db
        .update(trustedDevices)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(trustedDevices.userId, attacker.userId));
      assert.deepEqual(await whyAskedAgain(attacker.email, attackersCookie), {
        motivo: 'expirado',
        mensaje: 'Este dispositivo dejó de ser de confianza: pasaron los 30 días en que no se pedía el código.',
      });
      assert.deepEqual((await call('GET', '/auth/dispositivos-confiables', { token: attacker.token })).json(), []);

      // A password change ends every device trusted before it.
      assert.ok(await skipsSecondStep(victim.email, victimsCookie));
      const changed = await call('PUT', '/auth/update-password', {
        token: await skipsSecondStep(victim.email, victimsCookie),
        payload: { currentPassword: password, newPassword: 'clave-nueva-2' },
      });
      assert.equal(changed.statusCode, 200, changed.body);
      assert.deepEqual(await whyAskedAgain(victim.email, victimsCookie, 'clave-nueva-2'), {
        motivo: 'contrasena',
        mensaje: 'Este dispositivo dejó de ser de confianza porque tu contraseña cambió.',
      });

      // A suspension too, also once the account is active again.
      const again = await trustThisBrowser(victim, 'clave-nueva-2');
      // An administrator whose session proved the factor (it set the authenticator up) suspends and reactivates.
      const platform = await personWithTotp();
      await t.app.db.update(users).set({ role: roles.admin }).where(eq(users.id, platform.userId));
      const platformAdmin = platform.token;
      for (const step of ['suspender', 'reactivar']) {
        const toggled = await call('PUT', `/auth/cambiar-estado/${victim.userId}`, { token: platformAdmin });
        assert.equal(toggled.statusCode, 200, `${step}: ${toggled.body}`);
      }
      assert.equal((await whyAskedAgain(victim.email, again, 'clave-nueva-2'))?.motivo, 'suspension');
    });

    it("'Cerrar otras sesiones' and a removed factor end them", async () => {
      const person = await personWithTotp();
      const cookie = await trustThisBrowser(person);
      const closed = await call('POST', '/auth/sessions/cerrar-otras', { token: person.token });
      assert.equal(closed.statusCode, 200, closed.body);
      assert.equal((await whyAskedAgain(person.email, cookie))?.motivo, 'sesiones_cerradas');

      const next = await trustThisBrowser(person);
      assert.ok(await skipsSecondStep(person.email, next));
      const removed = await call('DELETE', '/auth/totp', {
        token: person.token,
        payload: { code: await totp(person.secret) },
      });
      assert.equal(removed.statusCode, 204, removed.body);
      assert.equal((await passwordStep(person.email, next)).statusCode, 200, 'no factor left: no second step anyway');
      // A factor set up again asks its code, and the sign-in says why that device no longer spares it.
      await personWithTotp(person.email);
      assert.equal((await whyAskedAgain(person.email, next))?.motivo, 'factor_quitado');
    });

    it('a platform administrator is asked the second factor at every sign-in: a cookie trusted before, or ticked as one, skips nothing', async () => {
      // A member trusts this browser, and is made an administrator later.
      const person = await personWithTotp();
      const cookie = await trustThisBrowser(person);
      const memberSession = await skipsSecondStep(person.email, cookie);
      assert.ok(memberSession, 'a member skips the code');
      await t.app.db.update(users).set({ role: roles.admin }).where(eq(users.id, person.userId));
      // The session the device let in does not administer: the rule wants a factor proved.
      const panel = await call('GET', '/admin/dashboard', { token: memberSession });
      assert.equal(panel.statusCode, 403, panel.body);
      assert.equal(
        (await call('GET', '/auth/seguridad', { token: memberSession })).json<Json>().sessionTrustedDevice,
        false,
      );

      // The same cookie at the administrator's sign-in: the code is asked, and the box is not offered.
      const step = await passwordStep(person.email, cookie);
      assert.equal(step.statusCode, 403, step.body);
      const asked = step.json<{ ticket: string; permiteConfiarDispositivo: boolean; dispositivoNoConfiable: Json }>();
      assert.equal(asked.permiteConfiarDispositivo, false);
      assert.deepEqual(asked.dispositivoNoConfiable, {
        motivo: 'administrador',
        mensaje: 'Las cuentas de administrador confirman el segundo factor en cada inicio de sesión.',
      });
      // The box ticked anyway (plain HTTP): refused before the code is spent, and no cookie.
      const code = await totp(person.secret);
      const ticked = await call('POST', '/auth/login/segundo-paso', {
        payload: { ticket: asked.ticket, code, confiarDispositivo: true },
      });
      assert.equal(ticked.statusCode, 403, ticked.body);
      assert.equal(ticked.json<Json>().code, 'DISPOSITIVOS_NO_PERMITIDOS');
      assert.equal(
        ticked.json<Json>().message,
        'Las cuentas de administrador confirman el segundo factor en cada inicio de sesión: no se recuerda ningún dispositivo',
      );
      assert.equal(deviceCookieOf(ticked), undefined);
      const proved = await call('POST', '/auth/login/segundo-paso', { payload: { ticket: asked.ticket, code } });
      assert.equal(proved.statusCode, 200, proved.body);
      const token = proved.json<{ access_token: string }>().access_token;
      assert.equal((await call('GET', '/admin/dashboard', { token })).statusCode, 200);
      assert.equal(await skipsSecondStep(person.email, cookie), undefined, 'still asked');
    });

    it('a company may forbid them: the box is not offered, a ticked box is refused before the code is spent, its members’ devices stop counting', async () => {
      const companyId = await insertCompany(t.app, 'Planta Norte');
      const owner = await insertMember(t.app, companyId, 'duena@planta-norte.cl', 'propietario');
      const member = await insertMember(t.app, companyId, 'operaria@planta-norte.cl', 'miembro');
      const person = await personWithTotp(member.email, memberPassword);
      const cookie = await trustThisBrowser(person, memberPassword);
      const ownerToken = await owner.token();
      const settings = (payload: object) =>
        call('PATCH', `/empresas/${companyId}/ajustes`, { token: ownerToken, payload });

      const read = await call('GET', `/empresas/${companyId}`, { token: ownerToken });
      assert.deepEqual(
        [read.json<Json>().permitirDispositivosConfiables, read.json<Json>().confiarSegundoFactorDelProveedor],
        [true, false],
      );
      for (const bad of [{ permitirDispositivosConfiables: 'no' }, { confiarSegundoFactorDelProveedor: null }]) {
        const refused = await settings(bad);
        assert.equal(refused.statusCode, 400, refused.body);
      }
      const forbidden = await settings({ permitirDispositivosConfiables: false });
      assert.equal(forbidden.statusCode, 200, forbidden.body);
      assert.equal(forbidden.json<Json>().permitirDispositivosConfiables, false);

      const step = await passwordStep(person.email, cookie, memberPassword);
      assert.equal(step.statusCode, 403, 'the device no longer counts');
      assert.deepEqual(step.json<Json>().dispositivoNoConfiable, {
        motivo: 'empresa',
        mensaje:
          'Una de tus empresas no permite recordar dispositivos: confirmarás tu identidad en cada inicio de sesión',
      });
      const { ticket, permiteConfiarDispositivo } = step.json<{ ticket: string; permiteConfiarDispositivo: boolean }>();
      assert.equal(permiteConfiarDispositivo, false);
      const code = await totp(person.secret);
      const ticked = await call('POST', '/auth/login/segundo-paso', {
        payload: { ticket, code, confiarDispositivo: true },
      });
      assert.equal(ticked.statusCode, 403, ticked.body);
      assert.equal(ticked.json<Json>().code, 'DISPOSITIVOS_NO_PERMITIDOS');
      assert.match(ticked.json<{ message: string }>().message, /no permite recordar dispositivos/);
      // Nothing was spent: the same ticket and code sign in without the box.
      const plain = await call('POST', '/auth/login/segundo-paso', { payload: { ticket, code } });
      assert.equal(plain.statusCode, 200, plain.body);
      assert.equal(deviceCookieOf(plain), undefined);

      // Allowed again: the device they had counts again (it was never removed, only not accepted).
      assert.equal((await settings({ permitirDispositivosConfiables: true })).statusCode, 200);
      assert.ok(await skipsSecondStep(person.email, cookie, memberPassword));
    });
  });
});

function sha256(value: string) {
  return createHash('sha256').update(value).digest('hex');
}
