// npm run typecheck: every package, and the scripts (checkJs on their JSDoc), against its own tsconfig (all extend the
// strict root config). A browser package has two: tsconfig.json for the code that ships (browser globals only, no
// Node types) and tsconfig.test.json for its tests (jest and Node). Two checks run at a time (two cores here).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './lib/parts.mjs';
import { run } from './lib/run.mjs';

const packages = [
  'contracts',
  'shared',
  'host',
  'remote-auth',
  'remote-apps',
  'remote-admin',
  'remote-calculator',
  'api',
  'e2e',
  'scripts',
];
const tsc = path.join(ROOT, 'node_modules/typescript/bin/tsc');
const configs = packages
  .flatMap((dir) => ['tsconfig.json', 'tsconfig.test.json'].map((file) => path.join(dir, file)))
  .filter((config) => existsSync(path.join(ROOT, config)));

let failed = 0;
const queue = [...configs];
async function worker() {
  for (let config = queue.shift(); config; config = queue.shift()) {
    const code = await run(process.execPath, [tsc, '-p', path.join(ROOT, config), '--noEmit']);
    console.log(`typecheck ${config}: ${code === 0 ? 'ok' : 'con errores'}`);
    if (code !== 0) failed += 1;
  }
}
await Promise.all([worker(), worker()]);
process.exit(failed ? 1 : 0);
