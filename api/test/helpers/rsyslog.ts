// Debian's rsyslog as a company's SIEM: RFC 5425 (syslog over TLS, GnuTLS driver) on loopback, each message's
// APP-NAME, MSGID and MSG written one per line to a file the suite reads. Started with a config of its own in a temp
// dir; stopped by a kill, started again on the same port, as a receiver that goes down for a while.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { waitFor } from './processes.js';

export const rsyslogd = '/usr/sbin/rsyslogd';

/** A CA and a server certificate for 127.0.0.1 and localhost it signed, as PEM files in `dir` (openssl CLI). */
export function testCertificates(dir: string): { ca: string; caFile: string; certFile: string; keyFile: string } {
  const run = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'ignore' });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];
  run('req', '-x509', ...ec, '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2', '-subj', '/CN=CA de prueba del SIEM');
  run('req', ...ec, '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=localhost');
  writeFileSync(join(dir, 'san.cnf'), 'subjectAltName=DNS:localhost,IP:127.0.0.1\n');
  run(
    'x509',
    '-req',
    '-in',
    'server.csr',
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-days',
    '2',
    '-extfile',
    'san.cnf',
    '-out',
    'server.pem',
  );
  return {
    ca: readFileSync(join(dir, 'ca.pem'), 'utf8'),
    caFile: join(dir, 'ca.pem'),
    certFile: join(dir, 'server.pem'),
    keyFile: join(dir, 'server.key'),
  };
}

export interface Rsyslog {
  port: number;
  /** Each message received so far: its APP-NAME, MSGID and MSG (the ECS document) as rsyslog parsed them. */
  received(): { appName: string; msgId: string; msg: string }[];
  /** How many messages it wrote, without parsing them. */
  count(): number;
  start(): Promise<void>;
  kill(): Promise<void>;
  /** SIGSTOP, as a hung receiver: connections stay open, nothing is read. */
  freeze(): void;
  /** SIGCONT: it reads what waited. */
  thaw(): void;
}

const portOpen = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

export function rsyslogIn(dir: string, port: number, certs: ReturnType<typeof testCertificates>): Rsyslog {
  const output = join(dir, 'recibido.log');
  const conf = join(dir, 'rsyslog.conf');
  writeFileSync(output, '');
  writeFileSync(
    conf,
    [
      `global(workDirectory="${dir}" maxMessageSize="256k" DefaultNetstreamDriverCAFile="${certs.caFile}"`,
      `  DefaultNetstreamDriverCertFile="${certs.certFile}" DefaultNetstreamDriverKeyFile="${certs.keyFile}")`,
      'module(load="imtcp" StreamDriver.Name="gtls" StreamDriver.Mode="1" StreamDriver.AuthMode="anon")',
      `input(type="imtcp" port="${port}" address="127.0.0.1")`,
      'template(name="campos" type="string" string="%app-name%\\t%msgid%\\t%msg%\\n")',
      `action(type="omfile" file="${output}" template="campos")`,
      '',
    ].join('\n'),
  );
  let child: ChildProcess | undefined;
  return {
    port,
    received: () =>
      readFileSync(output, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => {
          const [appName = '', msgId = '', ...rest] = line.split('\t');
          return { appName, msgId, msg: rest.join('\t') };
        }),
    count() {
      const text = readFileSync(output);
      let lines = 0;
      for (let at = text.indexOf(10); at !== -1; at = text.indexOf(10, at + 1)) lines++;
      return lines;
    },
    async start() {
      const started = spawn(rsyslogd, ['-n', '-f', conf, '-i', join(dir, 'rsyslog.pid')], { stdio: 'ignore' });
      child = started;
      process.once('exit', () => started.kill('SIGKILL'));
      await waitFor('rsyslog listening', () => portOpen(port), 15_000, 50);
    },
    freeze: () => void child?.kill('SIGSTOP'),
    thaw: () => void child?.kill('SIGCONT'),
    async kill() {
      const running = child;
      if (!running || running.exitCode !== null) return;
      const exited = new Promise((resolve) => running.once('exit', resolve));
      running.kill('SIGKILL');
      await exited;
    },
  };
}
