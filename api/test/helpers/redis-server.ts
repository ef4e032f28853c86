import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, waitFor } from './processes.js';

/**
 * A Redis server of a test's own (Debian's `redis-server`), on a free loopback port and a folder of its own, so it can
 * be killed, frozen and started again without touching the machine's Redis. `appendonly` chooses whether it keeps an
 * append-only file (what docs/operations.md asks of production), as the machine's Redis does not.
 */
export interface RedisServer {
  readonly url: string;
  readonly port: number;
  /** Kills it with `signal` (SIGKILL by default) and waits until it is gone. */
  kill(signal?: NodeJS.Signals): Promise<void>;
  /** Freezes (SIGSTOP) or thaws (SIGCONT) it: the connection stays open and nothing answers. */
  freeze(): void;
  thaw(): void;
  /** Starts it again on the same port and folder (its append-only file, if any, is read back). */
  start(): Promise<void>;
  /** Stops it for good and removes its folder. */
  close(): Promise<void>;
}

const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

const answersPing = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = createConnection({ port, host: '127.0.0.1' });
    socket.setTimeout(500, () => socket.destroy());
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => {
      socket.destroy();
      resolve(data.toString().startsWith('+PONG'));
    });
    socket.once('error', () => resolve(false));
    socket.once('close', () => resolve(false));
  });

export async function startRedisServer({ appendonly = false } = {}): Promise<RedisServer> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'portal-redis-'));
  let child: ChildProcess | undefined;
  let printed = '';

  const start = async () => {
    const args = ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', ''];
    args.push('--appendonly', appendonly ? 'yes' : 'no');
    const started = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    child = started;
    running.add(started);
    started.once('exit', () => running.delete(started));
    started.stdout?.on('data', (chunk: Buffer) => {
      printed += chunk.toString();
    });
    started.stderr?.on('data', (chunk: Buffer) => {
      printed += chunk.toString();
    });
    await waitFor(
      `redis-server on port ${port}`,
      async () => {
        if (started.exitCode !== null) throw new Error(`redis-server exited:\n${printed}`);
        return answersPing(port);
      },
      10_000,
      50,
    );
  };

  const kill = async (signal: NodeJS.Signals = 'SIGKILL') => {
    const current = child;
    if (!current || current.exitCode !== null || current.signalCode !== null) return;
    const exited = new Promise((resolve) => current.once('exit', resolve));
    current.kill('SIGCONT');
    current.kill(signal);
    await exited;
  };

  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    kill,
    freeze: () => child?.kill('SIGSTOP'),
    thaw: () => child?.kill('SIGCONT'),
    start,
    async close() {
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
