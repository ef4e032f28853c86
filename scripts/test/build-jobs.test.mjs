// How `npm start` and `npm run build` run the build's jobs (scripts/lib/jobs.mjs): side by side, as many at once as
// the machine has cores, one waiting for another where it must, and a failure reported in full.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runJobs } from '../lib/jobs.mjs';

/** A job that runs until the test settles it, recording when it started. */
/** @param {string} name @param {string[]} started @param {string} [after] */
function controlledJob(name, started, after) {
  /** @type {{ resolve: () => void, reject: (error: Error) => void }} */
  const settle = { resolve: () => {}, reject: () => {} };
  return {
    settle,
    job: {
      name,
      after,
      run: () =>
        new Promise((resolve, reject) => {
          started.push(name);
          settle.resolve = () => resolve(undefined);
          settle.reject = reject;
        }),
    },
  };
}

/** Lets the scheduler react to what was settled. */
const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('the build runs its jobs side by side', () => {
  it('as many at once as allowed, the next one as soon as a place is free', async () => {
    /** @type {string[]} */
    const started = [];
    const host = controlledJob('host', started);
    const auth = controlledJob('auth', started);
    const apps = controlledJob('apps', started);
    const done = runJobs([host.job, auth.job, apps.job], { concurrency: 2 });
    await turn();
    assert.deepEqual(started, ['host', 'auth']);
    auth.settle.resolve();
    await turn();
    assert.deepEqual(started, ['host', 'auth', 'apps']);
    host.settle.resolve();
    apps.settle.resolve();
    await done;
  });

  it('a job that needs another starts once that one succeeded, ahead of the jobs still waiting', async () => {
    /** @type {string[]} */
    const started = [];
    const host = controlledJob('host', started);
    const prerender = controlledJob('prerender', started, 'host');
    const auth = controlledJob('auth', started);
    const apps = controlledJob('apps', started);
    const done = runJobs([host.job, prerender.job, auth.job, apps.job], { concurrency: 2 });
    await turn();
    assert.deepEqual(started, ['host', 'auth']);
    host.settle.resolve();
    await turn();
    assert.deepEqual(started, ['host', 'auth', 'prerender']);
    for (const job of [prerender, auth]) job.settle.resolve();
    await turn();
    apps.settle.resolve();
    await done;
    assert.deepEqual(started, ['host', 'auth', 'prerender', 'apps']);
  });

  it('a job that needs one not in this build (already up to date) runs like any other', async () => {
    /** @type {string[]} */
    const started = [];
    const prerender = controlledJob('prerender', started, 'host');
    const done = runJobs([prerender.job], { concurrency: 2 });
    await turn();
    assert.deepEqual(started, ['prerender']);
    prerender.settle.resolve();
    await done;
  });

  it('a failure starts nothing more, lets the running jobs end, and is reported in full', async () => {
    /** @type {string[]} */
    const started = [];
    const host = controlledJob('host', started);
    const prerender = controlledJob('prerender', started, 'host');
    const auth = controlledJob('auth', started);
    const apps = controlledJob('apps', started);
    const done = runJobs([host.job, prerender.job, auth.job, apps.job], { concurrency: 2 });
    const outcome = done.then(
      () => 'terminó sin error',
      (/** @type {Error} */ error) => error,
    );
    await turn();
    const errors = 'ERROR in ./src/index.ts 3:7\nModule not found: Error: Can\'t resolve "./falta"';
    host.settle.reject(new Error(`· host: falló\n${errors}`));
    await turn();
    // The prerender needs the shell and the apps remote waits: neither starts; auth, already running, may end.
    assert.deepEqual(started, ['host', 'auth']);
    auth.settle.resolve();
    const error = await outcome;
    assert.ok(error instanceof Error);
    assert.equal(error.message, `· host: falló\n${errors}`);
    assert.deepEqual(started, ['host', 'auth']);
  });

  it('every failure of the jobs that were running is reported, one after another', async () => {
    /** @type {string[]} */
    const started = [];
    const host = controlledJob('host', started);
    const auth = controlledJob('auth', started);
    const done = runJobs([host.job, auth.job], { concurrency: 2 });
    const outcome = done.catch((/** @type {Error} */ error) => error);
    await turn();
    host.settle.reject(new Error('· host: falló\nuno'));
    auth.settle.reject(new Error('· auth: falló\ndos'));
    const error = await outcome;
    assert.equal(error instanceof Error && error.message, '· host: falló\nuno\n\n· auth: falló\ndos');
  });
});
