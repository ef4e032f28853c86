// npm run build: production bundles of the host and every remote (each one deployable on its own).
import { buildAll } from './lib/build.mjs';

const force = !process.argv.includes('--if-stale');
buildAll({ force }).catch((error) => {
  console.error(error.message ?? error);
  process.exit(1);
});
