// A local SMTP server for the browser suite: the API (SMTP_URL) delivers its mails here, each is written as JSON to
// a folder under .data/, and the tests read the codes from there, as a person would from their inbox.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  subject: string;
  raw: string;
  receivedAt: number;
}

/** Decodes RFC 2047 encoded words (`=?UTF-8?Q?...?=`, `=?UTF-8?B?...?=`) of a header. */
function decodeHeader(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g, (_all, _charset: string, encoding: string, text: string) => {
      if (encoding.toUpperCase() === 'B') return Buffer.from(text, 'base64').toString('utf8');
      const bytes = text
        .replace(/_/g, ' ')
        .replace(/=([0-9A-Fa-f]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
      return Buffer.from(bytes, 'latin1').toString('utf8');
    });
}

function subjectOf(raw: string): string {
  const headers = raw.split(/\r?\n\r?\n/)[0] ?? '';
  const match = /^Subject:(.*(?:\r?\n[ \t].*)*)/im.exec(headers);
  return match?.[1] ? decodeHeader(match[1].replace(/\r?\n[ \t]/g, ' ').trim()) : '';
}

export async function startMailSink(port: number, folder: string): Promise<{ close(): Promise<void> }> {
  mkdirSync(folder, { recursive: true });
  let count = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const mail: ReceivedMail = {
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase()),
          subject: subjectOf(raw),
          raw,
          receivedAt: Date.now(),
        };
        count += 1;
        writeFileSync(path.join(folder, `${Date.now()}-${process.pid}-${count}.json`), JSON.stringify(mail, null, 2));
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return { close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** Every mail received for `to` so far, oldest first. */
export function mailsFor(folder: string, to: string): ReceivedMail[] {
  let files: string[] = [];
  try {
    files = readdirSync(folder)
      .filter((file) => file.endsWith('.json'))
      .sort();
  } catch {
    return [];
  }
  return files
    .map((file) => JSON.parse(readFileSync(path.join(folder, file), 'utf8')) as ReceivedMail)
    .filter((mail) => mail.to.includes(to.toLowerCase()));
}

/** A mail's text as a person reads it: quoted-printable undone (soft line breaks and `=XX` bytes, UTF-8). */
export function readableText(mail: ReceivedMail): string {
  const joined = mail.raw.replace(/=\r?\n/g, '');
  return Buffer.from(
    joined.replace(/=([0-9A-F]{2})/g, (_all, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    'latin1',
  ).toString('utf8');
}

/** Waits for the next mail to `to` whose subject matches, and returns its 6-digit code. */
export async function waitForCode(
  folder: string,
  to: string,
  subject: RegExp,
  after = 0,
  timeoutMs = 25_000,
): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const mail = mailsFor(folder, to)
      .filter((m) => m.receivedAt > after && subject.test(m.subject))
      .at(-1);
    const code = mail && /\b(\d{6})\b/.exec(mail.subject)?.[1];
    if (code) return code;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`no mail matching ${subject} arrived for ${to} in ${timeoutMs / 1000} s`);
}
