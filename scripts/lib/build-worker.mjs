// A process that runs jobs of the build one after another, as scripts/lib/build.mjs hands them over (several of these
// run side by side): a part, the host or a remote, built with webpack (and the compressed copies of a production
// build), or the prerender of the sign-in pages and the shell's frames into the host's build. Each job is answered
// with `{ ok: true }` or `{ ok: false, errors }` (the errors in full); the lines for the person come as `{ log }`.
// A warm process builds a part with about 2 s less processor time than a new one. It ends when its parent lets go.
import { createRequire } from 'node:module';
import path from 'node:path';
import { buildTargets, markBuilt } from './build.mjs';
import { precompress } from './precompress.mjs';
import { prerenderPages } from './prerender.mjs';

const require = createRequire(import.meta.url);

/** @typedef {{ job: string, mode: 'production' | 'development' }} BuildJob */
/** @typedef {{ ok: true } | { ok: false, errors: string } | { log: string }} BuildMessage */

/** @param {BuildMessage} message */
const send = (message) => process.send?.(message);

/** @param {import('./types.js').BuildTarget} target @param {'production' | 'development'} mode @returns {Promise<void>} */
function compile(target, mode) {
  const webpack = require('webpack');
  const configOrFactory = require(path.join(target.absDir, 'webpack.config.js'));
  const config = typeof configOrFactory === 'function' ? configOrFactory({}, { mode }) : configOrFactory;
  return new Promise((resolve, reject) => {
    webpack(config, (error, stats) => {
      if (error) return reject(error);
      // The compiler's errors as webpack words them, every one: the message, not this script's stack.
      if (stats?.hasErrors()) return reject(stats.toString({ all: false, errors: true, colors: false }));
      resolve();
    });
  });
}

/** @param {BuildJob} request */
async function run({ job, mode }) {
  if (job === 'prerender') {
    await prerenderPages({ log: (line) => send({ log: line }) });
    return;
  }
  const target = buildTargets().find((candidate) => candidate.name === job);
  if (!target) throw new Error(`No hay una parte llamada ${job}`);
  const started = Date.now();
  await compile(target, mode);
  if (mode !== 'production') return;
  precompress(path.join(target.absDir, 'dist'));
  markBuilt(target, started);
}

process.on('message', (/** @type {BuildJob} */ request) => {
  run(request).then(
    () => send({ ok: true }),
    (/** @type {unknown} */ error) =>
      send({ ok: false, errors: error instanceof Error ? (error.stack ?? error.message) : String(error) }),
  );
});
