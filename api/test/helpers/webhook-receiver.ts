// The receiver process (webhook-receiver-process.ts), driven from a test: what to answer next, and what it saw.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const script = fileURLToPath(new URL('./webhook-receiver-process.ts', import.meta.url));
const apiDir = fileURLToPath(new URL('../../', import.meta.url));

export interface Seen {
  id: string;
  status: number | 'hang' | 'gone';
  verified: boolean;
  body: { type: string; timestamp: string; data: Record<string, unknown> };
  at: number;
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
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
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
