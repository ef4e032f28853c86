import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  data: string;
}

export interface SmtpSink {
  /** Where it listens; the same port across `stop()` and `start()`. */
  readonly port: number;
  readonly url: string;
  /** Every mail received since it was created, across restarts, in order. */
  readonly received: ReceivedMail[];
  /** Stops listening (SMTP down: connections are refused); `start()` listens on the same port again. */
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

function listen(port: number, received: ReceivedMail[]): Promise<SMTPServer> {
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          data: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

/** A real SMTP server on 127.0.0.1 that keeps what it receives (port 0: a free one). */
export async function startSink(port = 0): Promise<SmtpSink> {
  const received: ReceivedMail[] = [];
  let server: SMTPServer | undefined = await listen(port, received);
  const chosen = (server.server.address() as AddressInfo).port;
  const stop = async () => {
    const running = server;
    server = undefined;
    if (running) await new Promise<void>((resolve) => running.close(() => resolve()));
  };
  return {
    port: chosen,
    url: `smtp://127.0.0.1:${chosen}`,
    received,
    stop,
    async start() {
      server ??= await listen(chosen, received);
    },
    close: stop,
  };
}

/** The raw text/plain part of a MIME message. */
export function textPart(data: string): string {
  return /Content-Type: text\/plain[\s\S]*?\r\n\r\n([\s\S]*?)\r\n--/.exec(data)?.[1] ?? '';
}

export function decodeQuotedPrintable(text: string): string {
  const bytes: number[] = [];
  const soft = text.replace(/=\r\n/g, '');
  for (let i = 0; i < soft.length; i++) {
    if (soft[i] === '=' && /^[0-9A-F]{2}$/.test(soft.slice(i + 1, i + 3))) {
      bytes.push(parseInt(soft.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(soft[i]!, 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/** The 6-digit code in a received mail's text, or undefined. */
export function codeInReceived(mail: ReceivedMail): string | undefined {
  return /\b(\d{6})\b/.exec(decodeQuotedPrintable(textPart(mail.data)))?.[1];
}
