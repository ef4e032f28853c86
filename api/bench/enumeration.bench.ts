// Response times of the anonymous calls that must not tell whether an account exists: a known and an unknown email,
// alternated, in process (inject), so the figures hold the API's own work and none of the network's.
import { startBenchApi } from './bench-api.js';

const rounds = Number(process.env.BENCH_ROUNDS || 60);
const known = 'bench@portal.local';
const unknown = 'nadie@portal.local';
const password = 'clave-del-benchmark';

// Time moves an hour per request so that cooldowns, hourly limits and locks never answer instead of the real work.
let now = Date.now();
const { app, dispose } = await startBenchApi({ ADMIN_EMAIL: known, ADMIN_PASSWORD: password }, { clock: () => now });

const calls: Array<[string, (email: string) => Record<string, string>]> = [
  ['POST /auth/login (wrong password)', (email) => ({ email, password: 'no-es-la-clave' })],
  ['POST /auth/forgot-password', (email) => ({ email })],
  ['POST /auth/resend-verification', (email) => ({ email })],
];

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) * p)]!;

const rows: string[] = [];
try {
  for (const [name, body] of calls) {
    const url = name.split(' ')[1]!;
    const times: Record<string, number[]> = { [known]: [], [unknown]: [] };
    let identical = true;
    for (let round = 0; round < rounds; round++) {
      const answers: string[] = [];
      for (const email of [known, unknown]) {
        now += 60 * 60_000;
        const started = performance.now();
        const response = await app.inject({ method: 'POST', url, payload: body(email) });
        times[email]!.push(performance.now() - started);
        answers.push(`${response.statusCode} ${response.headers['retry-after']} ${response.body}`);
        // Mail for the known account is written and sent after the answer; let it finish outside the timing.
        await app.mailer.deliverDue();
      }
      identical &&= answers[0] === answers[1];
    }
    const [a, b] = [times[known]!, times[unknown]!];
    rows.push(
      `| ${name} | ${percentile(a, 0.5).toFixed(2)} / ${percentile(b, 0.5).toFixed(2)} | ${percentile(a, 0.9).toFixed(2)} / ${percentile(b, 0.9).toFixed(2)} | ${identical ? 'yes' : 'NO'} |`,
    );
  }
} finally {
  await dispose();
}

console.log(`Known vs unknown email, ${rounds} requests each, alternated, in process\n`);
console.log('| call | median ms (known / unknown) | p90 ms (known / unknown) | identical answers |');
console.log('|---|---:|---:|---|');
for (const row of rows) console.log(row);
