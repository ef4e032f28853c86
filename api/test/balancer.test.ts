// The deployment of several machines, on one: nginx (deploy/nginx/portal.conf.template) in front of three API
// processes on one PostgreSQL server of this file's own and the machine's Redis, a real SMTP sink, and a steady load
// of sign-ins, session checks and registrations through nginx. One instance is killed with SIGKILL; then each is
// restarted in turn (SIGTERM, started again on its port, ready); then PostgreSQL is restarted under the same load, a
// fault every instance shares. The figures of each event are printed, with a scrape of each instance's metrics
// (METRICS_PORT) taken under load and one registration followed by its request id from nginx's access log into the
// lines of the instances that answered it and mailed its code. nginx-answers.test.ts checks nginx's part alone.
// It runs with the PostgreSQL backend (once in CI, in its PostgreSQL round), as the other multi-instance suites do.
// Two to five minutes: the load runs through every kill, restart and database restart, each waited out for real.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it, type TestContext } from 'node:test';
import { Redis } from 'ioredis';
import pg from 'pg';
import { bodyLimitBytes } from '../src/app.js';
import { ScimError, scimErrorBody, scimMessages } from '../src/domain/companies/scim/errors.js';
import { messages } from '../src/lib/errors.js';
import { scimContentType } from '../src/routes/scim/index.js';
import { registration, testRedisUrl } from './helpers/accounts.js';
import { backends } from './helpers/app.js';
import { generateEcKeyPem } from './helpers/keys.js';
import { findNginx, startNginx, type AccessLogLine, type Nginx } from './helpers/nginx.js';
import { createPostgresCluster, type PostgresCluster } from './helpers/postgres-cluster.js';
import { freePort, sleep, startApi, waitFor, type ApiProcess } from './helpers/processes.js';
import { scaled } from './helpers/slowness.js';
import { codeInReceived, startSink, type SmtpSink } from './helpers/smtp-sink.js';

type Operation = 'sign-in' | 'session' | 'registration';

/** A sample of a Prometheus scrape, `name` with its labels as written (`x{a="b"}`); 0 when absent. */
function figure(scrape: string, name: string): number {
  const line = scrape.split('\n').find((candidate) => candidate.startsWith(`${name} `));
  return line ? Number(line.slice(name.length + 1)) : 0;
}

/** The portal's own series worth printing from a scrape: counters and gauges, the three load routes' counts. */
function portalLines(scrape: string): string[] {
  return scrape
    .split('\n')
    .filter(
      (line) =>
        /^portal_(sign_ins|sign_in_locks|codes_\w+|mail_\w+|database_\w+|session_memory_\w+)/.test(line) ||
        /^portal_http_request_duration_seconds_count\{route="\/auth\/(login|user|register)"/.test(line),
    );
}

/** One request of the load, as its client saw it. */
interface Call {
  operation: Operation;
  method: 'GET' | 'POST';
  /** performance.now() when it was sent and when its answer (or its failure) came. */
  started: number;
  ended: number;
  status: number;
  /** nginx's id of the request (X-Request-Id), the key of its access-log line. */
  requestId: string | null;
  body: string;
  email?: string;
}

const expectedStatus: Record<Operation, number> = { 'sign-in': 200, session: 200, registration: 201 };
const failed = (call: Call) => call.status !== expectedStatus[call.operation];

/** The last of a comma-separated list of nginx's log (every instance tried, and what each answered). */
const last = (list: string) => list.split(', ').at(-1) ?? '';

/**
 * nginx answered this call itself (no instance's answer reached the client: none was live, or the last one tried
 * failed or ran out of time), which its access log shows as a status that is not the last instance's.
 */
function answeredByNginx(call: Call, log: Map<string, AccessLogLine>): boolean {
  const line = call.requestId ? log.get(call.requestId) : undefined;
  return line !== undefined && last(line.upstream_status) !== String(line.status);
}

/** A body as JSON, or as it came when it is not JSON (then it differs from any JSON shape it is compared with). */
function parsed(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return body;
  }
}

/** A span of the run that the figures describe. */
interface Event {
  name: string;
  from: number;
  to: number;
}

const password = registration('x@y.z').password as string;
const unavailable = { statusCode: 503, message: messages.unavailable, code: 'SERVICE_UNAVAILABLE' };
/**
 * Readiness answers 503 this long after SIGTERM while everything is still served (then the hand-off): long enough for
 * this test to ask in it, on the machine as loaded as it is now.
 */
const drainMs = scaled(1_500);
/** An instance's start loads and compiles the whole API: on a shared two-core machine under load, it may be slow. */
const readyWithinMs = 180_000;
const run = randomBytes(4).toString('hex');
const prefix = `balancer-${run}:`;

if (backends.includes('postgres'))
  describe('three API instances behind nginx, under load', () => {
    let cluster: PostgresCluster;
    let db: pg.Pool;
    let redis: Redis;
    let sink: SmtpSink;
    let nginx: Nginx;
    let staticPart: http.Server;
    const ports: number[] = [];
    const metricsPorts: number[] = [];
    const instances: ApiProcess[] = [];
    /** Every process started, the replaced ones included: their lines are searched for a request's id. */
    const everyProcess: ApiProcess[] = [];
    const dataDir = mkdtempSync(join(tmpdir(), 'portal-balancer-'));
    let env: Record<string, string | undefined>;

    before(async () => {
      // Before anything starts: without nginx there is nothing to test, and the failure says how to install it.
      findNginx();
      redis = new Redis(testRedisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
      await redis.connect();
      cluster = await createPostgresCluster();
      db = new pg.Pool({ connectionString: cluster.url, max: 2 });
      db.on('error', () => {});
      sink = await startSink();
      // Stands for the static parts: the template routes their names to it.
      staticPart = http.createServer((request, response) => response.end(`parte estática: ${request.headers.host}`));
      await new Promise<void>((resolve) => staticPart.listen(0, '127.0.0.1', resolve));
      env = {
        DATABASE_URL: cluster.url,
        SMTP_URL: sink.url,
        MAIL_FROM: 'Portal <no-reply@portal.test>',
        REDIS_URL: testRedisUrl,
        REDIS_KEY_PREFIX: prefix,
        DATA_DIR: dataDir,
        // One signing key for every instance, as in a deployment: a session started on one is valid on all.
        JWT_PRIVATE_KEY: generateEcKeyPem(),
        // nginx is the client every instance sees: its X-Forwarded-For and X-Request-Id are believed.
        TRUST_PROXY: '127.0.0.1',
        // Every call of the load comes from 127.0.0.1: the per-address limits are not what this tests.
        LOGIN_RATE_LIMIT_PER_MINUTE: '100000',
        AUTH_RATE_LIMIT_PER_MINUTE: '100000',
        SHUTDOWN_DRAIN_MS: String(drainMs),
        // Every request's lines, to follow one by its id.
        LOG_LEVEL: 'info',
      };
      for (let i = 0; i < 3; i++) {
        ports.push(await freePort());
        metricsPorts.push(await freePort());
      }
      // The first one migrates the new database; the others start together, as a deployment's instances may.
      instances.push(await start(0));
      instances.push(...(await Promise.all([start(1), start(2)])));
      nginx = await startNginx(ports, (staticPart.address() as { port: number }).port);
    });

    after(async () => {
      for (const api of instances) {
        if (api.child.exitCode !== null && api.child.exitCode !== 0)
          process.stderr.write(`API ${api.url} exited with ${api.child.exitCode}:\n${api.output()}\n`);
      }
      await Promise.all(instances.map((api) => api.stop()));
      await nginx?.stop();
      await new Promise((resolve) => staticPart?.close(resolve));
      await db?.end().catch(() => {});
      await Promise.all([cluster?.drop(), sink?.close()]);
      rmSync(dataDir, { recursive: true, force: true });
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length > 0) await redis.del(...keys);
      await redis.quit();
    });

    /** Instance `i` (again) on its API port, with its metrics on a loopback port of its own. */
    async function start(i: number): Promise<ApiProcess> {
      const api = await startApi({ ...env, METRICS_PORT: String(metricsPorts[i]) }, { port: ports[i], readyWithinMs });
      everyProcess.push(api);
      return api;
    }

    /** One call through nginx, as a client makes it (it gives up after 20 s: then its status is 0). */
    async function call(operation: Operation, path: string, body?: unknown, token?: string): Promise<Call> {
      const method = body === undefined ? 'GET' : 'POST';
      const started = performance.now();
      try {
        const response = await fetch(`${nginx.url}${path}`, {
          method,
          headers: {
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
            ...(token ? { authorization: `Bearer ${token}` } : {}),
          },
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: AbortSignal.timeout(20_000),
        });
        const text = await response.text();
        const requestId = response.headers.get('x-request-id');
        return { operation, method, started, ended: performance.now(), status: response.status, requestId, body: text };
      } catch (error) {
        return {
          operation,
          method,
          started,
          ended: performance.now(),
          status: 0,
          requestId: null,
          body: String(error),
        };
      }
    }

    const mailTo = (email: string) => sink.received.find((mail) => mail.to.includes(email) && codeInReceived(mail));

    /** An active account made through nginx (registered, its mailed code verified), and its session's token. */
    async function activeAccount(email: string): Promise<string> {
      const registered = await call('registration', '/auth/register', registration(email));
      assert.equal(registered.status, 201, registered.body);
      const { registrationId } = JSON.parse(registered.body) as { registrationId: string };
      const mail = await waitFor(`the code mail to ${email}`, () => mailTo(email), 30_000);
      const verified = await fetch(`${nginx.url}/auth/verify-registration`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, code: codeInReceived(mail), registrationId }),
      });
      assert.equal(verified.status, 200, await verified.clone().text());
      return ((await verified.json()) as { access_token: string }).access_token;
    }

    /**
     * Two clients per operation, each calling, then pausing 50 ms: about 60 to 100 calls a second on this machine,
     * a third of them hashing or checking a password. Runs until `stop()`; answers every call made.
     */
    function startLoad(accounts: string[], tokens: string[]) {
      const calls: Call[] = [];
      let running = true;
      let registered = 0;
      const pick = <T>(items: T[]) => items[Math.floor(Math.random() * items.length)]!;
      const next: Record<Operation, () => Promise<Call>> = {
        'sign-in': () => call('sign-in', '/auth/login', { email: pick(accounts), password }),
        session: () => call('session', '/auth/user', undefined, pick(tokens)),
        registration: async () => {
          const email = `carga-${run}-${++registered}@portal.test`;
          return { ...(await call('registration', '/auth/register', registration(email))), email };
        },
      };
      const clients = (['sign-in', 'sign-in', 'session', 'session', 'registration', 'registration'] as const).map(
        async (operation) => {
          while (running) {
            calls.push(await next[operation]());
            await sleep(50);
          }
        },
      );
      return {
        calls,
        async stop() {
          running = false;
          await Promise.all(clients);
          return calls;
        },
      };
    }

    /** Figures of the calls answered during `event` (a failure counts where it happened), with nginx's log lines. */
    function figures(event: Event, calls: Call[], log: Map<string, AccessLogLine>) {
      const during = calls.filter((call) => call.ended >= event.from && call.ended < event.to);
      const retried = during.filter((call) => call.requestId && log.get(call.requestId)?.upstream_addr.includes(','));
      return {
        event: event.name,
        seconds: ((event.to - event.from) / 1000).toFixed(1),
        requests: during.length,
        failed: during.filter(failed).length,
        byNginx: during.filter((call) => failed(call) && answeredByNginx(call, log)).length,
        retried: retried.length,
        worstMs: Math.round(Math.max(0, ...during.map((call) => call.ended - call.started))),
      };
    }

    /** The figures of the whole run and of each event, as a table, printed and attached to the test's output. */
    function printFigures(
      t: TestContext,
      events: Event[],
      calls: Call[],
      log: Map<string, AccessLogLine>,
      notes: string[],
    ) {
      if (events.length === 0) return;
      const table = [
        figures({ name: 'toda la prueba', from: events[0]!.from, to: events.at(-1)!.to }, calls, log),
        ...events.map((event) => figures(event, calls, log)),
      ];
      const report = [
        '| evento | s | peticiones | fallidas | de ellas, respuesta de nginx | reintentadas por nginx | peor latencia (ms) |',
        '| --- | --: | --: | --: | --: | --: | --: |',
        ...table.map(
          (row) =>
            `| ${row.event} | ${row.seconds} | ${row.requests} | ${row.failed} | ${row.byNginx} | ${row.retried} | ${row.worstMs} |`,
        ),
        ...notes.map((line) => `- ${line}`),
      ].join('\n');
      console.log(`\n${report}\n`);
      t.diagnostic(report);
    }

    /** The instance on `port` answers readiness: nginx may send it work again. */
    const ready = (port: number) =>
      waitFor(
        `the instance on ${port} to be ready`,
        async () => (await fetch(`http://127.0.0.1:${port}/health/ready`)).status === 200,
        readyWithinMs,
      );

    async function exited(api: ApiProcess): Promise<number | null> {
      if (api.child.exitCode === null && api.child.signalCode === null)
        await new Promise((resolve) => api.child.once('exit', resolve));
      return api.child.exitCode;
    }

    it('routes each name to its part: the API, the static parts, nothing for an unknown name; its 503 is the API one', async () => {
      const health = await fetch(`${nginx.url}/health/ready`);
      assert.equal(health.status, 200);
      assert.deepEqual(await health.json(), { status: 'ok', database: 'ok', redis: 'ok' });
      const get = (host: string) =>
        new Promise<{ status: number; body: string }>((resolve, reject) => {
          const request = http.get(`${nginx.url}/`, { headers: { host } }, (response) => {
            let body = '';
            response.on('data', (chunk: Buffer) => {
              body += chunk.toString();
            });
            response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
          });
          request.on('error', reject);
        });
      for (const name of ['portal', 'auth', 'apps', 'admin', 'calc'])
        assert.deepEqual(await get(`${name}.portal.test`), {
          status: 200,
          body: `parte estática: ${name}.portal.test`,
        });
      // 444: nginx closes the connection without a word.
      await assert.rejects(get('otro.example.com'));
      // When no instance can answer, nginx answers itself: with the API's own 503, word for word.
      assert.ok(nginx.config.includes(`return 503 '${JSON.stringify(unavailable)}';`), "nginx has the API's 503");
    });

    it("answers a directory under /scim/ with SCIM's 503 when no instance is left, as the API answers its own", async () => {
      // The API's SCIM error through nginx, and nginx's own when every instance is gone: one shape, one content type.
      const own = await fetch(`${nginx.url}/scim/v2/Users`);
      assert.equal(own.status, 401);
      const ownType = own.headers.get('content-type');
      assert.equal(ownType, scimContentType);
      assert.deepEqual(Object.keys((await own.json()) as object).sort(), ['detail', 'schemas', 'status']);
      // The same template in front of this deployment's instances once all of them are gone: ports nobody listens on.
      const deserted = await startNginx(
        [await freePort(), await freePort()],
        (staticPart.address() as { port: number }).port,
      );
      try {
        const refused = await fetch(`${deserted.url}/scim/v2/Users`, {
          headers: { authorization: 'Bearer scim_cualquiera' },
        });
        assert.equal(refused.status, 503);
        assert.equal(refused.headers.get('content-type'), ownType);
        assert.equal(refused.headers.get('retry-after'), '5');
        assert.deepEqual(await refused.json(), scimErrorBody(new ScimError(503, scimMessages.unavailable)));
      } finally {
        await deserted.stop();
      }
    });

    it("refuses a body over the API's limit as the API does, before it reaches an instance", async () => {
      const post = (origin: string, bytes: number) =>
        fetch(`${origin}/auth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: 'x'.repeat(bytes),
        });
      const own = await post(instances[0]!.url, bodyLimitBytes + 1);
      const refused = await post(nginx.url, bodyLimitBytes + 1);
      assert.equal(refused.status, own.status);
      const ownBody = (await own.json()) as { message: string };
      assert.deepEqual(await refused.json(), { statusCode: 413, message: ownBody.message, code: 'BODY_TOO_LARGE' });
      const refusedLine = await waitFor("the 413's access-log line", () =>
        nginx.accessLog().find((line) => line.request_id === refused.headers.get('x-request-id')),
      );
      assert.equal(refusedLine.upstream_addr, '', 'sent to no instance');
      // At the limit, the API reads it (and finds no JSON in it).
      const atLimit = await post(nginx.url, bodyLimitBytes);
      assert.equal(atLimit.status, 400);
      assert.deepEqual(await atLimit.json(), { statusCode: 400, message: messages.invalidJson });
    });

    it("writes the path of an address into nginx's access log, never its query", async () => {
      const secret = `codigo-que-nginx-no-escribe-${run}`;
      const answer = await fetch(`${nginx.url}/auth/google/callback?code=${secret}&state=x`, { redirect: 'manual' });
      const id = answer.headers.get('x-request-id');
      const line = await waitFor('its access-log line', () =>
        nginx.accessLog().find((entry) => entry.request_id === id),
      );
      assert.equal(line.uri, '/auth/google/callback');
      assert.ok(!JSON.stringify(nginx.accessLog()).includes(secret));
    });

    it('SIGKILL of one instance fails only POSTs it was holding; every instance restarted in turn fails nothing', async (t: TestContext) => {
      const accounts = Array.from({ length: 6 }, (_, i) => `cuenta-${run}-${i}@portal.test`);
      const tokens = await Promise.all(accounts.map((email) => activeAccount(email)));
      const load = startLoad(accounts, tokens);
      const events: Event[] = [];
      const mark = async (name: string, during: () => Promise<unknown>) => {
        const from = performance.now();
        await during();
        events.push({ name, from, to: performance.now() });
      };

      const victim = 1;
      let killedAt = 0;
      let diedAt = 0;
      const drains: string[] = [];
      let calls: Call[] = [];
      let scrapes: string[] = [];
      const log = new Map<string, AccessLogLine>();
      try {
        await mark('carga sin incidentes', async () => {
          // The first password sign-ins answered (a busy machine takes more than a second over the first argon2 checks),
          // then each instance's metrics listener, scraped in the middle of the load.
          await waitFor(
            'a sign-in answered through nginx',
            () => load.calls.find((call) => call.operation === 'sign-in' && call.status === 200),
            30_000,
          );
          await sleep(500);
          scrapes = await Promise.all(
            metricsPorts.map(async (port) => (await fetch(`http://127.0.0.1:${port}/metrics`)).text()),
          );
          await sleep(1_500);
        });

        // SIGKILL: from the kill until the instance, started again on its port, is ready.
        await mark(`SIGKILL de la instancia ${victim + 1} y su arranque`, async () => {
          instances[victim]!.child.kill('SIGKILL');
          killedAt = performance.now();
          await exited(instances[victim]!);
          // Until the kernel has torn the process down, its listening socket still takes connections.
          diedAt = performance.now();
          await sleep(3_000);
          instances[victim] = await start(victim);
          await ready(ports[victim]!);
        });
        await sleep(2_000);

        // Rolling restart: each instance in turn leaves nginx, exits, starts again on its port and is ready.
        for (let i = 0; i < instances.length; i++) {
          await mark(`reinicio de la instancia ${i + 1} (SIGTERM, arranque, lista)`, async () => {
            const leaving = instances[i]!;
            const signalled = performance.now();
            leaving.child.kill('SIGTERM');
            // It says so first, while it is still alive (the bound only stops a hung test).
            const first = await waitFor(
              'readiness to turn 503, or the instance to leave',
              async () => {
                if (leaving.child.exitCode !== null) return 'left';
                return (await fetch(`${leaving.url}/health/ready`)).status === 503 && 'said 503';
              },
              30_000,
              20,
            );
            assert.equal(first, 'said 503', 'readiness said 503 before the instance left');
            const live = await fetch(`${leaving.url}/health/live`);
            assert.equal(live.status, 200);
            assert.equal(live.headers.get('connection'), 'close');
            const saidAfter = performance.now() - signalled;
            assert.equal(await exited(leaving), 0, leaving.output());
            drains.push(
              `instancia ${i + 1}: lista 503 a los ${Math.round(saidAfter)} ms, salida 0 a los ${Math.round(performance.now() - signalled)} ms`,
            );
            instances[i] = await start(i);
            await ready(ports[i]!);
          });
          // nginx tries a server it set aside again after fail_timeout (5 s): the next one leaves once it is back.
          await sleep(5_000);
        }
        await mark('carga tras los reinicios', () => sleep(2_000));
      } finally {
        calls = await load.stop();
        for (const line of nginx.accessLog()) log.set(line.request_id, line);
        // The figures, printed whatever the outcome.
        printFigures(t, events, calls, log, drains);
        if (scrapes.length > 0) {
          const scrape = `Métricas de la instancia 1 durante la carga:\n${portalLines(scrapes[0]!).join('\n')}`;
          console.log(`\n${scrape}\n`);
          t.diagnostic(scrape);
        }
      }

      // Every instance answered its scrape: its database reachable, its sign-ins and requests counted.
      assert.equal(scrapes.length, 3);
      for (const scrape of scrapes) {
        assert.equal(figure(scrape, 'portal_database_up'), 1, scrape);
        assert.equal(figure(scrape, 'portal_session_memory_channel_up'), 1, scrape);
      }
      const total = (name: string) => scrapes.reduce((sum, scrape) => sum + figure(scrape, name), 0);
      assert.ok(total('portal_sign_ins_total{method="password",result="success"}') > 0);
      assert.ok(total('portal_codes_sent_total{purpose="verify_email"}') > 0);

      // No GET failed at any moment: nginx retried every one an instance could not answer.
      assert.deepEqual(
        calls.filter((call) => call.method === 'GET' && failed(call)).map((call) => `${call.status} ${call.body}`),
        [],
      );

      // The SIGKILL's failures: POSTs that were on the killed instance as it died, answered with nginx's 503 in the
      // API's shape, and logged by nginx as sent there and lost (nothing else may have failed).
      const killedAddress = `127.0.0.1:${ports[victim]}`;
      for (const call of calls.filter(failed)) {
        const line = call.requestId ? log.get(call.requestId) : undefined;
        const where = `${call.operation} ${call.status} ${call.body} ${JSON.stringify(line)}`;
        assert.equal(call.method, 'POST', where);
        assert.ok(call.started < diedAt && call.ended >= killedAt, `in flight as it died: ${where}`);
        assert.equal(call.status, 503, where);
        assert.deepEqual(JSON.parse(call.body), unavailable, where);
        assert.equal(line?.upstream_addr.split(', ').at(-1), killedAddress, where);
        assert.equal(line?.upstream_status.split(', ').at(-1), '502', where);
      }
      // The restarts failed nothing at all.
      for (const event of events.filter((event) => event.name.startsWith('reinicio')))
        assert.equal(figures(event, calls, log).failed, 0, event.name);
      // The load went on throughout, through every event.
      for (const event of events) assert.ok(figures(event, calls, log).requests > 0, event.name);

      // Every registration answered 201 gets its code by mail, the killed instance's claims included.
      const accepted = calls.filter((call) => call.operation === 'registration' && call.status === 201);
      await waitFor(
        'every accepted registration to be mailed',
        () => accepted.every((call) => mailTo(call.email!)),
        30_000,
        200,
      );

      // Nothing written by halves: every pending account has its registration, its code and its mail, and every mail
      // left the outbox (none held by a claim of the killed instance).
      await waitFor(
        'the outbox to be empty',
        async () => (await db.query('SELECT 1 FROM mail_outbox WHERE sent_at IS NULL')).rowCount === 0,
        30_000,
        200,
      );
      const incomplete = await db.query<{ email: string; registration: boolean; code: boolean; mail: boolean }>(`
        SELECT u.email,
               EXISTS (SELECT 1 FROM pending_registrations p WHERE p.user_id = u.id) AS registration,
               EXISTS (SELECT 1 FROM account_codes c WHERE c.user_id = u.id AND c.purpose = 'verify_email') AS code,
               EXISTS (SELECT 1 FROM mail_outbox m WHERE m.recipient = u.email) AS mail
        FROM users u WHERE u.status = 'pending_verification'`);
      assert.ok(incomplete.rows.length >= accepted.length, 'every accepted registration is a pending account');
      assert.deepEqual(
        incomplete.rows.filter((row) => !row.registration || !row.code || !row.mail),
        [],
      );

      // One registration of the load, followed by nginx's id: its access-log line names the instance that answered,
      // whose lines carry the same id, and the mail of its code is logged with it by whichever instance sent it.
      const followed = accepted.find((call) => call.requestId && log.has(call.requestId));
      assert.ok(followed?.requestId, 'a registration nginx logged');
      const id = followed.requestId;
      const entry = log.get(id)!;
      const linesOf = () =>
        everyProcess.flatMap((api) =>
          api
            .output()
            .split('\n')
            .filter((line) => line.includes(`"reqId":"${id}"`))
            .map((line) => ({ instance: ports.indexOf(Number(new URL(api.url).port)) + 1, line: JSON.parse(line) })),
        );
      const traced = await waitFor('the mail line of the followed registration', () => {
        const lines = linesOf();
        return lines.some((found) => found.line.msg === 'mail sent') && lines;
      });
      const answeredBy = ports.indexOf(Number(entry.upstream_addr.split(', ').at(-1)?.split(':')[1])) + 1;
      assert.equal(entry.uri, '/auth/register');
      assert.deepEqual(
        traced
          .filter((found) => found.instance === answeredBy)
          .map((found) => found.line.msg)
          .filter((msg) => msg === 'incoming request' || msg === 'request completed')
          .sort(),
        ['incoming request', 'request completed'],
      );
      const trace = [
        `Una petición seguida por su id (${id}):`,
        `nginx: ${JSON.stringify(entry)}`,
        ...traced.map(({ instance, line }) => {
          const { time, reqId, msg, req, res, responseTime, mailId } = line;
          return `API ${instance}: ${JSON.stringify({ time, reqId, msg, req, res, responseTime, mailId })}`;
        }),
      ].join('\n');
      console.log(`\n${trace}\n`);
      t.diagnostic(trace);
    });

    it('a PostgreSQL restart under load fails only what came during it, in Spanish; nginx never sets every instance aside', async (t: TestContext) => {
      const accounts = Array.from({ length: 4 }, (_, i) => `reinicio-bd-${run}-${i}@portal.test`);
      const tokens = await Promise.all(accounts.map((email) => activeAccount(email)));
      const noLiveBefore = nginx.errorLog().split('no live upstreams').length;
      const load = startLoad(accounts, tokens);
      const events: Event[] = [];
      let stoppedAt = 0;
      let backAt = 0;
      let calls: Call[] = [];
      const log = new Map<string, AccessLogLine>();
      try {
        const before = performance.now();
        await sleep(2_000);
        events.push({ name: 'carga sin incidentes', from: before, to: performance.now() });
        // pg_ctl's fast stop (every session cut), a second down, then its start: a restart of a server larger than
        // this empty one, which stops and starts in a fraction of a second.
        stoppedAt = performance.now();
        await cluster.stop();
        await sleep(1_000);
        await cluster.start();
        await waitFor('the database to answer', () => db.query('SELECT 1').then(() => true), 30_000, 20);
        backAt = performance.now();
        events.push({ name: 'reinicio de PostgreSQL (parada rápida, arranque)', from: stoppedAt, to: backAt });
        await sleep(1_000);
        events.push({ name: 'el primer segundo con PostgreSQL de vuelta', from: backAt, to: performance.now() });
        // Longer than nginx's fail_timeout (5 s): instances it had set aside would be skipped all along.
        const after = performance.now();
        await sleep(7_000);
        events.push({ name: 'carga tras el reinicio', from: after, to: performance.now() });
      } finally {
        calls = await load.stop();
        for (const line of nginx.accessLog()) log.set(line.request_id, line);
        printFigures(t, events, calls, log, [
          `PostgreSQL no contestó durante ${Math.round(backAt - stoppedAt)} ms`,
          `líneas «no live upstreams» en el registro de errores de nginx: ${nginx.errorLog().split('no live upstreams').length - noLiveBefore}`,
        ]);
      }

      const failures = calls.filter(failed);
      const where = (call: Call) =>
        `${call.operation} ${call.status} ${Math.round(call.started - stoppedAt)} ms after the stop: ${call.body} ${JSON.stringify(call.requestId && log.get(call.requestId))}`;
      // The fault was felt: requests that needed the database got the API's own 503 meanwhile.
      assert.ok(
        failures.some((call) => !answeredByNginx(call, log)),
        'some request got the API 503 during the restart',
      );
      // nginx answered nothing itself: no instance was set aside for a fault they all shared.
      assert.deepEqual(failures.filter((call) => answeredByNginx(call, log)).map(where), []);
      assert.equal(nginx.errorLog().split('no live upstreams').length - noLiveBefore, 0, 'no "no live upstreams"');
      // Every failure is the API's Spanish 503, and came while the database was away, or within a second of its return
      // (stretched by the machine's measured slowness: the instances' pools reconnect on a loaded machine too).
      const returnMs = scaled(1_000);
      for (const call of failures) {
        assert.equal(call.status, 503, where(call));
        assert.deepEqual(parsed(call.body), unavailable, where(call));
        assert.ok(call.ended >= stoppedAt && call.started <= backAt + returnMs, `during the outage: ${where(call)}`);
      }
      // The load went on throughout.
      for (const event of events) assert.ok(figures(event, calls, log).requests > 0, event.name);
    });
  });
