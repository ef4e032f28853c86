// npm run build: the API compiled to JavaScript (api/dist) and the production bundles of the host and every remote
// (each one deployable on its own), side by side. `--if-stale` skips what is already up to date; `--api` builds the API
// alone.
import { buildAll } from './lib/build.mjs';
import { buildApi } from './lib/build-api.mjs';

const force = !process.argv.includes('--if-stale');
const apiOnly = process.argv.includes('--api');
const log = process.argv.includes('--quiet') ? () => {} : console.log;
// The API (esbuild, a second or so) and the bundles side by side; every failure is reported.
const results = await Promise.allSettled([buildApi({ force, log }), apiOnly ? undefined : buildAll({ force, log })]);
for (const result of results) {
  if (result.status === 'rejected') {
    console.error(result.reason instanceof Error ? result.reason.message : result.reason);
    process.exitCode = 1;
  }
}
