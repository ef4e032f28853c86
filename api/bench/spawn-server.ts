// Starts server.ts in a process of its own (the load generator must not share the server's event loop) and answers
// its addresses once it listens.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

export interface BenchServer {
  /** The whole API. */
  api: string;
  /** A bare Fastify route at `${bare}/bare`, in the same process, as the floor to compare against. */
  bare: string;
  /**
   * The reference route at `${reference}/user` (server.ts), in the same process; undefined for a server of an older
   * build, started with `tree`.
   */
  reference: string | undefined;
  /**
   * The processor time the server process has used so far (user and system, every thread), in seconds, from Linux's
   * /proc; undefined elsewhere. Unlike requests per second it barely moves with what else the machine runs.
   */
  processorSeconds(): number | undefined;
  stop(): Promise<void>;
}

/** Linux's clock ticks a second (`getconf CLK_TCK`), the unit of /proc/<pid>/stat's times. */
const ticksPerSecond = 100;

/** The processor time process `pid` has used so far (user and system, every thread), in seconds; undefined if unread. */
export function processorSecondsOf(pid: number | undefined): number | undefined {
  try {
    // The fields after the command's closing parenthesis; utime and stime are the 12th and 13th of them.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond;
  } catch {
    return undefined;
  }
}

/**
 * `tree`: the root of another checkout whose own `api/bench/server.ts` is started (a build compared side by side with
 * this one), else this one's.
 */
export async function startBenchServer(
  env: Record<string, string | undefined>,
  { tree }: { tree?: string } = {},
): Promise<BenchServer> {
  const api = tree === undefined ? new URL('..', import.meta.url).pathname : `${tree}/api/`;
  const server = spawn(process.execPath, ['--import', 'tsx', `${api}bench/server.ts`], {
    cwd: api,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = once(server, 'exit');
  const lines = createInterface({ input: server.stdout! });
  // The addresses come as one JSON line; anything printed before it (the seed's notices) is skipped.
  const addresses = new Promise<string | undefined>((resolve) => {
    lines.on('line', (line) => {
      if (line.startsWith('{')) resolve(line);
    });
    void exited.then(() => resolve(undefined));
  });
  const line = await addresses;
  if (!line) throw new Error('el servidor del benchmark terminó antes de escuchar');
  const started = JSON.parse(line) as { api: string; bare: string; reference?: string };
  return {
    api: started.api,
    bare: started.bare,
    reference: started.reference,
    processorSeconds: () => processorSecondsOf(server.pid),
    async stop() {
      if (server.exitCode === null && server.signalCode === null) server.kill('SIGTERM');
      await exited;
    },
  };
}
