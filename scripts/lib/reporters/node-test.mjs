// A node:test reporter that prints nothing: it writes, for the run's summary (scripts/lib/test-report.mjs), each test
// file's seconds and how many of its tests passed, failed and were skipped, per database backend.
// - A test belongs to a backend when one of its suites is named after it (`pglite`, `postgres`, as
//   api/test/helpers/app.ts `forEachBackend` names them, or ends with `(pglite)`, `(postgres)`); the others run once,
//   without a database or on one of their own (`una vez`).
// - A file's seconds: its process from start to end when each file has one; when files share a process
//   (`--test-isolation=none`), the seconds of its top-level suites, and the loading of every file apart.
import { relative } from 'node:path';
import { ROOT } from '../parts.mjs';
import { recordStep } from '../test-report.mjs';

/** @param {string[]} suites @returns {string} */
function groupOf(suites) {
  for (const name of suites.toReversed()) {
    const backend = /^(pglite|postgres)$|\((pglite|postgres)\)$/.exec(name);
    if (backend) return backend[1] ?? backend[2] ?? '';
  }
  return 'una vez';
}

/** @returns {import('../test-report.mjs').Counts} */
const counts = () => ({ passed: 0, failed: 0, skipped: 0 });

/** @param {string} file */
const isHelper = (file) => file.includes('/helpers/');

/** @param {AsyncIterable<{ type: string, data: any }>} source */
export default async function* timings(source) {
  const started = Date.now();
  let firstTest = 0;
  /** A file's own process, start to end. @type {Map<string, number>} */
  const processSeconds = new Map();
  /** A file's top-level suites, added up. @type {Map<string, number>} */
  const suiteSeconds = new Map();
  /** Per group, per test file. @type {Record<string, Record<string, import('../test-report.mjs').Counts>>} */
  const byGroup = {};
  /** @param {string} group @param {string} file */
  const countsOf = (group, file) => {
    byGroup[group] ??= {};
    byGroup[group][file] ??= counts();
    return byGroup[group][file];
  };
  /** The files with a failed test. @type {Set<string>} */
  const failedIn = new Set();
  /** Each failed test, `file › suite › test`. @type {string[]} */
  const failures = [];
  /**
   * The names of the suites the next result is inside, by nesting level. The runner reports each file's starts and
   * results in order, one file after another, even when files run side by side.
   * @type {string[]}
   */
  const stack = [];
  /** The test file the running top-level suite belongs to (`forEachBackend` declares it in a helper). */
  let topFile = '';
  // One record, written again as each top-level test ends: with --test-force-exit the process may end before the
  // runner's last events reach this loop.
  const name = `${process.pid}`;
  const record = () => {
    /** @type {import('../test-report.mjs').FileTiming[]} */
    const files = [...new Set([...processSeconds.keys(), ...suiteSeconds.keys()])].map((file) => ({
      file,
      seconds: processSeconds.get(file) ?? suiteSeconds.get(file) ?? 0,
    }));
    // Files that share one process are all loaded before the first test runs.
    if (processSeconds.size === 0 && firstTest)
      files.push({ file: '(carga de los archivos de un proceso compartido)', seconds: (firstTest - started) / 1000 });
    recordStep(process.env.TEST_STEP ?? 'node:test', { files, counts: byGroup, failures }, name);
  };
  /** @param {string} type @param {any} data */
  const take = (type, data) => {
    if (!data?.file) return;
    const file = relative(ROOT, data.file);
    const ownTest = data.nesting === 0 && data.file.endsWith(data.name);
    if (type === 'test:start') {
      firstTest ||= Date.now();
      stack.length = data.nesting;
      stack.push(data.name);
      if (data.nesting === 0) topFile = '';
      if (!topFile && !isHelper(file)) topFile = file;
      return;
    }
    if (type === 'test:complete' && ownTest) processSeconds.set(file, data.details.duration_ms / 1000);
    if (type !== 'test:pass' && type !== 'test:fail') return;
    if (ownTest) {
      // The file itself failed with no test failing inside it (it did not load, a hook threw): one failure of its own.
      if (type === 'test:fail' && !failedIn.has(file)) {
        countsOf('una vez', file).failed += 1;
        failures.push(`${file} (el archivo)`);
      }
      return;
    }
    if (data.nesting === 0) {
      const owner = topFile || file;
      suiteSeconds.set(owner, (suiteSeconds.get(owner) ?? 0) + data.details.duration_ms / 1000);
    }
    if (data.details?.type === 'suite') return;
    const group = countsOf(groupOf(stack.slice(0, data.nesting)), topFile || file);
    if (data.skip || data.todo) group.skipped += 1;
    else if (type === 'test:pass') group.passed += 1;
    else {
      group.failed += 1;
      failedIn.add(topFile || file);
      failures.push([topFile || file, ...stack.slice(0, data.nesting), data.name].join(' › '));
    }
  };
  for await (const { type, data } of source) {
    take(type, data);
    if (data?.nesting === 0 && type !== 'test:start') record();
  }
  record();
}
