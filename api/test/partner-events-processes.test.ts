// Partner events with real processes: the API as `node api/dist/server.js` killed (SIGKILL) in the middle of delivering to
// a slow receiver process that verifies every signature with the Standard Webhooks package, then started again:
// nothing is lost, the order holds, and a message answered 2xx is accepted again at most once (the one whose answer
// was on its way when the sender died: a receiver keys on webhook-id, as Standard Webhooks asks). On PostgreSQL, two
// instances deliver side by side: never the same message twice, still in order.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { adminEmail, adminPassword, type Backend, forEachBackend } from './helpers/app.js';
import { nativeApp, TestBrowser } from './helpers/oidc.js';
import { type ApiProcess, freePort, startApi, waitFor } from './helpers/processes.js';
import { type Receiver, type Seen, seqOf, startReceiver } from './helpers/webhook-receiver.js';

forEachBackend((backend: Backend) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-partner-events-'));
  const databaseName = `portal_eventos_${process.pid}_${Date.now()}`;
  const adminUrl = process.env.DATABASE_URL ?? '';
  const databaseUrl = backend === 'postgres' ? adminUrl.replace(/\/[^/]*$/, `/${databaseName}`) : undefined;
  const processes: ApiProcess[] = [];
  let receiver: Receiver;
  let port: number;
  let token: string;
  let adminId: number;

  const start = async (at = port) => {
    const issuer = `http://127.0.0.1:${at}`;
    const api = await startApi(
      {
        DATABASE_URL: databaseUrl,
        DATA_DIR: dataDir,
        REDIS_URL: undefined,
        ADMIN_EMAIL: adminEmail,
        ADMIN_PASSWORD: adminPassword,
        ADMIN_SECOND_FACTOR: 'optional',
        API_PUBLIC_URL: issuer,
        OIDC_ISSUER: issuer,
        PORTAL_URL: 'http://localhost:8080',
        PARTNER_EVENTS_TIMEOUT_MS: '3000',
        LOGIN_RATE_LIMIT_PER_MINUTE: '100000',
        AUTH_RATE_LIMIT_PER_MINUTE: '100000',
      },
      { port: at, readyWithinMs: 180_000 },
    );
    processes.push(api);
    return api;
  };
  const http = async (api: ApiProcess, method: string, path: string, body?: unknown) => {
    const response = await fetch(`${api.url}${path}`, {
      method,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    return { status: response.status, body: (await response.json().catch(() => null)) as Record<string, unknown> };
  };
  const changes = async (api: ApiProcess, from: number, count: number) => {
    for (let n = from; n < from + count; n++) {
      const answer = await http(api, 'PUT', `/auth/editar/${adminId}`, { name: `Nombre ${n}` });
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
    }
  };
  const assertInOrder = (accepted: Seen[]) =>
    assert.deepEqual(
      accepted.map(seqOf),
      accepted.map((_one, index) => index + 1),
      'each message accepted once, in sequence order',
    );

  before(async () => {
    if (databaseUrl) {
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${databaseName}`);
      await admin.end();
    }
    port = await freePort();
    const api = await start();
    const login = await fetch(`${api.url}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: adminEmail, password: adminPassword }),
    });
    token = ((await login.json()) as { access_token: string }).access_token;
    adminId = (await http(api, 'GET', '/auth/user')).body.id as number;
    // A first-party app the administrator signs in to (so it knows them), subscribed to profile changes.
    const client = await http(api, 'POST', '/admin/clientes-oidc', {
      nombre: 'Panel de planta',
      redirectUris: ['http://127.0.0.1/callback'],
      publico: true,
      primeraParte: true,
      scopes: ['openid', 'profile'],
    });
    assert.equal(client.status, 201, JSON.stringify(client.body));
    const clientId = client.body.clientId as string;
    const browser = new TestBrowser(api.url);
    browser.portalToken = token;
    const app = await nativeApp(api.url, clientId, 'http://127.0.0.1/callback', 'openid profile');
    assert.match(await browser.signInTo(app.authorizationUrl), /code=/);
    receiver = await startReceiver();
    const subscription = await http(api, 'POST', `/admin/clientes-oidc/${clientId}/suscripciones`, {
      url: receiver.url,
      eventos: ['usuario.actualizado'],
    });
    assert.equal(subscription.status, 201, JSON.stringify(subscription.body));
    await receiver.control({ secrets: [subscription.body.secreto as string], delayMs: 150 });
  });

  after(async () => {
    for (const api of processes) api.child.kill('SIGKILL');
    receiver?.stop();
    rmSync(dataDir, { recursive: true, force: true });
    if (databaseUrl) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
      await admin.end();
    }
  });

  describe('entregas con procesos reales', () => {
    it('loses nothing and keeps the order when the API is killed mid-delivery and started again', async () => {
      const [api] = processes;
      assert.ok(api);
      await changes(api, 1, 20);
      // Some are delivered, one is on its way to the slow receiver: then kill -9.
      await waitFor('a few deliveries', async () => (await receiver.accepted()).length >= 5, 30_000, 20);
      api.child.kill('SIGKILL');
      await new Promise((resolve) => api.child.once('exit', resolve));
      const restarted = await start();
      await waitFor('all 20 deliveries', async () => (await receiver.accepted()).length >= 20, 60_000, 100);
      const accepted = await receiver.accepted();
      assert.equal(accepted.length, 20);
      assertInOrder(accepted);
      assert.deepEqual(
        accepted.map((one) => one.body.data.given_name),
        Array.from({ length: 20 }, (_none, index) => `Nombre ${index + 1}`),
      );
      assert.ok((await receiver.duplicates()).length <= 1, 'at most the message in flight at the kill comes again');
      for (const one of await receiver.seen()) assert.equal(one.verified, true);
      processes.splice(0, processes.length, restarted);
    });

    if (backend === 'postgres') {
      it('two instances deliver side by side without sending a message twice, in order', async () => {
        const [first] = processes;
        assert.ok(first);
        const before = (await receiver.duplicates()).length;
        await receiver.control({ delayMs: 20 });
        const second = await start(await freePort());
        await Promise.all([changes(first, 21, 15), changes(second, 36, 15)]);
        await waitFor('all 50 deliveries', async () => (await receiver.accepted()).length >= 50, 60_000, 100);
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        const accepted = await receiver.accepted();
        assert.equal(accepted.length, 50);
        assertInOrder(accepted);
        assert.equal((await receiver.duplicates()).length, before, 'no message sent twice by the two instances');
      });
    }
  });
});
