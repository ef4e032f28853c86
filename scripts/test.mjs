// npm test: every test the project has: style (Biome's format and lint, zero findings), types, unit and component
// tests (jest), the scripts' own tests, the compiled API on its production dependencies alone, API tests (node:test,
// on PGlite and, with DATABASE_URL, also on PostgreSQL), in that order, and beside them the browser suite (Playwright
// in Debian's Chromium against the started product). Every step runs even if an earlier one failed; the exit code
// says if any did, or if the tests that ran are not what scripts/lib/test-counts.json records (decision 0168).
// The browser step needs a Chromium: it is looked for before anything runs (scripts/lib/browser.mjs), and its path
// is handed to Playwright as CHROMIUM_PATH (e2e/playwright.config.ts).
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { findChromium } from './lib/browser.mjs';
import { ROOT } from './lib/parts.mjs';
import { run } from './lib/run.mjs';
import { splitIntoParts, testFiles } from './lib/test-parts.mjs';
import { printReport } from './lib/test-report.mjs';

const ci = process.env.CI ? ['--ci'] : [];
/**
 * The API suites count under one step; CI's PostgreSQL round (TEST_BACKENDS=postgres) under a step of its own, since
 * the tests outside a backend's `describe` in its files ran in the PGlite round too.
 */
const API_STEP = process.env.TEST_BACKENDS?.trim() === 'postgres' ? 'API (ronda PostgreSQL)' : 'API';
/** How many parts the API suites are cut into, so that either lane can take the next one. */
const API_PARTS = 6;
/**
 * The browser suite in two parts, one a lane at first, each against a product of its own (E2E_PORT_OFFSET moves its
 * ports and data folder): one Playwright worker spends much of its time waiting on the browser and the product.
 */
const BROWSER_PARTS = 2;
const BROWSER_PORT_SPACING = 200;
const e2eTests = path.join(ROOT, 'e2e/tests');
const browserParts = splitIntoParts(
  e2eTests,
  testFiles(e2eTests, '.spec.ts', ''),
  BROWSER_PARTS,
  /support\/(own-start|crowded-api|static-servers|saml-programs|apache-programs)|node:child_process/,
);
/**
 * A step: its label (chosen by its first word), the step its tests count under, the command; a browser part also its
 * environment, and waits for the product's build (one build for both parts).
 * @typedef {{ label: string, step: string, command: string, args: string[], env?: Record<string, string>, built?: boolean }} Step
 */
/** @type {Step[]} */
const steps = [
  { label: 'estilo (Biome)', command: 'node', args: ['node_modules/@biomejs/biome/bin/biome', 'check', '.'] },
  { label: 'tipos', command: 'node', args: ['scripts/typecheck.mjs'] },
  { label: 'unitarias y de componentes', command: 'node', args: ['node_modules/jest/bin/jest.js', ...ci] },
  // A glob node expands itself (Node 22+ takes patterns, not folders).
  {
    label: 'herramientas (scripts)',
    command: 'node',
    args: [
      '--test',
      '--test-concurrency=1',
      '--test-reporter=spec',
      '--test-reporter-destination=stdout',
      '--test-reporter=./scripts/lib/reporters/node-test.mjs',
      '--test-reporter-destination=stdout',
      'scripts/test/*.test.mjs',
    ],
  },
  // The compiled API on a production-only install: /health and a sign-in (scripts/check-production-api.mjs).
  { label: 'producción (API compilada)', command: 'node', args: ['scripts/check-production-api.mjs'] },
  ...Array.from({ length: API_PARTS }, (_, index) => ({
    label: `API (parte ${index + 1} de ${API_PARTS})`,
    step: API_STEP,
    command: 'npm',
    args: ['test', '-w', '@portal/api', '--', `--parte=${index + 1}/${API_PARTS}`],
  })),
  ...browserParts.map((files, index) => ({
    label: `navegador (parte ${index + 1} de ${BROWSER_PARTS})`,
    step: 'navegador (Playwright)',
    command: 'npm',
    // Playwright takes each argument as a pattern of a file's path; `tests/<name>` names one file.
    args: ['test', '-w', '@portal/e2e', '--', ...files.map((file) => `tests/${file}`)],
    env: { E2E_PORT_OFFSET: String(index * BROWSER_PORT_SPACING) },
    built: true,
  })),
].map((step) => ({ step: step.label, ...step }));

const only = process.argv.slice(2);
// A step is chosen by the start of its label: `API` is the API suites, not `producción (API compilada)`.
const chosen = steps.filter(({ label }) => !only.length || only.some((word) => label.startsWith(word)));
if (chosen.length === 0) {
  const labels = [...new Set(steps.map(({ step }) => step))];
  console.error(`Ningún paso se llama así (${only.join(', ')}). Pasos: ${labels.join('; ')}.`);
  process.exit(2);
}

if (chosen.some(({ label }) => label.startsWith('navegador'))) {
  const chromium = findChromium();
  if (chromium.error) {
    console.error(chromium.error);
    process.exit(1);
  }
  process.env.CHROMIUM_PATH = chromium.path;
}

// Each runner's reporter writes its counts and its files' seconds into a folder of this run (scripts/lib/test-report.mjs),
// inside TEST_TIMINGS_DIR when given: .ci/run gives both of its streams one, to print the whole run's report at its end.
const parent = process.env.TEST_TIMINGS_DIR || tmpdir();
mkdirSync(parent, { recursive: true });
const timings = mkdtempSync(path.join(parent, 'portal-test-timings-'));

/**
 * Runs a step. Alone, its output goes to the terminal as it comes; beside another, into a file printed whole when the
 * step ends, so that two steps' lines never interleave.
 * @param {Step} step @param {boolean} alone
 */
async function runStep({ label, step, command, args, env: own, built }, alone) {
  const started = Date.now();
  const env = { ...process.env, ...own, TEST_TIMINGS_DIR: timings, TEST_STEP: step };
  const log = alone ? undefined : path.join(timings, `${label.replace(/[^\p{L}\p{N}]+/gu, '-')}.log`);
  console.log(`\n=== Pruebas: ${label}${alone ? '' : ' (empieza; su salida al terminar)'} ===`);
  const code = built && (await build()) !== 0 ? 1 : await run(command, args, { env, ...(log ? { output: log } : {}) });
  const seconds = (Date.now() - started) / 1000;
  if (log) {
    console.log(`\n=== Pruebas: ${label} (salida, ${seconds.toFixed(0)} s) ===`);
    process.stdout.write(readFileSync(log));
  }
  return { label, ok: code === 0, seconds };
}

/**
 * The production build the browser parts start (`scripts/start.mjs` builds what is stale, and two starts side by side
 * would write the same bundles): once, for whichever part asks first.
 * @type {() => Promise<number>}
 */
const build = (() => {
  /** @type {Promise<number> | undefined} */
  let building;
  return () => {
    building ??= run('node', ['scripts/build.mjs', '--if-stale', '--quiet']);
    return building;
  };
})();

// Lanes side by side, each taking the next step when it is free: the style check first (its answer in seconds), then
// the longest first (the browser suite's parts, which wait on the browser and the product much of their time, the API
// suites' parts, then the rest), so that the lanes end about together (docs/testing.md). Three by default on this
// two-core machine kind: while the browser parts wait, a third lane keeps both cores busy. TEST_LANES sets another
// number (.ci/run gives each of its two streams two).
const LANES = Math.max(1, Math.trunc(Number(process.env.TEST_LANES)) || 3);
const longestFirst = [
  ...chosen.filter(({ label }) => label.startsWith('estilo')),
  ...chosen.filter(({ label }) => label.startsWith('navegador')),
  ...chosen.filter(({ step }) => step === API_STEP),
  ...chosen.filter(({ label, step }) => !/^(estilo|navegador)/.test(label) && step !== API_STEP),
];
const alone = longestFirst.length === 1;
/** @type {{ label: string, ok: boolean, seconds: number }[]} */
const results = [];
const lane = async () => {
  for (let step = longestFirst.shift(); step; step = longestFirst.shift()) results.push(await runStep(step, alone));
};
await Promise.all(Array.from({ length: LANES }, lane));

console.log('\n=== Resumen ===');
for (const { label, ok, seconds } of results)
  console.log(`${ok ? 'ok   ' : 'FALLA'} ${label} (${seconds.toFixed(0)} s)`);
const countsKept = printReport(timings);
process.exit(results.every((result) => result.ok) && countsKept ? 0 : 1);
