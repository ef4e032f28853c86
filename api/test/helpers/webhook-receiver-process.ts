// A partner app's event receiver as a process of its own, verifying every message with the Standard Webhooks
// package (`standardwebhooks`, the same a partner team uses): it answers as told (a status, or 'hang': never), counts
// what it accepted (a 2xx to a verified message), and reports over HTTP. Started by webhook-receiver.ts.
import { createServer, type ServerResponse } from 'node:http';
import { Webhook } from 'standardwebhooks';

interface Seen {
  id: string;
  status: number | 'hang' | 'gone';
  verified: boolean;
  body: unknown;
  at: number;
}

let secrets = (process.env.RECEIVER_SECRETS ?? '').split(',').filter(Boolean);
let plan: (number | 'hang')[] = [];
let fallback: number | 'hang' = 200;
let retryAfter: string | undefined;
let delayMs = 0;
const seen: Seen[] = [];
const hanging = new Set<ServerResponse>();

function verify(body: string, headers: Record<string, string>): unknown {
  for (const secret of secrets) {
    try {
      return new Webhook(secret).verify(body, headers);
    } catch {}
  }
  return undefined;
}

const server = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const body = Buffer.concat(chunks).toString();
    const json = (value: unknown) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(value));
    };
    if (request.url === '/_control') {
      const control = JSON.parse(body || '{}');
      if (control.secrets) secrets = control.secrets;
      if (control.plan) plan = control.plan;
      if (control.fallback !== undefined) fallback = control.fallback;
      retryAfter = control.retryAfter;
      if (control.delayMs !== undefined) delayMs = control.delayMs;
      return json({ ok: true });
    }
    if (request.url === '/_seen') return json(seen);
    const headers = Object.fromEntries(
      ['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((name) => [
        name,
        String(request.headers[name] ?? ''),
      ]),
    );
    const message = verify(body, headers);
    if (message === undefined) {
      seen.push({ id: headers['webhook-id'] ?? '', status: 401, verified: false, body, at: Date.now() });
      response.writeHead(401).end();
      return;
    }
    const answer = plan.length > 0 ? (plan.shift() as number | 'hang') : fallback;
    const entry: Seen = {
      id: headers['webhook-id'] ?? '',
      status: answer,
      verified: true,
      body: message,
      at: Date.now(),
    };
    seen.push(entry);
    if (answer === 'hang') {
      hanging.add(response);
      // The sender gave up on it (its timeout, its shutdown): it got no answer.
      response.on('close', () => {
        if (!response.writableEnded) entry.status = 'gone';
      });
      return;
    }
    // A slow receiver (delayMs): a sender that is gone by the time it answers got no answer at all.
    setTimeout(() => {
      if (request.socket.destroyed) {
        entry.status = 'gone';
        return;
      }
      response.writeHead(answer, retryAfter && answer !== 200 ? { 'retry-after': retryAfter } : {}).end();
    }, delayMs);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address() as { port: number };
  process.stdout.write(`listening ${address.port}\n`);
});
