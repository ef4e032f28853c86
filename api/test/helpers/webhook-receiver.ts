// The receiver process (webhook-receiver-process.ts), driven from a test: what to answer next, and what it saw. The
// API suites and the browser suite load this one driver; the browser suite's specs are CommonJS, where import.meta
// does not parse, so the process is found from where the suite runs instead.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

const scriptInApi = 'test/helpers/webhook-receiver-process.ts';

/** The API's folder: the working directory (the API suites) or its `api` folder above it (the browser suite). */
function apiDirectory(): string {
  for (let dir = process.cwd(); ; dir = path.dirname(dir)) {
    for (const candidate of [dir, path.join(dir, 'api')])
      if (existsSync(path.join(candidate, scriptInApi))) return candidate;
    if (path.dirname(dir) === dir) throw new Error(`${scriptInApi} not found above ${process.cwd()}`);
  }
}

export interface Seen {
  id: string;
  status: number | 'hang' | 'gone';
  verified: boolean;
  body: { type: string; timestamp: string; seq: number; data: Record<string, unknown> };
  at: number;
}

/** A message's order number as a partner app reads it: the signed body's `seq`, which must be the one ending its id. */
export function seqOf(one: Pick<Seen, 'id' | 'body'>): number {
  if (`_${one.body.seq}` !== one.id.slice(one.id.lastIndexOf('_')))
    throw new Error(`the body's seq ${one.body.seq} is not the one of ${one.id}`);
  return one.body.seq;
}

export interface Receiver {
  url: string;
  /** The secrets it verifies with; what to answer to the next verified messages, then `fallback` (200 unless set). */
  control(settings: {
    secrets?: string[];
    plan?: (number | 'hang')[];
    fallback?: number | 'hang';
    retryAfter?: string;
    delayMs?: number;
  }): Promise<void>;
  seen(): Promise<Seen[]>;
  /** The verified messages it answered 2xx, once per webhook-id (a partner app's idempotent handling). */
  accepted(): Promise<Seen[]>;
  /** The webhook-ids it answered 2xx more than once. */
  duplicates(): Promise<string[]>;
  stop(): void;
}

export async function startReceiver(secrets: string[] = []): Promise<Receiver> {
  const apiDir = apiDirectory();
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(apiDir, scriptInApi)], {
    cwd: apiDir,
    env: { ...process.env, RECEIVER_SECRETS: secrets.join(',') },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  process.once('exit', () => child.kill('SIGKILL'));
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening (\d+)/.exec(out);
      if (match) resolve(Number(match[1]));
    });
    child.once('exit', (code) => reject(new Error(`receiver exited (${code})`)));
  });
  const base = `http://127.0.0.1:${port}`;
  const seen = async () => (await (await fetch(`${base}/_seen`)).json()) as Seen[];
  return {
    url: `${base}/eventos`,
    async control(settings) {
      await fetch(`${base}/_control`, { method: 'POST', body: JSON.stringify(settings) });
    },
    seen,
    async accepted() {
      const byId = new Map<string, Seen>();
      for (const one of await seen())
        if (one.verified && typeof one.status === 'number' && one.status < 300 && !byId.has(one.id))
          byId.set(one.id, one);
      return [...byId.values()];
    },
    async duplicates() {
      const count = new Map<string, number>();
      for (const one of await seen())
        if (one.verified && typeof one.status === 'number' && one.status < 300)
          count.set(one.id, (count.get(one.id) ?? 0) + 1);
      return [...count].filter(([, times]) => times > 1).map(([id]) => id);
    },
    stop: () => child.kill('SIGKILL'),
  };
}
