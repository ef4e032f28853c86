import { execFile, execFileSync } from 'node:child_process';
import { chownSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './processes.js';

const run = promisify(execFile);

/** The newest PostgreSQL server installed by Debian's packages (/usr/lib/postgresql/<major>/bin). */
function binDir(): string {
  const majors = readdirSync('/usr/lib/postgresql')
    .filter((name) => /^\d+$/.test(name))
    .sort((a, b) => Number(b) - Number(a));
  if (!majors[0]) throw new Error('PostgreSQL server binaries not found under /usr/lib/postgresql');
  return join('/usr/lib/postgresql', majors[0], 'bin');
}

export interface PostgresCluster {
  /** `postgres://postgres@127.0.0.1:<port>/postgres`, trust authentication. */
  readonly url: string;
  /** Stops the server at once ("fast": open sessions are cut, as in a crash or a failover). */
  stop(): Promise<void>;
  start(): Promise<void>;
  /**
   * Freezes the server as a hung machine would (SIGSTOP): the postmaster first, so that it starts nothing new, then
   * every process it started (the backends holding connections, the background workers). Connections stay open and
   * new ones are accepted by the kernel, but nothing answers. Answers the frozen pids.
   */
  freeze(): Promise<number[]>;
  /** SIGCONT to the frozen processes, children first, the postmaster last. */
  thaw(): Promise<void>;
  /** Stops it if running and deletes its files. */
  drop(): Promise<void>;
}

/**
 * A throw-away PostgreSQL server of its own (never the shared one on 5432), so a test can stop and start it.
 * As root, initdb refuses to run: the cluster belongs to the `postgres` user, in a temporary directory (under
 * `parentDir` when given: a disk of the test's own).
 */
export async function createPostgresCluster({
  parentDir = tmpdir(),
}: {
  parentDir?: string;
} = {}): Promise<PostgresCluster> {
  const bin = binDir();
  const dir = mkdtempSync(join(parentDir, 'portal-faults-pg-'));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const id = async (flag: string) => Number((await run('id', [flag, 'postgres'])).stdout.trim());
    chownSync(dir, await id('-u'), await id('-g'));
  }
  const pgCommand = (tool: string, args: string[]) =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', join(bin, tool), ...args]) : run(join(bin, tool), args);
  const data = join(dir, 'data');
  const port = await freePort();
  // No fsync: the data is thrown away, and syncing is most of a cluster's creation time. Prepared transactions let a
  // test hold a lock that outlives every session, and a restart.
  const serverOptions = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_prepared_transactions=2`;
  let started = false;
  // A test process that dies without its after hooks must not leave a server running.
  const onExit = () => {
    for (const pid of frozen) {
      try {
        process.kill(pid, 'SIGCONT');
      } catch {}
    }
    if (started) {
      const args = ['-D', data, '-m', 'immediate', '-w', 'stop'];
      try {
        if (asRoot)
          execFileSync('runuser', ['-u', 'postgres', '--', join(bin, 'pg_ctl'), ...args], { stdio: 'ignore' });
        else execFileSync(join(bin, 'pg_ctl'), args, { stdio: 'ignore' });
      } catch {}
    }
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', onExit);

  let frozen: number[] = [];
  const postmasterPid = () => Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
  const cluster: PostgresCluster = {
    async freeze() {
      const postmaster = postmasterPid();
      process.kill(postmaster, 'SIGSTOP');
      frozen = [postmaster];
      // A stopped postmaster forks nothing: its children listed now are all of them.
      const children = (await run('pgrep', ['-P', String(postmaster)]).catch(() => ({ stdout: '' }))).stdout
        .split('\n')
        .filter(Boolean)
        .map(Number);
      for (const pid of children) {
        process.kill(pid, 'SIGSTOP');
        frozen.push(pid);
      }
      return frozen;
    },
    async thaw() {
      for (const pid of [...frozen].reverse()) {
        try {
          process.kill(pid, 'SIGCONT');
        } catch {}
      }
      frozen = [];
    },
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async start() {
      await pgCommand('pg_ctl', ['-D', data, '-l', join(dir, 'log'), '-o', serverOptions, '-w', 'start']);
      started = true;
    },
    async stop() {
      await pgCommand('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
      started = false;
    },
    async drop() {
      await cluster.thaw();
      if (started) await pgCommand('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']).catch(() => {});
      started = false;
      rmSync(dir, { recursive: true, force: true });
      process.off('exit', onExit);
    },
  };
  try {
    await pgCommand('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '--encoding=UTF8']);
    await cluster.start();
  } catch (error) {
    await cluster.drop();
    throw error;
  }
  return cluster;
}
