// Each instance keeps the session state in memory, and a change made through any instance (or straight in the database)
// reaches every other one through LISTEN/NOTIFY: each change is seen on the other instance before its memory's own
// expiry could have shown it (helpers/session-memory.ts), every time, an order that no load on the machine upsets; how
// long each took is printed for the record. With the channel down, the instance reads the database instead, so it
// never answers from stale state.
import assert from 'node:assert/strict';
import { after, before, describe, it, type TestContext } from 'node:test';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance, InjectOptions } from 'fastify';
import pg from 'pg';
import { plans, userPlans, users, type User } from '../src/db/schema.js';
import {
  backends,
  buildTestApp,
  buildTestAppPair,
  createUser,
  login,
  sessionToken,
  type TestApp,
  type TestAppPair,
} from './helpers/app.js';
import { waitFor } from './helpers/processes.js';
import { answeredFromMemory, watchMemory } from './helpers/session-memory.js';

const iterations = 25;

async function userRow(app: FastifyInstance, id: number): Promise<User> {
  const [row] = await app.db.select().from(users).where(eq(users.id, id));
  assert.ok(row);
  return row;
}

const call = (app: FastifyInstance, token: string, options: Omit<InjectOptions, 'headers'> = {}) =>
  app.inject({ method: 'GET', url: '/auth/user', ...options, headers: { authorization: `Bearer ${token}` } });

/** GET /auth/user on `app` until one is answered from memory. */
const warm = (app: FastifyInstance, token: string) =>
  answeredFromMemory(app, async () => assert.equal((await call(app, token)).statusCode, 200));

/** Prints how long each change took to be seen, for the record. */
function report(t: TestContext, what: string, latencies: number[]) {
  const sorted = [...latencies].sort((x, y) => x - y);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!.toFixed(1);
  t.diagnostic(`${what}: n=${sorted.length} min=${at(0)} p50=${at(0.5)} p95=${at(0.95)} max=${at(1)} ms`);
}

// Defined only where the backend is available, as forEachBackend does (PostgreSQL needs DATABASE_URL).
if (backends.includes('postgres'))
  describe('two instances on one PostgreSQL', () => {
    let pair: TestAppPair;
    let admin: string;
    let userId: number;
    const email = 'estado@portal.test';

    before(async () => {
      pair = await buildTestAppPair();
      admin = await login(pair.a);
      userId = await createUser(pair.a, { email, password: 'secreto-estado', status: 'active' });
    });
    after(() => pair?.close());

    it("a logout on A is refused by B before B's memory could have expired it, every time", async (t) => {
      const latencies: number[] = [];
      for (let i = 0; i < iterations; i++) {
        const token = await sessionToken(pair.a, await userRow(pair.a, userId));
        const memory = watchMemory(pair.b, userId);
        await warm(pair.b, token);
        assert.equal((await call(pair.a, token, { method: 'POST', url: '/auth/logout' })).statusCode, 204);
        latencies.push(
          await memory.seen('the logout on B', async () => (await call(pair.b, token)).statusCode === 401),
        );
      }
      report(t, 'logout', latencies);
    });

    it("a suspension on A is refused by B before B's memory could have expired it, every time", async (t) => {
      const latencies: number[] = [];
      for (let i = 0; i < iterations; i++) {
        const token = await sessionToken(pair.a, await userRow(pair.a, userId));
        const memory = watchMemory(pair.b, userId);
        await warm(pair.b, token);
        const suspend = await call(pair.a, admin, { method: 'PUT', url: `/auth/cambiar-estado/${userId}` });
        assert.equal(suspend.json().user.status, 'suspended');
        latencies.push(
          await memory.seen('the suspension on B', async () =>
            [401, 403].includes((await call(pair.b, token)).statusCode),
          ),
        );
        const reactivate = await call(pair.a, admin, { method: 'PUT', url: `/auth/cambiar-estado/${userId}` });
        assert.equal(reactivate.json().user.status, 'active');
      }
      report(t, 'suspension', latencies);
    });

    it("a plan change on A shows in B's GET /auth/user before B's memory could have expired it, every time", async (t) => {
      const ofApp1 = (await pair.a.db.select().from(plans)).filter((plan) => plan.appId === 1);
      assert.ok(ofApp1.length >= 2);
      const token = await sessionToken(pair.a, await userRow(pair.a, userId));
      const planOf = (body: string) =>
        (
          JSON.parse(body) as { planesUsuarios: Array<{ app: { id: number }; plan: { nombre: string } }> }
        ).planesUsuarios.find((p) => p.app.id === 1)?.plan.nombre;
      const latencies: number[] = [];
      for (let i = 0; i < iterations; i++) {
        const plan = ofApp1[i % ofApp1.length]!;
        const expiry = new Date(Date.UTC(2030, 0, 1 + i)).toISOString();
        const memory = watchMemory(pair.b, userId);
        await warm(pair.b, token);
        const changed = await call(pair.a, admin, {
          method: 'POST',
          url: '/plan-usuario/cambiar-plan-app',
          payload: { idUsuario: userId, idApp: 1, idPlan: plan.id, fechaVencimiento: expiry },
        });
        assert.equal(changed.statusCode, 200, changed.body);
        latencies.push(
          await memory.seen('the plan change on B', async () => {
            const { statusCode, body } = await call(pair.b, token);
            return statusCode === 200 && planOf(body) === plan.nombre && body.includes(expiry);
          }),
        );
      }
      report(t, 'plan change', latencies);
    });

    it("each instance reads its own HTTP writes at once: A's next request never sees A's memory from before", async () => {
      const ofApp1 = (await pair.a.db.select().from(plans)).filter((plan) => plan.appId === 1);
      const planOf = (body: string) =>
        (
          JSON.parse(body) as { planesUsuarios: Array<{ app: { id: number }; plan: { nombre: string } }> }
        ).planesUsuarios.find((p) => p.app.id === 1)?.plan.nombre;
      for (let i = 0; i < iterations; i++) {
        // A logout, then the same token on the same instance with no pause in between.
        const token = await sessionToken(pair.a, await userRow(pair.a, userId));
        await warm(pair.a, token);
        assert.equal((await call(pair.a, token, { method: 'POST', url: '/auth/logout' })).statusCode, 204);
        assert.equal((await call(pair.a, token)).statusCode, 401, `logout, round ${i}`);

        // A plan change by the administrator, then the person's GET /auth/user on the same instance.
        const other = await sessionToken(pair.a, await userRow(pair.a, userId));
        await warm(pair.a, other);
        const plan = ofApp1[i % ofApp1.length]!;
        const changed = await call(pair.a, admin, {
          method: 'POST',
          url: '/plan-usuario/cambiar-plan-app',
          payload: { idUsuario: userId, idApp: 1, idPlan: plan.id, fechaVencimiento: '2031-01-01T00:00:00.000Z' },
        });
        assert.equal(changed.statusCode, 200, changed.body);
        assert.equal(planOf((await call(pair.a, other)).body), plan.nombre, `plan change, round ${i}`);

        // A suspension, then the person's token on the same instance.
        const suspend = await call(pair.a, admin, { method: 'PUT', url: `/auth/cambiar-estado/${userId}` });
        assert.equal(suspend.json().user.status, 'suspended');
        assert.ok([401, 403].includes((await call(pair.a, other)).statusCode), `suspension, round ${i}`);
        const reactivate = await call(pair.a, admin, { method: 'PUT', url: `/auth/cambiar-estado/${userId}` });
        assert.equal(reactivate.json().user.status, 'active');
      }
    });

    it("a portal in another schema of the same database is not heard: its changes never empty B's memory", async () => {
      // Another portal (a PostgreSQL test file does the same) in a schema of its own on the same database.
      const other = await buildTestApp('postgres');
      try {
        const token = await sessionToken(pair.a, await userRow(pair.a, userId));
        // Everything A committed has reached B (its barrier) before B's memory is filled and counted.
        await pair.b.sessionState.sync();
        await warm(pair.b, token);
        const heard = pair.b.sessionState.stats.notifications;
        // A change that notifies '*' there, and its barrier: once it came back there, it was sent.
        await other.app.db.execute(sql`update apps set nombre = nombre`);
        await other.app.sessionState.sync();
        await pair.b.sessionState.sync();
        // B heard nothing of it, and still answers from memory.
        assert.equal(pair.b.sessionState.stats.notifications, heard);
        const hits = pair.b.sessionState.stats.hits;
        assert.equal((await call(pair.b, token)).statusCode, 200);
        assert.equal(pair.b.sessionState.stats.hits, hits + 1, 'answered from memory');
        // The same change in B's own schema is heard.
        await pair.a.db.execute(sql`update apps set nombre = nombre`);
        await pair.b.sessionState.sync();
        assert.ok(pair.b.sessionState.stats.notifications > heard, "its own schema's '*' is heard");
        assert.equal((await call(pair.b, token)).statusCode, 200);
        assert.equal(pair.b.sessionState.stats.hits, hits + 1, 'and its memory was emptied: read again');
      } finally {
        await other.close();
      }
    });

    it('with the channel cut, B never serves stale state, then serves from memory again once it is back', async (t) => {
      const root = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 1 });
      // After each reconnection, a few logouts on A that B sees through the channel again: B answers from memory (warm)
      // and refuses the token before its memory could have expired it, which a channel that pings but no longer
      // delivers would never do.
      const latencies: number[] = [];
      try {
        for (let i = 0; i < 5; i++) {
          const token = await sessionToken(pair.a, await userRow(pair.a, userId));
          await warm(pair.b, token);
          const pid = pair.b.sessionState.listenerPid;
          assert.ok(pid, 'B listens on a connection of its own');
          const losses = pair.b.sessionState.stats.losses;
          // Waits (up to 5 s) until the listener's server process is gone.
          await root.query('SELECT pg_terminate_backend($1, 5000)', [pid]);
          // Straight in the database, as another instance would: B must not answer from what it kept.
          await pair.a.db.execute(
            sql`update sessions set ended_at = now() where user_id = ${userId} and ended_at is null`,
          );
          assert.equal((await call(pair.b, token)).statusCode, 401, 'B refuses the ended session at once');
          // At least once: a ping that a starved event loop reads past its deadline counts a loss of its own, and
          // that one also sends every read to the database.
          assert.ok(pair.b.sessionState.stats.losses > losses, 'B noticed the channel was lost');

          // Back: listening again (its backoff's own time), B answers from memory and still sees every change.
          await waitFor('B to listen again', () => pair.b.sessionState.serving, 20_000, 20);
          assert.notEqual(pair.b.sessionState.listenerPid, pid);
          for (let logout = 0; logout < 4; logout++) {
            const again = await sessionToken(pair.a, await userRow(pair.a, userId));
            const memory = watchMemory(pair.b, userId);
            await warm(pair.b, again);
            assert.equal((await call(pair.a, again, { method: 'POST', url: '/auth/logout' })).statusCode, 204);
            latencies.push(
              await memory.seen('the logout on B', async () => (await call(pair.b, again)).statusCode === 401),
            );
          }
        }
        report(t, 'logout after the channel is back', latencies);
      } finally {
        await root.end();
      }
    });
  });

if (backends.includes('pglite'))
  describe('one instance on PGlite', () => {
    let t: TestApp;
    let userId: number;
    before(async () => {
      t = await buildTestApp('pglite', {}, { waitForChannel: false });
      userId = await createUser(t.app, { email: 'solo@portal.test', password: 'secreto-solo', status: 'active' });
    });
    after(() => t?.close());

    it('sees every change at once, even one made straight in the database', async () => {
      // PGlite notifies in process; the memory is trusted once a ping came back lately, which a busy machine delays.
      await waitFor('the memory in use', () => t.app.sessionState.serving, 20_000, 20);
      const token = await sessionToken(t.app, await userRow(t.app, userId));
      await warm(t.app, token);
      await t.app.db.update(users).set({ name: 'Renombrada' }).where(eq(users.id, userId));
      assert.equal((await call(t.app, token)).json().name, 'Renombrada');
      await warm(t.app, token);
      const [plan] = await t.app.db.select().from(plans).where(eq(plans.appId, 1)).limit(1);
      await t.app.db.insert(userPlans).values({ userId, appId: 1, planId: plan!.id });
      assert.equal((await call(t.app, token)).json().planesUsuarios[0]?.plan.nombre, plan!.nombre);
      await warm(t.app, token);
      await t.app.db.update(plans).set({ nombre: 'Plan Renombrado' }).where(eq(plans.id, plan!.id));
      assert.match((await call(t.app, token)).body, /Plan Renombrado/);
      await warm(t.app, token);
      await t.app.db.update(users).set({ status: 'suspended' }).where(eq(users.id, userId));
      assert.equal((await call(t.app, token)).statusCode, 401);
      await t.app.db.update(users).set({ status: 'active' }).where(eq(users.id, userId));
      await warm(t.app, token);
      await t.app.db.execute(sql`update sessions set ended_at = now() where user_id = ${userId}`);
      assert.equal((await call(t.app, token)).statusCode, 401);
    });
  });
