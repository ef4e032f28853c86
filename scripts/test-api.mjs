// The API suites (`npm test -w @portal/api`): node's test runner over api/test/*.test.ts, or the files given.
// - Every file in one process (`--experimental-test-isolation=none`, the flag Node 22 to 26 all take): loading the app
//   and its libraries through tsx costs seconds, and it is paid once instead of once per file
//   (docs/decisions/0088-test-suite-speed.md). Files still run one after another; each builds its own app on its own
//   database, so none sees another's rows.
// - With TEST_BACKENDS=postgres (CI's PostgreSQL round, after the PGlite one), only the files that run per backend
//   (`forEachBackend`, `backends` of test/helpers/app.ts): the others never open the test database and ran already.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './lib/parts.mjs';
import { run } from './lib/run.mjs';

const apiDir = path.join(ROOT, 'api');
const given = process.argv.slice(2);
const all = readdirSync(path.join(apiDir, 'test'))
  .filter((name) => name.endsWith('.test.ts'))
  .sort()
  .map((name) => `test/${name}`);

/** A file that defines its tests per backend imports the list of backends from the helpers. @param {string} file */
const perBackend = (file) => /\b(forEachBackend|backends)\b/.test(readFileSync(path.join(apiDir, file), 'utf8'));

const onlyPostgres = process.env.TEST_BACKENDS?.split(',').every((name) => name.trim() === 'postgres');
const files = (given.length ? given : all).filter((file) => !onlyPostgres || perBackend(file));

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
