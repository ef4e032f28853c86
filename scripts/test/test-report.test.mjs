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
import { countsToRecord, printReport, readRecords } from '../lib/test-report.mjs';

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

it('a file that runs fewer tests than recorded, or none at all, fails the run and is named', () => {
  const timings = path.join(dir, 'short');
  const file = path.join(dir, 'short.test.mjs');
  writeFileSync(
    file,
    `import { describe, it } from 'node:test';
     describe('pglite', () => { it('one', () => {}); it('two', () => {}); });
     it('alone', () => {});`,
  );
  assert.equal(runWithReporter(file, timings).status, 0);
  const shown = path.relative(ROOT, file);
  const recorded = {
    muestra: { pglite: { [shown]: 3 }, 'una vez': { [shown]: 1, 'scripts/test/desaparecida.test.mjs': 4 } },
  };
  /** @type {string[]} */
  const printed = [];
  assert.equal(
    printReport(timings, (line) => printed.push(line), { strict: false, recorded }),
    false,
  );
  const text = printed.join('\n');
  assert.match(text, /^muestra · pglite\s+2 {2}−1 de 3/m);
  assert.match(text, new RegExp(`^ {4}${shown}\\s+2 {2}−1 de 3$`, 'm'));
  assert.match(text, /^muestra · una vez\s+1 {2}−4 de 5/m);
  assert.match(text, /^ {4}scripts\/test\/desaparecida\.test\.mjs\s+0 {2}−4 de 4$/m);
  assert.match(
    text,
    /Menos pruebas que las registradas en muestra · pglite \(1 archivo\); muestra · una vez \(1 archivo\)/,
  );
});

it('more tests than recorded, or a file not recorded, fail the run only under CI; the record is what ran', () => {
  const timings = path.join(dir, 'extra');
  const file = path.join(dir, 'extra.test.mjs');
  writeFileSync(file, `import { it } from 'node:test'; it('one', () => {}); it('two', () => {});`);
  assert.equal(runWithReporter(file, timings).status, 0);
  const shown = path.relative(ROOT, file);
  const recorded = { muestra: { 'una vez': { [shown]: 1 } }, otro: { todas: { 'x.test.ts': 9 } } };
  /** @type {string[]} */
  const printed = [];
  assert.equal(
    printReport(timings, (line) => printed.push(line), { strict: false, recorded }),
    true,
  );
  assert.match(printed.join('\n'), new RegExp(`^ {4}${shown}\\s+2 {2}\\+1 de 1$`, 'm'));
  assert.match(
    printed.join('\n'),
    /Pruebas sin registrar en muestra · una vez \(1 archivo\): .*--registrar las registra\.$/m,
  );
  assert.equal(
    printReport(timings, () => {}, { strict: true, recorded }),
    false,
    'under CI',
  );
  assert.equal(
    printReport(timings, () => {}, { strict: true, recorded: {} }),
    false,
    'a file never recorded',
  );

  // What the run ran replaces its step's record; a step that did not run keeps its own.
  const next = countsToRecord(timings, recorded);
  assert.deepEqual(next, { muestra: { 'una vez': { [shown]: 2 } }, otro: { todas: { 'x.test.ts': 9 } } });
  assert.equal(
    printReport(timings, () => {}, { strict: true, recorded: next }),
    true,
  );
});

it('a run with a failed test is not recorded: a file that did not load would count one test', () => {
  const timings = path.join(dir, 'red');
  const file = path.join(dir, 'red.test.mjs');
  writeFileSync(file, `import { it } from 'node:test'; it('fails', () => { throw new Error('no'); });`);
  runWithReporter(file, timings);
  assert.throws(
    () => countsToRecord(timings, {}),
    /^Error: Hay pruebas fallidas; se registra lo que corre en una ejecución sin fallos:\n.*fails$/,
  );
});
