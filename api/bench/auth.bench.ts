// GET /auth/user and GET /apps/listar against a bare Fastify route measured in the same run (GET /auth/user also
// against the reference route of server.ts: helmet, CORS and a token found in a Map), and POST /auth/login
// against raw argon2id verifies at the same parameters: how much the API adds on top of the framework and of the
// password hash it cannot avoid. GET /health/live and GET /.well-known/jwks.json (no database) show what the API's
// own hooks (security headers, CORS, the request deadline) cost before any route does work. Beside each rate, the
// server's processor time per request: on a shared machine it moves far less than the rate does.
import autocannon from 'autocannon';
import { hashPassword, verifyPassword } from '../src/domain/accounts/passwords.js';
import { startBenchServer } from './spawn-server.js';

const seconds = Number(process.env.BENCH_SECONDS || 4);
const adminEmail = 'bench@portal.local';
const adminPassword = 'clave-del-benchmark';
const loginConnections = 4;

/** The route GET /auth/user is held to (server.ts). */
const reference = 'reference route (helmet, CORS, a token found in a Map)';

const server = await startBenchServer({
  ADMIN_EMAIL: adminEmail,
  ADMIN_PASSWORD: adminPassword,
});
const { api, bare } = server;

interface Row {
  what: string;
  perSecond: number;
  p99: number | undefined;
  /** The server's processor time per request, in µs. */
  processor?: number | undefined;
  reference?: string;
}

interface Measure {
  perSecond: number;
  p99: number;
  processor: number | undefined;
}

async function load(options: autocannon.Options): Promise<Measure> {
  const before = server.processorSeconds();
  const result = await autocannon({ duration: seconds, ...options });
  const after = server.processorSeconds();
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${options.url}: ${result.non2xx} respuestas no 2xx y ${result.errors} errores`);
  }
  const processor =
    before === undefined || after === undefined ? undefined : ((after - before) * 1e6) / result.requests.total;
  return { perSecond: result.requests.average, p99: result.latency.p99, processor };
}

/** argon2id verifies with `parallel` in flight for the benchmark's duration, on the library's thread pool. */
async function rawVerifies(parallel: number): Promise<number> {
  const hash = await hashPassword(adminPassword);
  const end = Date.now() + seconds * 1000;
  let done = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (Date.now() < end) {
        if (!(await verifyPassword(hash, adminPassword))) throw new Error('argon2 verify failed');
        done += 1;
      }
    }),
  );
  return done / seconds;
}

/** A share as a percentage, with a decimal when it is small enough for rounding to hide it. */
const percent = (part: number, whole: number) => {
  const value = (part / whole) * 100;
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} %`;
};

const format = (value: number) => (value >= 100 ? Math.round(value).toLocaleString('en-US') : value.toFixed(1));
const rows: Row[] = [];
try {
  const loginBody = JSON.stringify({ email: adminEmail, password: adminPassword });
  const json = { 'content-type': 'application/json' };
  const signIn = await fetch(`${api}/auth/login`, { method: 'POST', headers: json, body: loginBody });
  const { access_token: token } = (await signIn.json()) as { access_token: string };

  const auth = { authorization: `Bearer ${token}` };
  // The reference route answers the same JSON for the same token (server.ts).
  const answer = await (await fetch(`${api}/auth/user`, { headers: auth })).json();
  const kept = await fetch(`${server.reference}/tokens`, {
    method: 'PUT',
    headers: json,
    body: JSON.stringify({ token, answer }),
  });
  if (kept.status !== 204) throw new Error(`reference route: ${kept.status}`);
  const routes: Array<{ what: string; url: string; headers?: Record<string, string> }> = [
    { what: 'GET /health/live (no database)', url: `${api}/health/live` },
    { what: 'GET /.well-known/jwks.json', url: `${api}/.well-known/jwks.json` },
    { what: reference, url: `${server.reference}/user`, headers: auth },
    { what: 'GET /auth/user', url: `${api}/auth/user`, headers: auth },
    { what: 'GET /apps/listar', url: `${api}/apps/listar` },
  ];
  // On a shared machine the bare route alone swings by 2x from one 4 s window to the next: each route is measured
  // between two measures of the bare route and compared with their mean, so a change of load mid-run moves both.
  for (const connections of [1, 50]) {
    const floors = [await load({ url: `${bare}/bare`, connections })];
    const measures: Array<{ what: string } & Measure> = [];
    for (const route of routes) {
      measures.push({ what: route.what, ...(await load({ url: route.url, connections, headers: route.headers })) });
      floors.push(await load({ url: `${bare}/bare`, connections }));
    }
    const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
    const processors = floors.map((floor) => floor.processor);
    const processorAround = (i: number) => {
      const [a, b] = [processors[i], processors[i + 1]];
      return a === undefined || b === undefined ? undefined : (a + b) / 2;
    };
    rows.push({
      what: `bare Fastify route, ${connections} conn. (mean of ${floors.length})`,
      perSecond: mean(floors.map((floor) => floor.perSecond)),
      p99: Math.max(...floors.map((floor) => floor.p99)),
      processor: processors.includes(undefined) ? undefined : mean(processors as number[]),
      reference: `from ${format(Math.min(...floors.map((f) => f.perSecond)))} to ${format(Math.max(...floors.map((f) => f.perSecond)))}`,
    });
    measures.forEach((measured, i) => {
      const floor = (floors[i]!.perSecond + floors[i + 1]!.perSecond) / 2;
      const bareProcessor = processorAround(i);
      const byProcessor =
        bareProcessor === undefined || measured.processor === undefined
          ? ''
          : `; by processor time, ${percent(bareProcessor, measured.processor)}`;
      // GET /auth/user is held to the reference route, measured just before it.
      const held = measured.what === 'GET /auth/user' ? measures[i - 1] : undefined;
      const ofReference = held ? `; ${percent(measured.perSecond, held.perSecond)} of the reference route` : '';
      rows.push({
        what: `${measured.what}, ${connections} conn.`,
        perSecond: measured.perSecond,
        p99: measured.p99,
        processor: measured.processor,
        reference: `${percent(measured.perSecond, floor)} of the bare route measured around it${byProcessor}${ofReference}`,
      });
    });
  }

  const verifies = await rawVerifies(loginConnections);
  rows.push({ what: `raw argon2id verify, ${loginConnections} in flight`, perSecond: verifies, p99: undefined });
  const logins = await load({
    url: `${api}/auth/login`,
    connections: loginConnections,
    method: 'POST',
    headers: json,
    body: loginBody,
  });
  rows.push({
    what: `POST /auth/login, ${loginConnections} conn.`,
    ...logins,
    reference: `${percent(logins.perSecond, verifies)} of raw verifies`,
  });
} finally {
  await server.stop();
}

console.log(`API routes and POST /auth/login, ${seconds} s each, autocannon on 127.0.0.1 (same machine)\n`);
console.log('| measure | per second | p99 (ms) | server µs a request | relative |');
console.log('|---|---:|---:|---:|---|');
for (const row of rows) {
  const processor = row.processor === undefined ? '—' : row.processor.toFixed(1);
  console.log(
    `| ${row.what} | ${format(row.perSecond)} | ${row.p99 === undefined ? '—' : row.p99} | ${processor} | ${row.reference ?? ''} |`,
  );
}
