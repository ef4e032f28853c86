// The API as `npm start` and `npm run admin` run it: the bundles in api/dist (scripts/lib/build-api.mjs), built first
// when a source is newer than them. A process started from the bundle is ready in a fraction of the time tsx takes to
// load the sources, and it is what production runs.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../../', import.meta.url));
let fresh = false;

/** The bundle of `entry` (the server or the console command), built once per test process if stale. */
export function compiledApi(entry: 'server' | 'admin'): string {
  if (!fresh) {
    const build = spawnSync(process.execPath, ['scripts/build.mjs', '--api', '--if-stale', '--quiet'], {
      cwd: root,
      encoding: 'utf8',
    });
    if (build.status !== 0) throw new Error(`La API no se pudo compilar:\n${build.stdout}${build.stderr}`);
    fresh = true;
  }
  return join(root, 'api/dist', `${entry}.js`);
}
