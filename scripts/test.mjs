// npm test: every test the project has, in order: types, unit and component tests (jest), API tests (node:test,
// on PGlite and, with DATABASE_URL, also on PostgreSQL), then the browser suite (Playwright in Debian's Chromium
// against the started product). Every step runs even if an earlier one failed; the exit code says if any did.
import { run } from './lib/run.mjs';

const ci = process.env.CI ? ['--ci'] : [];
const steps = [
  ['tipos', 'node', ['scripts/typecheck.mjs']],
  ['unitarias y de componentes', 'node', ['node_modules/jest/bin/jest.js', ...ci]],
  ['API', 'npm', ['test', '-w', '@portal/api']],
  ['navegador (Playwright)', 'npm', ['test', '-w', '@portal/e2e']],
];

const only = process.argv.slice(2);
const results = [];
for (const [label, command, args] of steps) {
  if (only.length && !only.some((word) => label.includes(word))) continue;
  console.log(`\n=== Pruebas: ${label} ===`);
  const started = Date.now();
  const code = await run(command, args);
  results.push({ label, ok: code === 0, seconds: (Date.now() - started) / 1000 });
}

console.log('\n=== Resumen ===');
for (const { label, ok, seconds } of results) console.log(`${ok ? 'ok   ' : 'FALLA'} ${label} (${seconds.toFixed(0)} s)`);
process.exit(results.every((result) => result.ok) ? 0 : 1);
