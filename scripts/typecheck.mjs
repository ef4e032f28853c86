// npm run typecheck: every package against its own tsconfig (all extend the strict root config).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './lib/parts.mjs';
import { run } from './lib/run.mjs';

const packages = ['shared', 'host', 'remote-auth', 'remote-apps', 'remote-admin', 'remote-calculator', 'api', 'e2e'];
const tsc = path.join(ROOT, 'node_modules/typescript/bin/tsc');
let failed = 0;
for (const dir of packages) {
  const config = path.join(ROOT, dir, 'tsconfig.json');
  if (!existsSync(config)) continue;
  const code = await run(process.execPath, [tsc, '-p', config, '--noEmit']);
  console.log(`typecheck ${dir}: ${code === 0 ? 'ok' : 'con errores'}`);
  if (code !== 0) failed += 1;
}
process.exit(failed ? 1 : 0);
