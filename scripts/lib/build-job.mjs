// One job of the build in a process of its own (scripts/lib/build.mjs runs several side by side):
// `node scripts/lib/build-job.mjs <part> <mode>` builds the host or a remote with webpack (and writes the compressed
// copies of a production build); `node scripts/lib/build-job.mjs prerender` renders the sign-in pages and the shell's
// frames into the host's build. What the person needs goes to stdout (the prerender's line), errors in full to stderr;
// exit code 1 when the job failed.
import { createRequire } from 'node:module';
import path from 'node:path';
import { buildTargets } from './build.mjs';
import { precompress } from './precompress.mjs';
import { prerenderPages } from './prerender.mjs';

const require = createRequire(import.meta.url);

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

const [job, mode = 'production'] = process.argv.slice(2);
try {
  if (job === 'prerender') await prerenderPages();
  else {
    const target = buildTargets().find((candidate) => candidate.name === job);
    if (!target) throw new Error(`No hay una parte llamada ${job}`);
    if (mode !== 'production' && mode !== 'development') throw new Error(`Modo desconocido: ${mode}`);
    await compile(target, mode);
    if (mode === 'production') precompress(path.join(target.absDir, 'dist'));
  }
} catch (error) {
  console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exitCode = 1;
}
