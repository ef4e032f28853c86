// Runs the build's jobs side by side (scripts/lib/build.mjs): at most `concurrency` at once, each started as soon as a
// place is free and the job it needs (`after`) has succeeded, in the order given. After a failure nothing new starts,
// the running jobs end, and every failure is reported with its message in full.

/** @typedef {{ name: string, after?: string, run: () => Promise<void> }} Job */

/**
 * @param {Job[]} jobs @param {{ concurrency: number }} options
 * @returns {Promise<void>} resolves once every job succeeded; rejects with the failures' messages, one after another
 */
export function runJobs(jobs, { concurrency }) {
  const names = new Set(jobs.map((job) => job.name));
  const waiting = [...jobs];
  /** @type {Set<string>} */
  const succeeded = new Set();
  /** @type {Error[]} */
  const failures = [];
  let running = 0;
  // A job needing one that is not in this build (already up to date) needs nothing.
  const ready = (/** @type {Job} */ job) => !job.after || !names.has(job.after) || succeeded.has(job.after);

  return new Promise((resolve, reject) => {
    const next = () => {
      while (failures.length === 0 && running < concurrency) {
        const job = waiting.find(ready);
        if (!job) break;
        waiting.splice(waiting.indexOf(job), 1);
        running += 1;
        job.run().then(
          () => {
            succeeded.add(job.name);
            finished();
          },
          (/** @type {unknown} */ error) => {
            failures.push(error instanceof Error ? error : new Error(String(error)));
            finished();
          },
        );
      }
      if (running > 0) return;
      if (failures.length > 0) reject(new Error(failures.map((failure) => failure.message).join('\n\n')));
      else if (waiting.length > 0) reject(new Error(`Trabajos sin poder empezar: ${waiting.map((job) => job.name)}`));
      else resolve();
    };
    const finished = () => {
      running -= 1;
      next();
    };
    next();
  });
}
