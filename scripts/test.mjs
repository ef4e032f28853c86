// npm test: every test the project has: style (Biome's format and lint, zero findings), types, unit and component
// tests (jest), the scripts' own tests, the compiled API on its production dependencies alone, API tests (node:test,
// on PGlite and, with DATABASE_URL, also on PostgreSQL), in that order, and beside them the browser suite (Playwright
// in Debian's Chromium against the started product). Every step runs even if an earlier one failed; the exit code
// says if any did, or if a step ran fewer tests than scripts/lib/test-counts.json records.
// The browser step needs a Chromium: it is looked for before anything runs (scripts/lib/browser.mjs), and its path
// is handed to Playwright as CHROMIUM_PATH (e2e/playwright.config.ts).
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { findChromium } from './lib/browser.mjs';
import { run } from './lib/run.mjs';
import { printReport } from './lib/test-report.mjs';

const ci = process.env.CI ? ['--ci'] : [];
/** @type {[label: string, command: string, args: string[]][]} */
const steps = [
  ['estilo (Biome)', 'node', ['node_modules/@biomejs/biome/bin/biome', 'check', '.']],
  ['tipos', 'node', ['scripts/typecheck.mjs']],
  ['unitarias y de componentes', 'node', ['node_modules/jest/bin/jest.js', ...ci]],
  // A glob node expands itself (Node 22+ takes patterns, not folders).
  [
    'herramientas (scripts)',
    'node',
    [
      '--test',
      '--test-concurrency=1',
      '--test-reporter=spec',
      '--test-reporter-destination=stdout',
      '--test-reporter=./scripts/lib/reporters/node-test.mjs',
      '--test-reporter-destination=stdout',
      'scripts/test/*.test.mjs',
    ],
  ],
  // The compiled API on a production-only install: /health and a sign-in (scripts/check-production-api.mjs).
  ['producción (API compilada)', 'node', ['scripts/check-production-api.mjs']],
  ['API', 'npm', ['test', '-w', '@portal/api']],
  ['navegador (Playwright)', 'npm', ['test', '-w', '@portal/e2e']],
];

const only = process.argv.slice(2);
// A step is chosen by the start of its label: `API` is the API suites, not `producción (API compilada)`.
const chosen = steps.filter(([label]) => !only.length || only.some((word) => label.startsWith(word)));
if (chosen.length === 0) {
  console.error(`Ningún paso se llama así (${only.join(', ')}). Pasos: ${steps.map(([label]) => label).join('; ')}.`);
  process.exit(2);
}

if (chosen.some(([label]) => label.startsWith('navegador'))) {
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
 * Runs a step; `log` is where its output goes (the terminal when absent).
 * @param {[label: string, command: string, args: string[]]} step @param {string} [log]
 */
async function runStep([label, command, args], log) {
  const started = Date.now();
  const env = { ...process.env, TEST_TIMINGS_DIR: timings, TEST_STEP: label };
  const code = await run(command, args, { env, ...(log ? { output: log } : {}) });
  return { label, ok: code === 0, seconds: (Date.now() - started) / 1000 };
}

// Two lanes side by side, one a core: the browser suite (which waits on the browser and the product much of its time)
// beside every other step in order. The browser's output is held in a file and shown when its lane ends, so the two
// never interleave (docs/testing.md).
const browser = chosen.find(([label]) => label.startsWith('navegador'));
const others = chosen.filter((step) => step !== browser);
/** @type {{ label: string, ok: boolean, seconds: number }[]} */
const results = [];
const browserLog = browser && others.length > 0 ? path.join(timings, 'navegador.log') : undefined;
const browserLane = browser
  ? (async () => {
      if (browserLog)
        console.log(`\n=== Pruebas: ${browser[0]}, a la vez que los demás pasos (su salida al terminar) ===`);
      else console.log(`\n=== Pruebas: ${browser[0]} ===`);
      return runStep(browser, browserLog);
    })()
  : undefined;
for (const step of others) {
  console.log(`\n=== Pruebas: ${step[0]} ===`);
  results.push(await runStep(step));
}
if (browserLane) {
  const result = await browserLane;
  if (browserLog) {
    console.log(`\n=== Pruebas: ${browser?.[0]} (salida) ===`);
    process.stdout.write(readFileSync(browserLog));
  }
  results.push(result);
}

console.log('\n=== Resumen ===');
for (const { label, ok, seconds } of results)
  console.log(`${ok ? 'ok   ' : 'FALLA'} ${label} (${seconds.toFixed(0)} s)`);
const countsKept = printReport(timings);
process.exit(results.every((result) => result.ok) && countsKept ? 0 : 1);
