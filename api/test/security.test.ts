// Attacks that live at the API's edge: who is refused before the body is read, one rule for an administrator's changes
// of status and role and sign-in locks that an attacker elsewhere cannot turn against the owner. Each test plays the
// attacker with plain requests.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { and, eq } from 'drizzle-orm';
import { auditLog, users } from '../src/db/schema.js';
import { loadConfig } from '../src/config.js';
import { manualClock } from './helpers/accounts.js';
import { adminEmail, buildTestApp, createUser, forEachBackend, login, type TestApp } from './helpers/app.js';

const victim = { email: 'duena@portal.test', password: 'clave-de-la-duena-1' };
const attackerAddress = '203.0.113.66';
const ownerAddress = '198.51.100.7';

forEachBackend((backend) => {
  describe('item 8: the rule before the schema', () => {
    let t: TestApp;
    let userToken: string;
    before(async () => {
      t = await buildTestApp(backend);
      await createUser(t.app, { email: 'persona@portal.test', password: 'clave-persona-1', status: 'active' });
      userToken = await login(t.app, 'persona@portal.test', 'clave-persona-1');
    });
    after(() => t.close());

    const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown, token?: string) =>
      t.app.inject({
        method,
        url,
        ...(payload === undefined ? {} : { payload: payload as object }),
        headers: token ? { authorization: `Bearer ${token}` } : {},
      });

    const badBodies: Array<[string, 'GET' | 'POST' | 'PUT', string, unknown]> = [
      ['update-user', 'POST', '/auth/update-user', { idUsuario: 'uno', campoRaro: true }],
      ['editar', 'PUT', '/auth/editar/no-es-numero', { role: 'jefe' }],
      ['update-password', 'PUT', '/auth/update-password', {}],
      ['crear app', 'POST', '/apps/register', { nombre: 7 }],
      ['cambiar plan', 'POST', '/plan-usuario/cambiar-plan-app', { idUsuario: 'x' }],
      ['listar usuarios', 'GET', '/user/listar?page=-3&status=raro', undefined],
      ['checkout', 'POST', '/facturacion/checkout', { precio: 'gratis' }],
    ];

    for (const [name, method, url, payload] of badBodies) {
      it(`${name}: an anonymous caller with a malformed request learns only that it must sign in (401)`, async () => {
        const response = await call(method, url, payload);
        assert.equal(response.statusCode, 401, response.body);
        assert.equal(response.json().message, 'No autenticado');
      });
    }

    for (const [name, method, url, payload] of badBodies.filter(([, , path]) =>
      /^\/(apps|plan-usuario\/cambiar|user\/)/.test(path),
    )) {
      it(`${name}: a signed-in non-administrator with a malformed request gets 403, not the schema`, async () => {
        const response = await call(method, url, payload, userToken);
        assert.equal(response.statusCode, 403, response.body);
      });
    }
  });

  describe('item 9: one rule for status and role changes', () => {
    let t: TestApp;
    let adminToken: string;
    let adminId: number;
    let otherId: number;
    let otherToken: string;
    before(async () => {
      t = await buildTestApp(backend);
      adminToken = await login(t.app);
      const [admin] = await t.app.db.select({ id: users.id }).from(users).where(eq(users.email, adminEmail));
      adminId = admin!.id;
      otherId = await createUser(t.app, { email: 'otra@portal.test', password: 'clave-otra-1', status: 'active' });
      otherToken = await login(t.app, 'otra@portal.test', 'clave-otra-1');
    });
    after(() => t.close());

    const edit = (id: number, payload: object, token = adminToken) =>
      t.app.inject({
        method: 'PUT',
        url: `/auth/editar/${id}`,
        payload,
        headers: { authorization: `Bearer ${token}` },
      });
    const row = async (id: number) => (await t.app.db.select().from(users).where(eq(users.id, id)))[0]!;

    it('an administrator cannot suspend themselves through editar (as cambiar-estado already refuses)', async () => {
      const response = await edit(adminId, { status: 'suspended' });
      assert.equal(response.statusCode, 409, response.body);
      assert.equal(response.json().message, 'No puedes cambiar el estado de tu propia cuenta');
      assert.equal((await row(adminId)).status, 'active');
    });

    it('an administrator cannot demote themselves', async () => {
      const response = await edit(adminId, { role: 2 });
      assert.equal(response.statusCode, 409, response.body);
      assert.equal(response.json().message, 'No puedes quitarte el rol de administrador');
      assert.equal((await row(adminId)).role, 1);
    });

    it('saving their own form unchanged (same role, same status) still works', async () => {
      const response = await edit(adminId, { name: 'Admin', role: 1, status: 'active' });
      assert.equal(response.statusCode, 200, response.body);
      assert.equal((await row(adminId)).name, 'Admin');
    });

    it('no account goes back to pending verification: refused, sessions and row unchanged', async () => {
      const before = await row(otherId);
      const response = await edit(otherId, { status: 'pending_verification' });
      assert.equal(response.statusCode, 400, response.body);
      assert.equal(response.json().message, 'Una cuenta no puede volver a quedar pendiente de verificación');
      const after = await row(otherId);
      assert.equal(after.status, 'active');
      assert.equal(after.tokenVersion, before.tokenVersion);
      const me = await t.app.inject({
        method: 'GET',
        url: '/auth/user',
        headers: { authorization: `Bearer ${otherToken}` },
      });
      assert.equal(me.statusCode, 200);
    });

    it('suspending someone else through editar ends their sessions, as cambiar-estado does', async () => {
      const response = await edit(otherId, { status: 'suspended' });
      assert.equal(response.statusCode, 200, response.body);
      // The session is over: its next call is refused and told why (403 USER_SUSPENDED).
      const me = await t.app.inject({
        method: 'GET',
        url: '/auth/user',
        headers: { authorization: `Bearer ${otherToken}` },
      });
      assert.equal(me.statusCode, 403);
      assert.equal(me.json().code, 'USER_SUSPENDED');
      const back = await t.app.inject({
        method: 'PUT',
        url: `/auth/cambiar-estado/${otherId}`,
        headers: { authorization: `Bearer ${adminToken}` },
      });
      assert.equal(back.json().user.status, 'active');
    });

    it('demoting another administrator through editar ends their sessions at once', async () => {
      const secondId = await createUser(t.app, {
        email: 'segunda-admin@portal.test',
        password: 'clave-admin-2',
        status: 'active',
      });
      await t.app.db.update(users).set({ role: 1 }).where(eq(users.id, secondId));
      const secondToken = await login(t.app, 'segunda-admin@portal.test', 'clave-admin-2');
      const response = await edit(secondId, { role: 2 });
      assert.equal(response.statusCode, 200, response.body);
      const me = await t.app.inject({
        method: 'GET',
        url: '/auth/user',
        headers: { authorization: `Bearer ${secondToken}` },
      });
      assert.equal(me.statusCode, 401);
    });
  });

  describe('item 4: a sign-in lock belongs to the address that failed', () => {
    let t: TestApp;
    const clock = manualClock();
    before(async () => {
      t = await buildTestApp(backend, { loginRateLimitPerMinute: 10_000 }, { clock });
      await createUser(t.app, { ...victim, status: 'active' });
    });
    after(() => t.close());

    const signIn = (password: string, remoteAddress: string, email = victim.email) =>
      t.app.inject({ method: 'POST', url: '/auth/login', payload: { email, password }, remoteAddress });

    it("five wrong passwords lock the attacker's address, not the owner's", async () => {
      for (let i = 0; i < 5; i++) assert.equal((await signIn('adivinanza', attackerAddress)).statusCode, 401);
      const locked = await signIn(victim.password, attackerAddress);
      assert.equal(locked.statusCode, 401, 'the locked address is refused even with the right password');
      assert.ok(Number(locked.headers['retry-after']) > 0);
      const owner = await signIn(victim.password, ownerAddress);
      assert.equal(owner.statusCode, 200, owner.body);
      // The attacker keeps trying once per lock: the owner is never locked by it.
      for (let round = 0; round < 4; round++) {
        clock.advance(16 * 60_000);
        await signIn('otra-adivinanza', attackerAddress);
        assert.equal((await signIn(victim.password, ownerAddress)).statusCode, 200);
      }
    });

    it("many addresses guessing slowly meet the account throttle; the owner's known address still signs in", async () => {
      const email = 'distribuida@portal.test';
      await createUser(t.app, { email, password: victim.password, status: 'active' });
      assert.equal((await signIn(victim.password, ownerAddress, email)).statusCode, 200);
      let throttled: Awaited<ReturnType<typeof signIn>> | undefined;
      for (let i = 1; i <= 40 && !throttled; i++) {
        const response = await signIn('adivinanza', `203.0.113.${i}`, email);
        assert.equal(response.statusCode, 401);
        if (response.headers['retry-after']) throttled = response;
      }
      assert.ok(throttled, 'the account throttle must start before 40 distributed failures');
      // A new address with the right password waits too: the throttle is for the account.
      const fresh = await signIn(victim.password, '192.0.2.200', email);
      assert.equal(fresh.statusCode, 401);
      assert.ok(Number(fresh.headers['retry-after']) > 0);
      // The owner's address signed in before, so it is not throttled.
      assert.equal((await signIn(victim.password, ownerAddress, email)).statusCode, 200);
    });

    it('repeated lockouts are written to the audit log with the address', async () => {
      const [user] = await t.app.db.select({ id: users.id }).from(users).where(eq(users.email, victim.email));
      const entries = await t.app.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.targetId, user!.id), eq(auditLog.action, 'auth.lockout')));
      assert.ok(entries.length >= 1, 'at least one lockout recorded');
      assert.equal(entries[0]!.details.address, attackerAddress);
      assert.equal(entries[0]!.actorId, null);
    });
  });
});

describe('item 4: TRUST_PROXY', () => {
  it('refuses true, which would let any client choose its address', () => {
    assert.throws(() => loadConfig({ TRUST_PROXY: 'true' }), /TRUST_PROXY/);
  });
});
