// npm run typecheck: every package, and the scripts (checkJs on their JSDoc), against its own tsconfig (all extend the
// strict root config). A browser package has two: tsconfig.json for the code that ships (browser globals only, no
// Node types) and tsconfig.test.json for its tests (jest and Node). The checker is TypeScript 7's native compiler
// (the `typescript-native` alias), a tenth of 6.0's processor time; 6.0 stays for what uses the compiler's JavaScript
// API, which 7.0 does not offer yet: the browser builds' ts-loader and its transformer
// (docs/decisions/0089-typescript-7-checker.md). Two checks run at a time (two cores here).
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
const tsc = path.join(ROOT, 'node_modules/typescript-native/bin/tsc');
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
