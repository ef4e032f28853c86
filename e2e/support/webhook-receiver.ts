// A partner app's event receiver for the browser suite: the API suites' receiver process
// (api/test/helpers/webhook-receiver-process.ts, which verifies every message with the standardwebhooks package),
// started here as a process and driven over its HTTP control. The API suites' own driver reads its path from
// `import.meta`, which the suite's CommonJS specs cannot load.
import { spawn } from 'node:child_process';
import { ROOT } from './env';

export interface SeenMessage {
  id: string;
  status: number | 'hang' | 'gone';
  verified: boolean;
  body: { type: string; timestamp: string; data: Record<string, unknown> };
}

export async function startWebhookReceiver() {
  const child = spawn(process.execPath, ['--import', 'tsx', 'api/test/helpers/webhook-receiver-process.ts'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const stop = () => child.kill('SIGKILL');
  process.once('exit', stop);
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening (\d+)/.exec(out);
      if (match) resolve(Number(match[1]));
    });
    child.once('exit', (code) => reject(new Error(`the receiver stopped (${code})`)));
  });
  const base = `http://127.0.0.1:${port}`;
  return {
    url: `${base}/eventos`,
    /** The secrets it verifies with, what it answers to the next verified messages, then `fallback`. */
    async control(settings: { secrets?: string[]; plan?: number[]; fallback?: number }) {
      await fetch(`${base}/_control`, { method: 'POST', body: JSON.stringify(settings) });
    },
    async seen(): Promise<SeenMessage[]> {
      return (await (await fetch(`${base}/_seen`)).json()) as SeenMessage[];
    },
    stop,
  };
}
