// npm test: every test the project has, in order: types, unit and component tests (jest), API tests (node:test,
// on PGlite and, with DATABASE_URL, also on PostgreSQL), then the browser suite (Playwright in Debian's Chromium
// against the started product). Every step runs even if an earlier one failed; the exit code says if any did.
// The browser step needs a Chromium: it is looked for before anything runs (scripts/lib/browser.mjs), and its path
// is handed to Playwright as CHROMIUM_PATH (e2e/playwright.config.ts).
import { findChromium } from './lib/browser.mjs';
import { run } from './lib/run.mjs';

const ci = process.env.CI ? ['--ci'] : [];
const steps = [
  ['tipos', 'node', ['scripts/typecheck.mjs']],
  ['unitarias y de componentes', 'node', ['node_modules/jest/bin/jest.js', ...ci]],
  ['herramientas (scripts)', 'node', ['--test', '--test-concurrency=1', 'scripts/test/']],
  ['API', 'npm', ['test', '-w', '@portal/api']],
  ['navegador (Playwright)', 'npm', ['test', '-w', '@portal/e2e']],
];

const only = process.argv.slice(2);
const chosen = steps.filter(([label]) => !only.length || only.some((word) => label.includes(word)));
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
