// What `npm start` and `npm run dev` share: the API as a child process with the layout's environment, the servers of
// the shell and the remotes, and one way to stop them all (Ctrl-C, a signal, or the API stopping on its own).
import { spawn } from 'node:child_process';
import { apiEnvironment, ROOT } from './parts.mjs';

/**
 * Keeps what a child process writes until `release()`, then writes it out in the order it came and lets the rest flow
 * straight: `npm start` starts the API while the bundles build, and the API's lines (the first administrator's
 * password, a problem) come after the build's instead of between them.
 * @param {import('node:child_process').ChildProcess} child spawned with its stdout and stderr piped
 * @param {{ stdout: NodeJS.WritableStream, stderr: NodeJS.WritableStream }} to
 */
export function holdOutput(child, to = process) {
  /** @type {{ stream: NodeJS.WritableStream, chunk: Buffer }[] | undefined} */
  let held = [];
  for (const [from, stream] of /** @type {const} */ ([
    [child.stdout, to.stdout],
    [child.stderr, to.stderr],
  ])) {
    from?.on('data', (/** @type {Buffer} */ chunk) => {
      if (held) held.push({ stream, chunk });
      else stream.write(chunk);
    });
  }
  return {
    release() {
      for (const { stream, chunk } of held ?? []) stream.write(chunk);
      held = undefined;
    },
  };
}

/** @param {import('./types.js').Layout} layout */
export function portalRun(layout) {
  /** @type {{ close(): Promise<void> }[]} */
  const servers = [];
  /** @type {import('node:child_process').ChildProcess | undefined} */
  let api;
  /** @type {{ release(): void } | undefined} */
  let apiOutput;
  let stopping = false;

  async function stop(code = 0) {
    if (stopping) return;
    stopping = true;
    // Whatever the API printed while held (the first administrator's password is shown only once) is not lost.
    apiOutput?.release();
    // The API and the servers stop together; the exit waits for the API child, so it never outlives the portal.
    const child = api;
    const apiStopped =
      child && child.exitCode === null && child.signalCode === null
        ? new Promise((resolve) => {
            child.once('exit', resolve);
            child.kill('SIGTERM');
          })
        : undefined;
    await Promise.allSettled([...servers.map((server) => server.close()), apiStopped]);
    process.exit(code);
  }
  process.on('SIGINT', () => void stop(0));
  process.on('SIGTERM', () => void stop(0));
  // Whatever else ends the process (an uncaught error, a library's own exit), the API child goes with it.
  process.once('exit', () => {
    if (api && api.exitCode === null && api.signalCode === null) api.kill('SIGTERM');
  });

  return {
    servers,
    stop,
    get stopping() {
      return stopping;
    },
    /**
     * Starts the API with these node arguments (the compiled server, or the sources under watch); if it stops while
     * the portal runs, everything stops. `held`: its output waits for `releaseApiOutput()` (holdOutput).
     * @param {string[]} args @param {{ held?: boolean }} [options]
     */
    startApi(args, { held = false } = {}) {
      const child = spawn(process.execPath, args, {
        cwd: ROOT,
        stdio: held ? ['inherit', 'pipe', 'pipe'] : 'inherit',
        env: apiEnvironment(layout),
      });
      if (held) apiOutput = holdOutput(child);
      // 'close': after the last of its output has been read, so a held API's last words are shown before this line.
      child.once('close', (code) => {
        if (!stopping) {
          apiOutput?.release();
          console.error(`La API se detuvo (código ${code}). Deteniendo el portal.`);
          void stop(code || 1);
        }
      });
      api = child;
      return child;
    },
    /** Shows what the API printed while its output was held, and lets the rest through. */
    releaseApiOutput() {
      apiOutput?.release();
    },
  };
}
