// npm run build: the API compiled to JavaScript (api/dist) and the production bundles of the host and every remote
// (each one deployable on its own). `--if-stale` skips what is already up to date; `--api` builds the API alone.
import { buildAll } from './lib/build.mjs';
import { buildApi } from './lib/build-api.mjs';

const force = !process.argv.includes('--if-stale');
const apiOnly = process.argv.includes('--api');
const log = process.argv.includes('--quiet') ? () => {} : console.log;
try {
  await buildApi({ force, log });
  if (!apiOnly) await buildAll({ force, log });
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
