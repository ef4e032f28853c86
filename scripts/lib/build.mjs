// Builds the host and every present remote with webpack (production by default), skipping the fresh ones, side by side.
import { fork } from 'node:child_process';
import { existsSync, readdirSync, statSync, utimesSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
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
    // The remotes bundle the contracts' rules too, directly or through @portal/shared.
    path.join(ROOT, 'contracts/src'),
    path.join(ROOT, 'scripts/webpack'),
    path.join(ROOT, 'scripts/lib/precompress.mjs'),
    path.join(ROOT, 'scripts/lib/prerender.mjs'),
    path.join(ROOT, 'package-lock.json'),
  ].forEach(visit);
  return newest;
}

/** A build is fresh when its manifest is newer than its sources, the shared and contracts packages and the build helpers. */
/** @param {import('./types.js').BuildTarget} target */
export function isFresh(target) {
  const manifest = path.join(target.absDir, 'dist', 'mf-manifest.json');
  return existsSync(manifest) && statSync(manifest).mtimeMs > newestMtime(target.absDir);
}

/**
 * Dates a part's manifest at the moment its build started, once the build is written: webpack leaves a file whose
 * content did not change as it was (an older date), and a part built again to the same files would count as stale
 * on every start. A source saved while the build ran is newer, so the next start builds it again.
 * @param {import('./types.js').BuildTarget} target @param {number} startedMs
 */
export function markBuilt(target, startedMs) {
  const started = new Date(startedMs);
  utimesSync(path.join(target.absDir, 'dist', 'mf-manifest.json'), started, started);
}

/** The parts the prerendered pages and frames are made of (scripts/lib/prerender.mjs): the shell and remote-auth. */
const PRERENDER_PARTS = new Set(['host', 'auth']);

/** The script of the processes that run the build's jobs. */
const WORKER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'build-worker.mjs');

/**
 * Every build process still running, stopped if this process ends first (Ctrl-C, a failed start).
 * @type {Set<import('node:child_process').ChildProcess>}
 */
const running = new Set();
process.once('exit', () => {
  for (const child of running) child.kill();
});

/**
 * Up to `size` build processes (scripts/lib/build-worker.mjs), started when first needed and reused from one job to
 * the next; anything they print besides their answers (a plugin's warning) goes straight to this terminal.
 * @param {number} size @param {(line: string) => void} log
 */
function workerPool(size, log) {
  /** @type {import('node:child_process').ChildProcess[]} */
  const idle = [];
  let started = 0;
  const take = () => {
    const worker = idle.pop();
    if (worker) return worker;
    if (started === size) throw new Error('Todos los procesos de compilación están ocupados');
    started += 1;
    const child = fork(WORKER, [], { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    running.add(child);
    child.once('exit', () => {
      running.delete(child);
      started -= 1;
    });
    return child;
  };
  return {
    /**
     * Runs one job in a free process; rejects with the job's label and its errors in full.
     * @param {string} label @param {import('./build-worker.mjs').BuildJob} job @returns {Promise<void>}
     */
    run(label, job) {
      const worker = take();
      return new Promise((resolve, reject) => {
        const onMessage = (/** @type {import('./build-worker.mjs').BuildMessage} */ message) => {
          if ('log' in message) return log(message.log);
          done();
          idle.push(worker);
          if (message.ok) resolve();
          else reject(new Error(`· ${label}: falló\n${message.errors.trimEnd()}`));
        };
        const onExit = (/** @type {number | null} */ code, /** @type {string | null} */ signal) => {
          done();
          reject(new Error(`· ${label}: falló (el proceso de compilación terminó: ${signal ?? `código ${code}`})`));
        };
        const done = () => {
          worker.off('message', onMessage);
          worker.off('exit', onExit);
        };
        worker.on('message', onMessage);
        worker.once('exit', onExit);
        worker.send(job);
      });
    },
    /** Lets the processes go: each ends once it has no job. */
    close() {
      for (const worker of idle) worker.disconnect();
    },
  };
}

/** 'host, auth y apps' @param {string[]} names */
const listed = (names) => (names.length > 1 ? `${names.slice(0, -1).join(', ')} y ${names.at(-1)}` : names[0]);

/**
 * Builds the host and every present remote (and the prerendered pages, when the shell or remote-auth changed) in build
 * processes, as many side by side as the machine has cores: one line per part once it is built.
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
  const workers = workerPool(Math.max(1, concurrency), log);
  const stale = targets.filter((target) => force || mode !== 'production' || !isFresh(target));
  for (const target of targets) if (!stale.includes(target)) log(`· ${target.name}: al día`);
  /** @type {import('./jobs.mjs').Job[]} */
  const jobs = stale.map((target) => ({
    name: target.name,
    run: async () => {
      const started = Date.now();
      await workers.run(target.name, { job: target.name, mode });
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
      run: () => workers.run('páginas prerenderizadas', { job: 'prerender', mode }),
    });
  const places = Math.max(1, Math.min(concurrency, jobs.length));
  const names = stale.map((target) => target.name);
  if (names.length > 0) log(`· compilando ${listed(names)}${names.length > 1 ? `, ${places} a la vez` : ''}...`);
  try {
    await runJobs(jobs, { concurrency: places });
  } finally {
    workers.close();
  }
}
