// Builds the host and every present remote with webpack (production by default), skipping the fresh ones, side by side.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { runJobs } from './jobs.mjs';
import { presentRemotes, ROOT } from './parts.mjs';

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

/** The parts the prerendered pages and frames are made of (scripts/lib/prerender.mjs): the shell and remote-auth. */
const PRERENDER_PARTS = new Set(['host', 'auth']);

/** The script that runs one job of the build. */
const JOB = path.join(path.dirname(fileURLToPath(import.meta.url)), 'build-job.mjs');

/**
 * Every child process of a build still running, stopped if this process ends first (Ctrl-C, a failed start).
 * @type {Set<import('node:child_process').ChildProcess>}
 */
const running = new Set();
process.once('exit', () => {
  for (const child of running) child.kill();
});

/**
 * Runs one job (scripts/lib/build-job.mjs) in a process of its own: its lines for the person go to `log`, and a
 * failure rejects with the name of the job and its errors in full.
 * @param {string} label @param {string[]} args @param {(line: string) => void} log @returns {Promise<void>}
 */
function runJob(label, args, log) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [JOB, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    running.add(child);
    let errors = '';
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    createInterface({ input: child.stdout }).on('line', (line) => log(line));
    child.stderr.on('data', (/** @type {string} */ chunk) => {
      errors += chunk;
    });
    child.once('error', reject);
    child.once('close', (code, signal) => {
      running.delete(child);
      if (code === 0) {
        // A warning a plugin printed on its way (nothing, usually) is the person's to read too.
        if (errors) process.stderr.write(errors);
        resolve();
      } else reject(new Error(`· ${label}: falló${signal ? ` (${signal})` : ''}\n${errors.trimEnd()}`));
    });
  });
}

/** 'host, auth y apps' @param {string[]} names */
const listed = (names) => (names.length > 1 ? `${names.slice(0, -1).join(', ')} y ${names.at(-1)}` : names[0]);

/**
 * Builds the host and every present remote (and the prerendered pages, when the shell or remote-auth changed), each
 * in a process of its own, as many side by side as the machine has cores: one line per part once it is built.
 * @param {{ mode?: 'production' | 'development', force?: boolean, log?: (line: string) => void,
 *   concurrency?: number }} options
 */
export async function buildAll({
  mode = 'production',
  force = false,
  log = console.log,
  concurrency = availableParallelism(),
} = {}) {
  const targets = buildTargets();
  const stale = targets.filter((target) => force || mode !== 'production' || !isFresh(target));
  for (const target of targets) if (!stale.includes(target)) log(`· ${target.name}: al día`);
  /** @type {import('./jobs.mjs').Job[]} */
  const jobs = stale.map((target) => ({
    name: target.name,
    run: async () => {
      const started = Date.now();
      await runJob(target.name, [target.name, mode], log);
      log(`· ${target.name}: listo en ${((Date.now() - started) / 1000).toFixed(1)} s`);
    },
  }));
  const prerender =
    mode === 'production' &&
    targets.some((target) => target.name === 'auth') &&
    (!existsSync(path.join(ROOT, 'host/dist/prerendered.json')) ||
      stale.some((target) => PRERENDER_PARTS.has(target.name)));
  // The pages go into the shell's build, which cleans its folder: after it, ahead of the remotes still waiting.
  if (prerender)
    jobs.splice(1, 0, {
      name: 'prerender',
      after: 'host',
      run: () => runJob('páginas prerenderizadas', ['prerender'], log),
    });
  const places = Math.max(1, Math.min(concurrency, jobs.length));
  const names = stale.map((target) => target.name);
  if (names.length > 0) log(`· compilando ${listed(names)}${names.length > 1 ? `, ${places} a la vez` : ''}...`);
  await runJobs(jobs, { concurrency: places });
}
