// npm run bench: runs every api/bench/*.bench.ts in name order with tsx, then the front-end bench
// (scripts/bench/front.mjs); each prints a markdown table. `npm run bench -- front` runs only the front-end one. The
// load generator shares this machine's cores with the server, so compare the rows of one table, not across machines.
// `node scripts/bench.mjs smoke`: a short run of the API benches that need no seeded database (smoke, below).
// Their numbers are printed, never judged: what fails is a bench that no longer runs
// (docs/decisions/0122-benches-smoke-in-ci.md).
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ROOT } from './lib/parts.mjs';
import { run } from './lib/run.mjs';

const benchDir = path.join(ROOT, 'api', 'bench');
const only = process.argv[2];
const files =
  only === 'front'
    ? []
    : readdirSync(benchDir)
        .filter((file) => file.endsWith('.bench.ts'))
        .sort();
/** @param {string} file */
const benchArgs = (file) => ['--import', 'tsx', path.join(benchDir, file)];

/** The server's address with another database's name. @param {string} server @param {string} name */
const databaseUrl = (server, name) => Object.assign(new URL(server), { pathname: `/${name}` }).href;

/**
 * Every API bench that needs no seeded database (those that call seededDatabaseUrl are left out), all at once, one
 * second a measure. With BENCH_DATABASE_URL (a PostgreSQL server: CI's), each gets a database of its own there,
 * dropped after (an embedded database takes far longer to start); without it, each its embedded one.
 */
async function smoke() {
  const unseeded = files.filter(
    (file) => !readFileSync(path.join(benchDir, file), 'utf8').includes('seededDatabaseUrl('),
  );
  const server = process.env.BENCH_DATABASE_URL;
  const pg = server ? createRequire(path.join(ROOT, 'api', 'package.json'))('pg') : undefined;
  const admin = pg ? new pg.Client({ connectionString: server }) : undefined;
  await admin?.connect();
  const databases = unseeded.map((file) => `portal_bench_smoke_${process.pid}_${file.replace(/\W/g, '_')}`);
  const logs = mkdtempSync(path.join(tmpdir(), 'portal-bench-smoke-'));
  const started = Date.now();
  /** @type {number[]} */
  let codes;
  try {
    for (const name of admin ? databases : []) await admin.query(`CREATE DATABASE ${name}`);
    codes = await Promise.all(
      unseeded.map((file, i) => {
        const env = {
          ...process.env,
          BENCH_SECONDS: '1',
          BENCH_ROUNDS: '5',
          BENCH_CODES: '8',
          ...(server ? { BENCH_DATABASE_URL: databaseUrl(server, databases[i] ?? '') } : {}),
        };
        return run(process.execPath, benchArgs(file), {
          cwd: path.join(ROOT, 'api'),
          env,
          output: path.join(logs, file),
        });
      }),
    );
  } finally {
    for (const name of admin ? databases : []) await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin?.end();
  }
  unseeded.forEach((file, i) => {
    console.log(`\n=== Benchmark (prueba breve): ${file}, código ${codes[i]} ===\n`);
    console.log(readFileSync(path.join(logs, file), 'utf8'));
  });
  rmSync(logs, { recursive: true, force: true });
  const failed = unseeded.filter((_, i) => codes[i] !== 0);
  const left = files.filter((file) => !unseeded.includes(file));
  console.log(
    `Benchmarks en ${Math.round((Date.now() - started) / 1000)} s (${server ? 'PostgreSQL' : 'PGlite'}); ` +
      `con error: ${failed.join(', ') || 'ninguno'}; sin datos sembrados, omitidos: ${left.join(', ')}`,
  );
  return failed.length > 0 ? 1 : 0;
}

if (only === 'smoke') process.exit(await smoke());

let failed = false;
for (const file of files) {
  console.log(`\n=== Benchmark: ${file} ===\n`);
  const code = await run(process.execPath, benchArgs(file), { cwd: path.join(ROOT, 'api') });
  if (code !== 0) {
    console.error(`${file} terminó con código ${code}`);
    failed = true;
  }
}
console.log('\n=== Benchmark: front (scripts/bench/front.mjs) ===\n');
const frontCode = await run(process.execPath, [path.join(ROOT, 'scripts/bench/front.mjs')]);
if (frontCode !== 0) {
  console.error(`front.mjs terminó con código ${frontCode}`);
  failed = true;
}
process.exit(failed ? 1 : 0);
