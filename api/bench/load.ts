// Bounded load test on 127.0.0.1 (npm run load): LOAD_USERS virtual users (default 300), started evenly over the first
// half of LOAD_SECONDS (default 60), each registering, reading its code from a real SMTP sink, verifying, signing in
// and then reading GET /apps/listar and GET /auth/user in a loop until LOAD_SECONDS have passed. The API runs in a
// process of its own (server.ts: PGlite, or DATABASE_URL when set) with SMTP_URL pointing at the sink and the per-IP
// limits raised, since every user comes from 127.0.0.1. A 429 is counted apart (a designed answer, retried after its
// wait); any other non-2xx or network error is an error. A registration whose mail has not reached the sink within
// LOAD_MAIL_WAIT_SECONDS (default 120) is a lost mail. Prints a markdown table; exits 1 on errors or lost mail.
// Not part of `npm test`: it takes the machine for a few minutes.
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { codeInReceived, startSink, type ReceivedMail } from '../test/helpers/smtp-sink.js';
import { startBenchServer } from './spawn-server.js';

const users = Number(process.env.LOAD_USERS || 300);
const seconds = Number(process.env.LOAD_SECONDS || 60);
/** How long a registration's mail may take to reach the sink before it counts as lost. */
const mailWaitMs = Number(process.env.LOAD_MAIL_WAIT_SECONDS || 120) * 1000;
/** Users start evenly over the first half of the run, as arrivals would rather than all in one instant. */
const rampMs = (seconds * 1000) / 2;
const password = 'clave-de-carga-1';
const run = randomBytes(4).toString('hex');

interface Tally {
  requests: number;
  ok: number;
  limited: number;
  errors: number;
  latencies: number[];
  /** The first few error answers, to show what went wrong. */
  samples: string[];
}

const tallies = new Map<string, Tally>();
const tally = (endpoint: string): Tally => {
  let found = tallies.get(endpoint);
  if (!found) {
    found = { requests: 0, ok: 0, limited: 0, errors: 0, latencies: [], samples: [] };
    tallies.set(endpoint, found);
  }
  return found;
};

const sink = await startSink();
const server = await startBenchServer({
  BENCH_DATABASE_URL: process.env.DATABASE_URL,
  SMTP_URL: sink.url,
  // An administrator of its own, so the seed does not print a generated password.
  ADMIN_EMAIL: `admin-carga-${run}@portal.test`,
  ADMIN_PASSWORD: randomBytes(12).toString('hex'),
});

/** Mails by recipient, stamped when the sink had them (within 20 ms); waiters are answered when theirs arrives. */
const mails = new Map<string, ReceivedMail & { at: number }>();
const waiting = new Map<string, (mail: ReceivedMail & { at: number }) => void>();
let indexed = 0;
const indexer = setInterval(() => {
  for (; indexed < sink.received.length; indexed++) {
    const mail = { ...sink.received[indexed]!, at: performance.now() };
    for (const to of mail.to) {
      mails.set(to, mail);
      waiting.get(to)?.(mail);
      waiting.delete(to);
    }
  }
}, 20);

function mailFor(email: string): Promise<(ReceivedMail & { at: number }) | undefined> {
  const arrived = mails.get(email);
  if (arrived) return Promise.resolve(arrived);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      waiting.delete(email);
      resolve(undefined);
    }, mailWaitMs);
    waiting.set(email, (mail) => {
      clearTimeout(timer);
      resolve(mail);
    });
  });
}

const started = Date.now();
const deadline = started + seconds * 1000;

/**
 * One request, timed and counted under `endpoint`. A 429 waits its Retry-After and goes again while the run lasts;
 * answers the parsed body of a 2xx, or undefined.
 */
async function call(
  endpoint: string,
  path: string,
  init: { body?: unknown; token?: string } = {},
): Promise<Record<string, unknown> | undefined> {
  const [method] = endpoint.split(' ');
  const counted = tally(endpoint);
  for (;;) {
    const sent = performance.now();
    let status = 0;
    let text = '';
    try {
      const response = await fetch(`${server.api}${path}`, {
        method,
        headers: {
          ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
        },
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
      });
      status = response.status;
      text = await response.text();
      if (status === 429) {
        counted.requests += 1;
        counted.limited += 1;
        counted.latencies.push(performance.now() - sent);
        const wait = Number(response.headers.get('retry-after') || 1) * 1000;
        if (Date.now() + wait >= deadline) return undefined;
        await sleep(wait);
        continue;
      }
    } catch (error) {
      text = (error as Error).message;
    }
    counted.requests += 1;
    counted.latencies.push(performance.now() - sent);
    if (status >= 200 && status < 300) {
      counted.ok += 1;
      return text ? (JSON.parse(text) as Record<string, unknown>) : {};
    }
    counted.errors += 1;
    if (counted.samples.length < 3) counted.samples.push(`${status || 'sin respuesta'}: ${text.slice(0, 200)}`);
    return undefined;
  }
}

const registered: string[] = [];
const codeless: string[] = [];
/** From the 201 of a registration to its mail in the sink, ms. */
const mailDelays: number[] = [];

async function virtualUser(n: number): Promise<void> {
  await sleep((rampMs * n) / users);
  const email = `carga-${run}-${n}@portal.test`;
  const registration = await call('POST /auth/register', '/auth/register', {
    body: { email, password, name: 'Usuario', lastName: `Carga ${n}`, phone: '+51 987654321' },
  });
  if (!registration) return;
  registered.push(email);
  const answered = performance.now();
  const mail = await mailFor(email);
  if (mail) mailDelays.push(Math.max(0, mail.at - answered));
  const code = mail && codeInReceived(mail);
  if (!code) {
    codeless.push(email);
    return;
  }
  // With the registration's id, the password typed at registration becomes the account's.
  const { registrationId } = registration as { registrationId?: string };
  if (
    !(await call('POST /auth/verify-registration', '/auth/verify-registration', {
      body: { email, code, registrationId },
    }))
  )
    return;
  const session = await call('POST /auth/login', '/auth/login', { body: { email, password } });
  if (!session) return;
  while (Date.now() < deadline) {
    await call('GET /apps/listar', '/apps/listar');
    await call('GET /auth/user', '/auth/user', { token: session.access_token as string });
  }
}

let exitCode = 0;
try {
  // A user whose mail comes after the run still verifies and signs in; only the reading loop is over by then.
  await Promise.all(Array.from({ length: users }, (_, n) => virtualUser(n)));
} finally {
  clearInterval(indexer);
  await server.stop();
  await sink.close();
}

const elapsed = (Date.now() - started) / 1000;
const delivered = registered.filter((email) => mails.has(email)).length;
const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? '—' : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!.toFixed(1);

console.log(
  `\n${users} usuarios virtuales, ${seconds} s de carga (${elapsed.toFixed(0)} s en total), API en ` +
    `${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}, todo en 127.0.0.1\n`,
);
console.log('| endpoint | requests | 2xx | 429 | errors | p50 (ms) | p95 (ms) | p99 (ms) |');
console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
let errors = 0;
for (const [endpoint, counted] of tallies) {
  const sorted = counted.latencies.sort((a, b) => a - b);
  errors += counted.errors;
  console.log(
    `| ${endpoint} | ${counted.requests} | ${counted.ok} | ${counted.limited} | ${counted.errors} | ` +
      `${percentile(sorted, 50)} | ${percentile(sorted, 95)} | ${percentile(sorted, 99)} |`,
  );
}
const delays = mailDelays.sort((a, b) => a - b);
console.log(
  `| mail: 201 of /auth/register → SMTP sink | ${delays.length} | — | — | ${registered.length - delays.length} | ` +
    `${percentile(delays, 50)} | ${percentile(delays, 95)} | ${percentile(delays, 99)} |`,
);
const readRequests = (tallies.get('GET /apps/listar')?.requests ?? 0) + (tallies.get('GET /auth/user')?.requests ?? 0);
console.log(`\nLecturas (GET): ${Math.round(readRequests / seconds)} por segundo de carga.`);
console.log(
  `Correos: ${registered.length} esperados, ${delivered} entregados al SMTP, ${codeless.length} sin código a tiempo.`,
);

for (const [endpoint, counted] of tallies) {
  for (const sample of counted.samples) console.error(`${endpoint} → ${sample}`);
}
if (errors > 0) {
  console.error(`${errors} respuestas con error (ni 2xx ni 429).`);
  exitCode = 1;
}
if (delivered < registered.length || codeless.length > 0) {
  console.error(
    `${registered.length - delivered} correos de registro no llegaron; ${codeless.length} usuarios sin código.`,
  );
  exitCode = 1;
}
process.exit(exitCode);
