// nginx as the portal's deployment runs it (deploy/nginx/portal.conf.template), on loopback ports, with its
// configuration, logs, pid and temporary files in a folder of its own; started and stopped by the test.
import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { delimiter, join } from 'node:path';
import { freePort, waitFor } from './processes.js';

const renderModule = new URL('../../../deploy/nginx/render.mjs', import.meta.url).href;

/** Debian puts nginx in /usr/sbin, which is not on every user's PATH. */
const searched = [...(process.env.PATH ?? '').split(delimiter).filter(Boolean), '/usr/sbin', '/usr/local/sbin'];

/** nginx's path, or an error that says how to install it. */
export function findNginx(dirs = searched): string {
  for (const dir of dirs) {
    const candidate = join(dir, 'nginx');
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {}
  }
  throw new Error(
    'No se encontró nginx (ni en el PATH ni en /usr/sbin): la prueba del balanceador lo necesita. ' +
      'Instálalo con `apt-get install -y nginx-light` (.ci/run lo hace si falta).',
  );
}

/** One line of the access log (the template's `portal` JSON format). */
export interface AccessLogLine {
  request_id: string;
  method: string;
  uri: string;
  status: number;
  request_time: number;
  /** Every instance tried, in order: `127.0.0.1:4001, 127.0.0.1:4002`. */
  upstream_addr: string;
  upstream_status: string;
}

export interface Nginx {
  /** The API's origin through nginx (its server_name is 127.0.0.1). */
  readonly url: string;
  readonly port: number;
  /** The configuration it runs, as rendered from the template. */
  readonly config: string;
  accessLog(): AccessLogLine[];
  /** The error log so far (nginx's own account of refused connections and disabled servers). */
  errorLog(): string;
  stop(): Promise<void>;
}

type RenderNginxConfig = (site: unknown) => string;

/**
 * nginx in front of `apiPorts` (127.0.0.1), the static parts pointed at `staticPort`, serving on a free loopback
 * port. As root its workers run as root too: the folder is root's own (mkdtemp makes it 0700).
 */
export async function startNginx(apiPorts: number[], staticPort: number): Promise<Nginx> {
  const binary = findNginx();
  const { renderNginxConfig } = (await import(renderModule)) as { renderNginxConfig: RenderNginxConfig };
  const dir = mkdtempSync(join(tmpdir(), 'portal-nginx-'));
  const port = await freePort();
  const part = (name: string) => ({ serverName: `${name}.portal.test`, servers: [`127.0.0.1:${staticPort}`] });
  const config = renderNginxConfig({
    listen: `127.0.0.1:${port}`,
    tls: null,
    user: process.getuid?.() === 0 ? userInfo().username : null,
    // One worker: the machine has two cores, shared with the API instances and the load.
    workerProcesses: 1,
    pidFile: join(dir, 'nginx.pid'),
    logDir: dir,
    tempDir: dir,
    api: { serverName: '127.0.0.1', instances: apiPorts.map((apiPort) => `127.0.0.1:${apiPort}`) },
    parts: {
      host: part('portal'),
      auth: part('auth'),
      apps: part('apps'),
      admin: part('admin'),
      calculator: part('calc'),
    },
    corsOrigins: ['http://portal.portal.test'],
  });
  const file = join(dir, 'nginx.conf');
  writeFileSync(file, config);

  let printed = '';
  const child: ChildProcess = spawn(
    binary,
    ['-p', dir, '-c', file, '-e', join(dir, 'error.log'), '-g', 'daemon off;'],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  child.stdout!.on('data', (chunk: Buffer) => {
    printed += chunk.toString();
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    printed += chunk.toString();
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // A test process that dies without its after hooks stops nginx too (SIGTERM: the master takes its worker along).
  const onExit = () => child.kill('SIGTERM');
  process.once('exit', onExit);
  const read = (name: string) => {
    try {
      return readFileSync(join(dir, name), 'utf8');
    } catch {
      return '';
    }
  };
  const nginx: Nginx = {
    url: `http://127.0.0.1:${port}`,
    port,
    config,
    accessLog: () =>
      read('access.log')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as AccessLogLine),
    errorLog: () => read('error.log'),
    async stop() {
      process.off('exit', onExit);
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
  try {
    // Any answer will do (no instance may be up yet): nginx is listening.
    await waitFor(
      'nginx to listen',
      async () => {
        if (child.exitCode !== null) throw new Error(`nginx exited with code ${child.exitCode}`);
        await fetch(`${nginx.url}/health/live`);
        return true;
      },
      10_000,
      50,
    );
  } catch (error) {
    const why = `${(error as Error).message}\n${printed}\n${read('error.log')}`;
    await nginx.stop();
    throw new Error(why);
  }
  return nginx;
}
