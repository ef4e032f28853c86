// npm run bench: runs every api/bench/*.bench.ts in name order with tsx, then the front-end bench
// (scripts/bench/front.mjs); each prints a markdown table. `npm run bench -- front` runs only the front-end one. The
// load generator shares this machine's cores with the server, so compare the rows of one table, not across machines.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './lib/parts.mjs';
import { run } from './lib/run.mjs';

const benchDir = path.join(ROOT, 'api', 'bench');
const only = process.argv[2];
const files =
  only === 'front'
    ? []
    : readdirSync(benchDir)
        .filter((file) => file.endsWith('.bench.ts'))
        .sort();

let failed = false;
for (const file of files) {
  console.log(`\n=== Benchmark: ${file} ===\n`);
  const code = await run(process.execPath, ['--import', 'tsx', path.join(benchDir, file)], {
    cwd: path.join(ROOT, 'api'),
  });
  if (code !== 0) {
    console.error(`${file} terminó con código ${code}`);
    failed = true;
  }
}
console.log('\n=== Benchmark: front (scripts/bench/front.mjs) ===\n');
const frontCode = await run(process.execPath, [path.join(ROOT, 'scripts/bench/front.mjs')]);
if (frontCode !== 0) {
  console.error(`front.mjs terminó con código ${frontCode}`);
  failed = true;
}
process.exit(failed ? 1 : 0);
