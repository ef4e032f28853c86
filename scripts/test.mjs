// npm test: every test the project has, in order: style (Biome's format and lint, zero findings), types, unit and
// component tests (jest), the scripts' own tests, the compiled API on its production dependencies alone, API tests
// (node:test, on PGlite and, with DATABASE_URL, also on PostgreSQL), then the browser suite (Playwright in Debian's Chromium against the started product). Every step runs even if an earlier
// one failed; the exit code says if any did.
// The browser step needs a Chromium: it is looked for before anything runs (scripts/lib/browser.mjs), and its path
// is handed to Playwright as CHROMIUM_PATH (e2e/playwright.config.ts).
import { findChromium } from './lib/browser.mjs';
import { run } from './lib/run.mjs';

const ci = process.env.CI ? ['--ci'] : [];
/** @type {[label: string, command: string, args: string[]][]} */
const steps = [
  ['estilo (Biome)', 'node', ['node_modules/@biomejs/biome/bin/biome', 'check', '.']],
  ['tipos', 'node', ['scripts/typecheck.mjs']],
  ['unitarias y de componentes', 'node', ['node_modules/jest/bin/jest.js', ...ci]],
  // A glob node expands itself (Node 22+ takes patterns, not folders).
  ['herramientas (scripts)', 'node', ['--test', '--test-concurrency=1', 'scripts/test/*.test.mjs']],
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

const results = [];
for (const [label, command, args] of chosen) {
  console.log(`\n=== Pruebas: ${label} ===`);
  const started = Date.now();
  const code = await run(command, args);
  results.push({ label, ok: code === 0, seconds: (Date.now() - started) / 1000 });
}

console.log('\n=== Resumen ===');
for (const { label, ok, seconds } of results)
  console.log(`${ok ? 'ok   ' : 'FALLA'} ${label} (${seconds.toFixed(0)} s)`);
process.exit(results.every((result) => result.ok) ? 0 : 1);
