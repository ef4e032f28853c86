// The API suites (`npm test -w @portal/api`): node's test runner over api/test/*.test.ts, or the files given.
// - Every file in one process (`--experimental-test-isolation=none`, the flag Node 22 to 26 all take): loading the app
//   and its libraries through tsx costs seconds, and it is paid once instead of once per file
//   (docs/decisions/0088-test-suite-speed.md). Files still run one after another; each builds its own app on its own
//   database, so none sees another's rows.
// - With TEST_BACKENDS=postgres (CI's PostgreSQL round, after the PGlite one), only the files that run per backend
//   (`forEachBackend`, `backends` of test/helpers/app.ts): the others never open the test database and ran already.
// - `--parte=<i>/<n>`: the i-th of n parts of those files, about equal in size (scripts/test.mjs runs the parts in
//   whichever of its two lanes is free).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './lib/parts.mjs';
import { run } from './lib/run.mjs';

const apiDir = path.join(ROOT, 'api');
const args = process.argv.slice(2);
const partArg = args.find((arg) => arg.startsWith('--parte='));
const given = args.filter((arg) => arg !== partArg);
const all = readdirSync(path.join(apiDir, 'test'))
  .filter((name) => name.endsWith('.test.ts'))
  .sort()
  .map((name) => `test/${name}`);

/** A file that defines its tests per backend imports the list of backends from the helpers. @param {string} file */
const perBackend = (file) => /\b(forEachBackend|backends)\b/.test(readFileSync(path.join(apiDir, file), 'utf8'));

const onlyPostgres = process.env.TEST_BACKENDS?.split(',').every((name) => name.trim() === 'postgres');
let files = (given.length ? given : all).filter((file) => !onlyPostgres || perBackend(file));

if (partArg) {
  const [part = 0, parts = 0] = partArg.slice('--parte='.length).split('/').map(Number);
  if (!Number.isInteger(part) || !Number.isInteger(parts) || part < 1 || part > parts) {
    console.error(`--parte espera <i>/<n>, con i entre 1 y n (recibió ${partArg}).`);
    process.exit(2);
  }
  // The heaviest file first into the part with the least so far. A file's size stands for its time, three times over
  // for a file that starts processes (each loads the API, or a database server, anew).
  const sized = files.map((file) => {
    const source = readFileSync(path.join(apiDir, file), 'utf8');
    const processes = /helpers\/(processes|admin-command|postgres-cluster)|node:child_process/.test(source);
    return { file, size: source.length * (processes ? 3 : 1) };
  });
  const loads = Array.from({ length: parts }, () => ({ size: 0, files: /** @type {string[]} */ ([]) }));
  for (const { file, size } of sized.sort((a, b) => b.size - a.size || a.file.localeCompare(b.file))) {
    const lightest = loads.reduce((least, load) => (load.size < least.size ? load : least));
    lightest.size += size;
    lightest.files.push(file);
  }
  files = (loads[part - 1]?.files ?? []).sort();
}

const reporters = process.env.TEST_TIMINGS_DIR
  ? ['--test-reporter=../scripts/lib/reporters/node-test.mjs', '--test-reporter-destination=stdout']
  : [];
const code = await run(
  'node',
  [
    '--import',
    'tsx',
    '--test',
    '--experimental-test-isolation=none',
    // A library's keep-alive socket or timer left by a file must not hold the process once every test has ended.
    '--test-force-exit',
    '--test-reporter=spec',
    '--test-reporter-destination=stdout',
    ...reporters,
    ...files,
  ],
  { cwd: apiDir },
);
process.exit(code);
