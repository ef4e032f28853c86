// A notification channel that dies silently: B's listening connection goes through a proxy that stops forwarding
// bytes both ways without closing anything (a frozen NAT entry or middlebox), so B hears of no change and nothing
// tells it the channel is gone. Whatever B's memory says, a write and an administrator's request are checked against
// the database at once, and B stops answering reads from its memory once it notices: before its memory's own expiry
// could have shown the change (helpers/session-memory.ts).
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { describe, it, type TestContext } from 'node:test';
import { eq } from 'drizzle-orm';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { auditLog, roles, users, type User } from '../src/db/schema.js';
import { backends, buildTestAppPair, createUser, login, sessionToken, type TestAppPair } from './helpers/app.js';
import { answeredFromMemory, watchMemory } from './helpers/session-memory.js';

/** A TCP proxy to PostgreSQL whose `freeze` stops every byte both ways, keeping every socket open. */
async function freezableProxy(target: URL) {
  const sockets = new Set<Socket>();
  let frozen = false;
  const hold = (socket: Socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
    if (frozen) socket.pause();
  };
  const server: Server = createServer((client) => {
    hold(client);
    // A connection opened while frozen is accepted and then never answered.
    if (frozen) return;
    const upstream = connect(Number(target.port || 5432), target.hostname);
    hold(upstream);
    const forward = (from: Socket, to: Socket) => {
      from.on('data', (chunk) => {
        if (!frozen) to.write(chunk);
      });
      from.on('close', () => {
        if (!frozen) to.destroy();
      });
    };
    forward(client, upstream);
    forward(upstream, client);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = new URL(target);
  url.hostname = '127.0.0.1';
  url.port = String((server.address() as { port: number }).port);
  return {
    url: url.toString(),
    freeze() {
      frozen = true;
      for (const socket of sockets) socket.pause();
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

const call = (app: FastifyInstance, token: string, options: Omit<InjectOptions, 'headers'> = {}) =>
  app.inject({ method: 'GET', url: '/auth/user', ...options, headers: { authorization: `Bearer ${token}` } });

async function userRow(app: FastifyInstance, id: number): Promise<User> {
  const [row] = await app.db.select().from(users).where(eq(users.id, id));
  assert.ok(row);
  return row;
}

/** `url` on `app` until one is answered from memory: B's memory believes in the token. */
const warm = (app: FastifyInstance, token: string, url = '/auth/user') =>
  answeredFromMemory(app, async () => assert.equal((await call(app, token, { url })).statusCode, 200));

interface FrozenPair extends TestAppPair {
  proxy: Awaited<ReturnType<typeof freezableProxy>>;
  admin: string;
}

/** Two instances of their own, B listening through a proxy not yet frozen (each test freezes its own for good). */
async function frozenPair(t: TestContext): Promise<FrozenPair> {
  const proxy = await freezableProxy(new URL(process.env.DATABASE_URL!));
  const pair = await buildTestAppPair({}, { listenUrlOfB: proxy.url }).catch(async (error: unknown) => {
    await proxy.close();
    throw error;
  });
  t.after(async () => {
    // The proxy first: its sockets closed, B's listener ends instead of waiting on a frozen connection.
    await proxy.close();
    await pair.close();
  });
  // B's first LISTEN may fail on a busy machine (its connection bound passes) and is tried again after a backoff: wait
  // for it, bounded, rather than take the first answer for good.
  for (const deadline = performance.now() + 15_000; !pair.b.sessionState.serving && performance.now() < deadline; )
    await new Promise((resolve) => setTimeout(resolve, 50));
  assert.equal(pair.b.sessionState.serving, true, 'B listens through the proxy');
  return { ...pair, proxy, admin: await login(pair.a) };
}

/** B's memory is warm for `token` on each of `urls`, then B's channel freezes: from here on B hears of no change. */
async function freezeAfterWarming(t: TestContext, pair: FrozenPair, token: string, urls: string[] = ['/auth/user']) {
  for (const url of urls) await warm(pair.b, token, url);
  pair.proxy.freeze();
  t.diagnostic(`B trusts its memory at the freeze: ${pair.b.sessionState.serving}`);
}

if (backends.includes('postgres'))
  describe('two API instances on PostgreSQL, the second one listening through a proxy that freezes', () => {
    it('a logout on A: the same token writing on B is refused 401 at once, and nothing is written', async (t) => {
      const pair = await frozenPair(t);
      const id = await createUser(pair.a, {
        email: 'salida@portal.test',
        password: 'secreto-salida',
        status: 'active',
      });
      const token = await sessionToken(pair.a, await userRow(pair.a, id));
      await freezeAfterWarming(t, pair, token);
      assert.equal((await call(pair.a, token, { method: 'POST', url: '/auth/logout' })).statusCode, 204);

      const post = await call(pair.b, token, {
        method: 'POST',
        url: '/auth/update-user',
        payload: { idUsuario: id, name: 'Escrito tras salir' },
      });
      assert.equal(post.statusCode, 401, `POST after the logout: ${post.body}`);
      const put = await call(pair.b, token, {
        method: 'PUT',
        url: `/auth/editar/${id}`,
        payload: { name: 'Editado tras salir' },
      });
      assert.equal(put.statusCode, 401, `PUT after the logout: ${put.body}`);
      assert.equal((await userRow(pair.a, id)).name, 'Prueba', 'nothing written with the ended session');
    });

    it('an administrator demoted on A: their admin requests on B are refused at once, and the audit never names them', async (t) => {
      const pair = await frozenPair(t);
      const exAdminId = await createUser(pair.a, {
        email: 'exadmin@portal.test',
        password: 'secreto-exadmin',
        status: 'active',
      });
      await pair.a.db.update(users).set({ role: roles.admin }).where(eq(users.id, exAdminId));
      const victimId = await createUser(pair.a, {
        email: 'victima@portal.test',
        password: 'secreto-victima',
        status: 'active',
      });
      const exAdmin = await sessionToken(pair.a, await userRow(pair.a, exAdminId));
      await freezeAfterWarming(t, pair, exAdmin, ['/auth/user', '/user/listar']);

      const demote = await call(pair.a, pair.admin, {
        method: 'PUT',
        url: `/auth/editar/${exAdminId}`,
        payload: { role: roles.user },
      });
      assert.equal(demote.statusCode, 200, demote.body);
      assert.ok([401, 403].includes((await call(pair.a, exAdmin, { url: '/user/listar' })).statusCode));

      // A read of the administrators' (answered from memory if the admin check trusted it), then a write.
      const list = await call(pair.b, exAdmin, { url: '/user/listar' });
      assert.ok([401, 403].includes(list.statusCode), `admin read on B after the demotion: ${list.statusCode}`);
      const suspend = await call(pair.b, exAdmin, { method: 'PUT', url: `/auth/cambiar-estado/${victimId}` });
      assert.ok([401, 403].includes(suspend.statusCode), `suspension on B after the demotion: ${suspend.statusCode}`);
      assert.equal((await userRow(pair.a, victimId)).status, 'active', 'the victim was not suspended');
      const named = await pair.a.db.select().from(auditLog).where(eq(auditLog.actorId, exAdminId));
      assert.deepEqual(named, [], 'no audit row names the ex-administrator');
    });

    it("a suspension on A: B refuses the reads too once it notices its channel is frozen, before its memory's own expiry", async (t) => {
      const pair = await frozenPair(t);
      const id = await createUser(pair.a, { email: 'suspendida@portal.test', password: 'secreto-s', status: 'active' });
      const token = await sessionToken(pair.a, await userRow(pair.a, id));
      const memory = watchMemory(pair.b, id);
      await freezeAfterWarming(t, pair, token);
      // Only A writes: B makes no request of its own that would wait for a notification (and so find out).
      const suspend = await call(pair.a, pair.admin, { method: 'PUT', url: `/auth/cambiar-estado/${id}` });
      assert.equal(suspend.json().user.status, 'suspended');
      const ms = await memory.seen("the suspended account's GET refused on B", async () =>
        [401, 403].includes((await call(pair.b, token)).statusCode),
      );
      t.diagnostic(`refused on B ${Math.round(ms)} ms after the suspension`);
    });
  });
