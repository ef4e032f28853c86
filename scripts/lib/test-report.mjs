// What a run of the suites tells at its end: how many tests each step ran (per database backend for the API), compared
// with the counts recorded in scripts/lib/test-counts.json, and the slowest test files with their seconds. Each runner's
// reporter (scripts/lib/reporters/, scripts/jest/timings-reporter.js, e2e/support/timings-reporter.ts) writes one
// record per run into TEST_TIMINGS_DIR; scripts/test.mjs and .ci/run read them all back.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './parts.mjs';

/** @typedef {{ passed: number, failed: number, skipped: number }} Counts */
/** @typedef {{ file: string, seconds: number }} FileTiming */
/**
 * `failures`: each failed test as `file › suite › test`, so that the end of a long log still names them.
 * @typedef {{ step: string, files: FileTiming[], groups: Record<string, Counts>, failures?: string[] }} StepRecord
 */

/** The counts of the last review of the suites: a step that runs fewer tests than these fails the run. */
export const COUNTS_FILE = path.join(ROOT, 'scripts/lib/test-counts.json');
/** How many of the slowest files a run prints. */
export const SLOWEST = 15;

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

/** @returns {Record<string, Record<string, number>>} step → group → tests that ran (passed or failed) */
function recordedCounts() {
  return existsSync(COUNTS_FILE) ? JSON.parse(readFileSync(COUNTS_FILE, 'utf8')) : {};
}

/**
 * The tests each step ran, per group, added over its records (a step run by several processes, or twice).
 * @param {StepRecord[]} records @returns {Map<string, Map<string, Counts>>}
 */
export function countsByStep(records) {
  /** @type {Map<string, Map<string, Counts>>} */
  const steps = new Map();
  for (const { step, groups } of records) {
    const byGroup = steps.get(step) ?? new Map();
    steps.set(step, byGroup);
    for (const [group, counts] of Object.entries(groups)) {
      const sum = byGroup.get(group) ?? { passed: 0, failed: 0, skipped: 0 };
      byGroup.set(group, {
        passed: sum.passed + counts.passed,
        failed: sum.failed + counts.failed,
        skipped: sum.skipped + counts.skipped,
      });
    }
  }
  return steps;
}

/**
 * The lines of the counts table; `short` lists the steps and groups that ran fewer tests than recorded.
 * @param {StepRecord[]} records
 */
export function countLines(records) {
  const recorded = recordedCounts();
  /** @type {string[]} */
  const lines = [];
  /** @type {string[]} */
  const short = [];
  for (const [step, groups] of countsByStep(records)) {
    for (const [group, { passed, failed, skipped }] of [...groups].sort(([a], [b]) => a.localeCompare(b))) {
      const ran = passed + failed;
      const before = recorded[step]?.[group];
      let compared = '';
      if (before !== undefined && ran > 0) {
        const difference = ran - before;
        compared =
          difference === 0 ? `= ${before}` : `${difference > 0 ? '+' : '−'}${Math.abs(difference)} de ${before}`;
        if (difference < 0) short.push(`${step} · ${group}`);
      }
      const extra = [failed ? `${failed} fallidas` : '', skipped ? `${skipped} omitidas` : '']
        .filter(Boolean)
        .join(', ');
      lines.push(
        `${`${step} · ${group}`.padEnd(46)} ${String(ran).padStart(5)}  ${compared.padEnd(12)}${extra ? ` ${extra}` : ''}`,
      );
    }
  }
  return { lines, short };
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

/**
 * Prints the counts and the slowest files of the records in `dir`; false when a step ran fewer tests than recorded.
 * @param {string} dir @param {(line: string) => void} [log]
 */
export function printReport(dir, log = console.log) {
  const records = readRecords(dir);
  if (records.length === 0) return true;
  const { lines, short } = countLines(records);
  log('\n=== Pruebas por paso (ejecutadas; comparadas con scripts/lib/test-counts.json) ===');
  for (const line of lines) log(line);
  if (short.length > 0)
    log(
      `Menos pruebas que las registradas en ${short.join('; ')}: una prueba quitada o unida dice por qué en su commit, ` +
        'que también actualiza scripts/lib/test-counts.json.',
    );
  log(`\n=== Los ${SLOWEST} archivos de pruebas más lentos ===`);
  for (const line of slowestLines(records)) log(line);
  // Last, where the end of a cut log still shows them.
  const failures = failureLines(records);
  if (failures.length > 0) {
    log('\n=== Pruebas fallidas ===');
    for (const line of failures) log(`  ${line}`);
  }
  return short.length === 0;
}

// `node scripts/lib/test-report.mjs <dir>`: the report of a run whose steps ran in several processes (.ci/run).
if (import.meta.url === `file://${process.argv[1]}`) {
  const dir = process.argv[2];
  if (!dir) {
    console.error('Uso: node scripts/lib/test-report.mjs <carpeta de TEST_TIMINGS_DIR>');
    process.exit(2);
  }
  process.exit(printReport(dir) ? 0 : 1);
}
