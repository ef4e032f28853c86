// The API suites (`npm test -w @portal/api`): node's test runner over api/test/*.test.ts, or the files given.
// - Every file in one process (`--experimental-test-isolation=none`, the flag Node 22 to 26 all take): loading the app
//   and its libraries through tsx costs seconds, and it is paid once instead of once per file
//   (docs/decisions/0088-test-suite-speed.md). Files still run one after another; each builds its own app on its own
//   database, so none sees another's rows.
// - With TEST_BACKENDS=postgres (CI's PostgreSQL round, after the PGlite one), only the files that run per backend
//   (`forEachBackend`, `backends` of test/helpers/app.ts): the others never open the test database and ran already.
// - `--parte=<i>/<n>`: the i-th of n parts of those files, about equal in weight (scripts/lib/test-parts.mjs;
//   scripts/test.mjs runs the parts in whichever of its two lanes is free).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './lib/parts.mjs';
import { run } from './lib/run.mjs';
import { splitIntoParts, testFiles } from './lib/test-parts.mjs';

const apiDir = path.join(ROOT, 'api');
const args = process.argv.slice(2);
const partArg = args.find((arg) => arg.startsWith('--parte='));
const given = args.filter((arg) => arg !== partArg);
const all = testFiles(path.join(apiDir, 'test'), '.test.ts', 'test/');

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
  // A file that starts processes (the API, a database server) weighs three times its size.
  files =
    splitIntoParts(apiDir, files, parts, /helpers\/(processes|admin-command|postgres-cluster)|node:child_process/)[
      part - 1
    ] ?? [];
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
