// What a run of the suites tells at its end: how many tests each step ran (per database backend for the API, and per
// file), compared with the counts recorded in scripts/lib/test-counts.json, and the slowest test files with their
// seconds. Each runner's
// reporter (scripts/lib/reporters/, scripts/jest/timings-reporter.js, e2e/support/timings-reporter.ts) writes one
// record per run into TEST_TIMINGS_DIR; scripts/test.mjs and .ci/run read them all back.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './parts.mjs';

/** @typedef {{ passed: number, failed: number, skipped: number }} Counts */
/** @typedef {{ file: string, seconds: number }} FileTiming */
/**
 * `counts`: per group (a database backend, `una vez`, `todas`), per test file, its tests. `failures`: each failed test
 * as `file › suite › test`, so that the end of a long log still names them.
 * @typedef {{ step: string, files: FileTiming[], counts: Record<string, Record<string, Counts>>, failures?: string[] }} StepRecord
 */
/** @typedef {Record<string, Record<string, Record<string, number>>>} RecordedCounts step → group → file → tests */

/**
 * What runs, as the last recording of a whole run wrote it (`--registrar`): per step, group and file, the tests that
 * ran. A file that runs fewer, or not at all, fails the run; one that runs more, or is not recorded, fails it under CI
 * (docs/decisions/0168-test-counts-say-what-runs.md).
 */
export const COUNTS_FILE = path.join(ROOT, 'scripts/lib/test-counts.json');
/** How many of the slowest files a run prints. */
export const SLOWEST = 15;
/** The command that records what a run's records say ran. @param {string} dir */
export const recordCommand = (dir) => `node scripts/lib/test-report.mjs ${dir} --registrar`;

/**
 * Writes a runner's record where the run collects them (TEST_TIMINGS_DIR); without it, nothing. A record written
 * again under the same `id` replaces the earlier one.
 * @param {string} step @param {Omit<StepRecord, 'step'>} record @param {string} [id]
 */
export function recordStep(step, record, id = randomBytes(4).toString('hex')) {
  const dir = process.env.TEST_TIMINGS_DIR;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${step.replace(/[^\p{L}\p{N}]+/gu, '-')}-${id}.json`);
  // Written aside and renamed: a reader never sees half a record.
  writeFileSync(`${file}.partial`, JSON.stringify({ step, ...record }));
  renameSync(`${file}.partial`, file);
}

/** The records in `dir` and the folders inside it. @param {string} dir @returns {StepRecord[]} */
export function readRecords(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return readRecords(file);
    return entry.name.endsWith('.json') ? [JSON.parse(readFileSync(file, 'utf8'))] : [];
  });
}

/** @param {string} [file] @returns {RecordedCounts} */
export function readRecordedCounts(file = COUNTS_FILE) {
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
}

/** A file's tests that ran: passed or failed, not skipped. @param {Counts} counts */
const ran = ({ passed, failed }) => passed + failed;

/**
 * The tests each step ran, per group and file, added over its records (a step run by several processes, or twice).
 * @param {StepRecord[]} records @returns {Map<string, Map<string, Map<string, Counts>>>}
 */
export function countsByStep(records) {
  /** @type {Map<string, Map<string, Map<string, Counts>>>} */
  const steps = new Map();
  for (const { step, counts } of records) {
    const byGroup = steps.get(step) ?? new Map();
    steps.set(step, byGroup);
    for (const [group, byFile] of Object.entries(counts)) {
      const files = byGroup.get(group) ?? new Map();
      byGroup.set(group, files);
      for (const [file, { passed, failed, skipped }] of Object.entries(byFile)) {
        const sum = files.get(file) ?? { passed: 0, failed: 0, skipped: 0 };
        files.set(file, { passed: sum.passed + passed, failed: sum.failed + failed, skipped: sum.skipped + skipped });
      }
    }
  }
  return steps;
}

/** `+2 de 12`, `−1 de 12`, `= 12`, or `sin registrar`. @param {number} count @param {number | undefined} before */
function compared(count, before) {
  if (before === undefined) return 'sin registrar';
  const difference = count - before;
  return difference === 0 ? `= ${before}` : `${difference > 0 ? '+' : '−'}${Math.abs(difference)} de ${before}`;
}

/**
 * The lines of the counts table, a line per step and group and one beneath it per file that differs from the record;
 * `short` has a `step · group` for each file that ran fewer tests than recorded (or none), `extra` for each that ran
 * more (or is new). Only the steps that ran are compared.
 * @param {StepRecord[]} records @param {RecordedCounts} [recorded]
 */
export function countLines(records, recorded = readRecordedCounts()) {
  /** @type {string[]} */
  const lines = [];
  /** @type {string[]} */
  const short = [];
  /** @type {string[]} */
  const extra = [];
  for (const [step, ranGroups] of countsByStep(records)) {
    const recordedGroups = recorded[step] ?? {};
    const groups = [...new Set([...ranGroups.keys(), ...Object.keys(recordedGroups)])].sort((a, b) =>
      a.localeCompare(b),
    );
    for (const group of groups) {
      const files = ranGroups.get(group) ?? new Map();
      const before = recordedGroups[group];
      /** @type {string[]} */
      const differing = [];
      let total = 0;
      let failed = 0;
      let skipped = 0;
      for (const file of [...new Set([...files.keys(), ...Object.keys(before ?? {})])].sort()) {
        const counts = files.get(file) ?? { passed: 0, failed: 0, skipped: 0 };
        const count = ran(counts);
        total += count;
        failed += counts.failed;
        skipped += counts.skipped;
        const was = before?.[file];
        if (count === was) continue;
        const where = `${step} · ${group}`;
        if (was !== undefined && count < was) short.push(where);
        else extra.push(where);
        differing.push(`    ${file.padEnd(60)} ${String(count).padStart(5)}  ${compared(count, was)}`);
      }
      const recordedTotal = before && Object.values(before).reduce((sum, count) => sum + count, 0);
      const notes = [failed ? `${failed} fallidas` : '', skipped ? `${skipped} omitidas` : '']
        .filter(Boolean)
        .join(', ');
      lines.push(
        `${`${step} · ${group}`.padEnd(46)} ${String(total).padStart(5)}  ${compared(total, recordedTotal).padEnd(14)} ${notes}`.trimEnd(),
        ...differing,
      );
    }
  }
  return { lines, short, extra };
}

/**
 * What the records in `dir` say ran, as the record keeps it: the steps that ran replace theirs, the others stay.
 * Refused (an Error in Spanish) when a test failed: a file that did not load counts one failed test, not its own.
 * @param {string} dir @param {RecordedCounts} [recorded]
 * @returns {RecordedCounts}
 */
export function countsToRecord(dir, recorded = readRecordedCounts()) {
  const records = readRecords(dir);
  if (records.length === 0) throw new Error(`No hay registros de pruebas en ${dir}.`);
  const failures = failureLines(records);
  if (failures.length > 0)
    throw new Error(
      `Hay pruebas fallidas; se registra lo que corre en una ejecución sin fallos:\n${failures.join('\n')}`,
    );
  /** @type {RecordedCounts} */
  const next = { ...recorded };
  for (const [step, groups] of countsByStep(records)) {
    next[step] = Object.fromEntries(
      [...groups]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([group, files]) => [
          group,
          Object.fromEntries(
            [...files]
              .filter(([, counts]) => ran(counts) > 0)
              .sort(([a], [b]) => a.localeCompare(b))
              .map(([file, counts]) => [file, ran(counts)]),
          ),
        ]),
    );
  }
  return next;
}

/** @param {StepRecord[]} records @param {number} [count] */
export function slowestLines(records, count = SLOWEST) {
  return records
    .flatMap(({ step, files }) => files.map((timing) => ({ step, ...timing })))
    .sort((a, b) => b.seconds - a.seconds)
    .slice(0, count)
    .map(({ step, file, seconds }) => `${seconds.toFixed(1).padStart(7)} s  ${step.padEnd(28)} ${file}`);
}

/** The failed tests of every step, at most `count` of them. @param {StepRecord[]} records @param {number} [count] */
export function failureLines(records, count = 40) {
  const all = records.flatMap(({ step, failures = [] }) => failures.map((failure) => `${step}: ${failure}`));
  const lines = all.slice(0, count);
  if (all.length > count) lines.push(`… y ${all.length - count} más`);
  return lines;
}

/** `API · pglite (2 archivos); …`: each place once, with how many of its files. @param {string[]} places */
function byPlace(places) {
  /** @type {Map<string, number>} */
  const files = new Map();
  for (const place of places) files.set(place, (files.get(place) ?? 0) + 1);
  return [...files].map(([place, count]) => `${place} (${count} ${count === 1 ? 'archivo' : 'archivos'})`).join('; ');
}

/**
 * Prints the counts and the slowest files of the records in `dir`; false when a file ran fewer tests than recorded,
 * or, under CI (`strict`), more or unrecorded ones: the record says what runs.
 * @param {string} dir @param {(line: string) => void} [log]
 * @param {{ strict?: boolean, recorded?: RecordedCounts }} [options]
 */
export function printReport(dir, log = console.log, { strict = Boolean(process.env.CI), recorded } = {}) {
  const records = readRecords(dir);
  if (records.length === 0) return true;
  const { lines, short, extra } = countLines(records, recorded);
  log('\n=== Pruebas por paso (ejecutadas; comparadas con scripts/lib/test-counts.json) ===');
  for (const line of lines) log(line);
  if (short.length > 0)
    log(
      `Menos pruebas que las registradas en ${byPlace(short)}: una prueba quitada o unida dice por qué en su commit, ` +
        `que también registra lo que corre (${recordCommand(dir)}).`,
    );
  if (extra.length > 0)
    log(
      `Pruebas sin registrar en ${byPlace(extra)}: ${recordCommand(dir)} las registra` +
        `${strict ? '; en CI la ejecución falla hasta que el registro diga lo que corre' : ''}.`,
    );
  log(`\n=== Los ${SLOWEST} archivos de pruebas más lentos ===`);
  for (const line of slowestLines(records)) log(line);
  // Last, where the end of a cut log still shows them.
  const failures = failureLines(records);
  if (failures.length > 0) {
    log('\n=== Pruebas fallidas ===');
    for (const line of failures) log(`  ${line}`);
  }
  return short.length === 0 && !(strict && extra.length > 0);
}

// `node scripts/lib/test-report.mjs <dir>`: the report of a run whose steps ran in several processes (.ci/run);
// `--registrar`: writes what that run ran into scripts/lib/test-counts.json instead.
if (import.meta.url === `file://${process.argv[1]}`) {
  const [dir, option] = process.argv.slice(2);
  if (!dir || (option !== undefined && option !== '--registrar')) {
    console.error('Uso: node scripts/lib/test-report.mjs <carpeta de TEST_TIMINGS_DIR> [--registrar]');
    process.exit(2);
  }
  if (option !== '--registrar') process.exit(printReport(dir) ? 0 : 1);
  try {
    writeFileSync(COUNTS_FILE, `${JSON.stringify(countsToRecord(dir), null, 2)}\n`);
  } catch (error) {
    console.error(/** @type {Error} */ (error).message);
    process.exit(1);
  }
  console.log(`Registrado en ${path.relative(ROOT, COUNTS_FILE)} lo que corrió en ${dir}.`);
}
