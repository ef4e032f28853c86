// What `npm start` and `npm run dev` share: the API as a child process with the layout's environment, the servers of
// the shell and the remotes, and one way to stop them all (Ctrl-C, a signal, or the API stopping on its own).
import { spawn } from 'node:child_process';
import { apiEnvironment, ROOT } from './parts.mjs';

/** @param {import('./types.js').Layout} layout */
export function portalRun(layout) {
  /** @type {{ close(): Promise<void> }[]} */
  const servers = [];
  /** @type {import('node:child_process').ChildProcess | undefined} */
  let api;
  let stopping = false;

  async function stop(code = 0) {
    if (stopping) return;
    stopping = true;
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
     * the portal runs, everything stops.
     * @param {string[]} args
     */
    startApi(args) {
      const child = spawn(process.execPath, args, { cwd: ROOT, stdio: 'inherit', env: apiEnvironment(layout) });
      child.once('exit', (code) => {
        if (!stopping) {
          console.error(`La API se detuvo (código ${code}). Deteniendo el portal.`);
          void stop(code || 1);
        }
      });
      api = child;
      return child;
    },
  };
}
