import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { compiledApi } from './compiled-api.js';

const apiDir = fileURLToPath(new URL('../../', import.meta.url));

/** A port nothing listens on (taken and released at once). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` until it answers something truthy; fails with `what` after `timeoutMs`. */
export async function waitFor<T>(
  what: string,
  check: () => Promise<T> | T,
  timeoutMs = 20_000,
  everyMs = 100,
): Promise<Exclude<T, false | null | undefined | 0 | ''>> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value) return value as Exclude<T, false | null | undefined | 0 | ''>;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await sleep(everyMs);
  }
}

export interface ApiProcess {
  readonly url: string;
  readonly child: ChildProcess;
  /** Everything it printed so far (stdout and stderr). */
  output(): string;
  stop(): Promise<void>;
}

const running = new Set<ChildProcess>();
// A test process that dies without its after hooks still takes its API processes with it.
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/**
 * The API as a real process (`node api/dist/server.js`, helpers/compiled-api.ts), as `npm start` runs it, ready once GET /health
 * answers 200. `env` adds to (or, with undefined, removes from) this process's environment. `port`: a free one unless
 * given (an instance started again where a balancer expects it); `readyWithinMs`: how long it may take to answer.
 */
export async function startApi(
  env: Record<string, string | undefined>,
  { port, readyWithinMs = 60_000 }: { port?: number; readyWithinMs?: number } = {},
): Promise<ApiProcess> {
  port ??= await freePort();
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    ...env,
    PORT: String(port),
  };
  for (const [name, value] of Object.entries(childEnv)) if (value === undefined) delete childEnv[name];
  const child = spawn(process.execPath, [compiledApi('server')], {
    cwd: apiDir,
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let printed = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    printed += chunk.toString();
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    printed += chunk.toString();
  });
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      running.delete(child);
      resolve();
    }),
  );
  const url = `http://127.0.0.1:${port}`;
  const api: ApiProcess = {
    url,
    child,
    output: () => printed,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(killer);
    },
  };
  try {
    await waitFor(
      'the API to answer GET /health',
      async () => {
        if (child.exitCode !== null) throw new Error(`the API exited with code ${child.exitCode}:\n${printed}`);
        return (await fetch(`${url}/health`)).status === 200;
      },
      readyWithinMs,
      100,
    );
  } catch (error) {
    await api.stop();
    throw new Error(`${(error as Error).message}\n${printed}`);
  }
  return api;
}

/** What a test reads of an answer: fields of the JSON error or success body. */
export interface AnswerBody {
  [field: string]: unknown;
  message?: string;
  code?: string;
  access_token?: string;
  retryAfter?: number;
  status?: string;
  redis?: string;
}

export interface Answer {
  /** 0 when the client gave up (no answer within its timeout, or the connection failed). */
  status: number;
  body: AnswerBody | null;
  retryAfter: string | null;
  /** How long the answer took, as the client saw it. */
  ms: number;
}

/**
 * One HTTP call as a client makes it, to an API process or a URL: JSON in and out, a bearer token if given. It gives up
 * after `timeoutMs`, and then the answer counts as status 0 with the error as its message.
 */
export async function call(
  target: string | { url: string },
  method: string,
  path: string,
  body?: unknown,
  token?: string,
  timeoutMs = 15_000,
): Promise<Answer> {
  const began = performance.now();
  try {
    const response = await fetch(`${typeof target === 'string' ? target : target.url}${path}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await response.text();
    return {
      status: response.status,
      body: text ? JSON.parse(text) : null,
      retryAfter: response.headers.get('retry-after'),
      ms: performance.now() - began,
    };
  } catch (error) {
    return { status: 0, body: { message: String(error) }, retryAfter: null, ms: performance.now() - began };
  }
}

/** A pino line the API printed. */
export interface LogLine {
  [field: string]: unknown;
  level: number;
  msg: string;
}

/** The API's pino lines at `minLevel` or above (info 30, warn 40, error 50), parsed; anything else it printed is skipped. */
export function logLines(api: ApiProcess, minLevel = 0): LogLine[] {
  return api
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LogLine)
    .filter((line) => line.level >= minLevel);
}
