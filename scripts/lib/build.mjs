// Builds the host and every present remote with webpack (production by default), skipping the fresh ones.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { presentRemotes, ROOT } from './parts.mjs';
import { precompress } from './precompress.mjs';
import { prerenderPages } from './prerender.mjs';

const require = createRequire(import.meta.url);

/** @returns {import('./types.js').BuildTarget[]} */
export function buildTargets() {
  return [
    { name: 'host', absDir: path.join(ROOT, 'host') },
    ...presentRemotes().map((remote) => ({ name: remote.name, absDir: remote.absDir })),
  ];
}

/** @param {string} target */
function newestMtime(target) {
  let newest = 0;
  const visit = (/** @type {string} */ entry) => {
    if (!existsSync(entry)) return;
    const info = statSync(entry);
    if (info.isDirectory()) {
      for (const child of readdirSync(entry))
        if (child !== 'node_modules' && child !== 'dist') visit(path.join(entry, child));
    } else newest = Math.max(newest, info.mtimeMs);
  };
  [
    target,
    path.join(ROOT, 'shared/src'),
    path.join(ROOT, 'scripts/webpack'),
    path.join(ROOT, 'scripts/lib/precompress.mjs'),
    path.join(ROOT, 'scripts/lib/prerender.mjs'),
    path.join(ROOT, 'package-lock.json'),
  ].forEach(visit);
  return newest;
}

/** A build is fresh when its manifest is newer than its sources, the shared package and the build helpers. */
/** @param {import('./types.js').BuildTarget} target */
export function isFresh(target) {
  const manifest = path.join(target.absDir, 'dist', 'mf-manifest.json');
  return existsSync(manifest) && statSync(manifest).mtimeMs > newestMtime(target.absDir);
}

/** @param {import('./types.js').BuildTarget} target @param {'production' | 'development'} mode @returns {Promise<void>} */
function compile(target, mode) {
  const webpack = require('webpack');
  const configOrFactory = require(path.join(target.absDir, 'webpack.config.js'));
  const config = typeof configOrFactory === 'function' ? configOrFactory({}, { mode }) : configOrFactory;
  return new Promise((resolve, reject) => {
    webpack(config, (error, stats) => {
      if (error) return reject(error);
      if (stats?.hasErrors()) return reject(new Error(stats.toString({ all: false, errors: true, colors: false })));
      resolve();
    });
  });
}

/** The parts the prerendered pages and frames are made of (scripts/lib/prerender.mjs): the shell and remote-auth. */
const PRERENDER_PARTS = new Set(['host', 'auth']);

/** @param {{ mode?: 'production' | 'development', force?: boolean, log?: (line: string) => void }} options */
export async function buildAll({ mode = 'production', force = false, log = console.log } = {}) {
  let prerender = mode === 'production' && !existsSync(path.join(ROOT, 'host/dist/prerendered.json'));
  for (const target of buildTargets()) {
    if (!force && mode === 'production' && isFresh(target)) {
      log(`· ${target.name}: al día`);
      continue;
    }
    const started = Date.now();
    log(`· ${target.name}: compilando (${mode})...`);
    await compile(target, mode);
    if (mode === 'production') precompress(path.join(target.absDir, 'dist'));
    log(`· ${target.name}: listo en ${((Date.now() - started) / 1000).toFixed(1)} s`);
    if (PRERENDER_PARTS.has(target.name)) prerender = mode === 'production';
  }
  if (prerender && buildTargets().some((target) => target.name === 'auth')) await prerenderPages({ log });
}
