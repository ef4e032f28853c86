// The end of a run names each failed test (scripts/lib/test-report.mjs): a long log cut to its last lines, as CI shows
// it, still says which test to look at. node:test's reporter (scripts/lib/reporters/node-test.mjs) runs for real on a
// file of its own with one failing test per kind of place a test can sit.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, it } from 'node:test';
import { ROOT } from '../lib/parts.mjs';
import { printReport, readRecords } from '../lib/test-report.mjs';

// The run under test is a run of its own, not a child reporting to this one.
const { NODE_TEST_CONTEXT: _, ...env } = process.env;
const dir = mkdtempSync(path.join(tmpdir(), 'portal-test-report-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `file` under node:test with the suite's reporter, as step `muestra`, recording into `timings`. */
function runWithReporter(/** @type {string} */ file, /** @type {string} */ timings) {
  return spawnSync(
    process.execPath,
    ['--test', '--test-reporter=./scripts/lib/reporters/node-test.mjs', '--test-reporter-destination=stdout', file],
    { cwd: ROOT, env: { ...env, TEST_TIMINGS_DIR: timings, TEST_STEP: 'muestra' }, encoding: 'utf8' },
  );
}

it('a failed test is recorded with its file and suites, and printed after everything else', () => {
  const file = path.join(dir, 'sample.test.mjs');
  writeFileSync(
    file,
    `import { describe, it } from 'node:test';
     describe('the sign-in', () => {
       describe('pglite', () => {
         it('lets a user in', () => {});
         it('refuses a wrong password', () => { throw new Error('no'); });
       });
     });
     it('stands alone and fails', () => { throw new Error('no'); });`,
  );
  const timings = path.join(dir, 'timings');
  assert.notEqual(runWithReporter(file, timings).status, 0, 'the sample run fails');

  const failures = readRecords(timings).flatMap((record) => record.failures ?? []);
  const shown = path.relative(ROOT, file);
  assert.deepEqual(failures.toSorted(), [
    `${shown} › stands alone and fails`,
    `${shown} › the sign-in › pglite › refuses a wrong password`,
  ]);

  /** @type {string[]} */
  const printed = [];
  printReport(timings, (line) => printed.push(line));
  const heading = printed.indexOf('\n=== Pruebas fallidas ===');
  assert.ok(heading > 0, printed.join('\n'));
  assert.deepEqual(printed.slice(heading + 1).toSorted(), [
    `  muestra: ${shown} › stands alone and fails`,
    `  muestra: ${shown} › the sign-in › pglite › refuses a wrong password`,
  ]);
});

it('a run without failures prints no such list', () => {
  const timings = path.join(dir, 'green');
  const file = path.join(dir, 'green.test.mjs');
  writeFileSync(file, `import { it } from 'node:test'; it('passes', () => {});`);
  const run = runWithReporter(file, timings);
  assert.equal(run.status, 0, run.stdout + run.stderr);
  /** @type {string[]} */
  const printed = [];
  printReport(timings, (line) => printed.push(line));
  assert.ok(printed.some((line) => line.startsWith('muestra · una vez')));
  assert.ok(!printed.some((line) => line.includes('Pruebas fallidas')));
});
