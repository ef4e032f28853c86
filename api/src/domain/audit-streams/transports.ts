// How a batch of ECS documents reaches a company's SIEM. Syslog: RFC 5424 messages over TLS with RFC 5425's octet
// counting, on a connection of its own per batch that counts as delivered once the receiver, having read to our end of
// the stream, closes its side (a receiver that dies mid-batch is a failure, and the batch is sent again). HTTPS: one
// POST per batch, NDJSON or Splunk HEC, delivered on a 2xx. Both through the outbound guard unless the operator lifted
// it (docs/decisions/0139-audit-streams.md).
import { request as httpsRequest } from 'node:https';
import { request as httpRequest } from 'node:http';
import { isIP, type Socket } from 'node:net';
import { connect as tlsConnect, type ConnectionOptions } from 'node:tls';
import type { AuditStreamSettings } from '../../db/schema.js';
import {
  guardedLookup,
  isSpecialUseAddress,
  refusedHost,
  refusedSpecialUse,
  SpecialUseAddressError,
} from '../../lib/outbound/special-use.js';
import type { EcsDocument } from '../audit/ecs.js';
import { auditStreamMessages as M } from './messages.js';

export type SyslogSettings = Extract<AuditStreamSettings, { host: string }>;
export type HttpsSettings = Extract<AuditStreamSettings, { url: string }>;

/** A destination as its sender needs it: where, and its secret unsealed (an HTTPS header's value, a client key). */
export interface Target {
  settings: AuditStreamSettings;
  secret: string | null;
}

export interface SendOptions {
  privateNetwork: boolean;
  timeoutMs: number;
  signal: AbortSignal;
  /** This portal's name in a syslog header (HOSTNAME). */
  hostname: string;
}

/** What a try did: delivered, or why not in Spanish (`code`, Node's or OpenSSL's, only for the server's log). */
export type SendResult =
  | { ok: true; detail: string }
  | { ok: false; error: string; interrupted?: boolean; code?: string };

/** RFC 5424 facility 13, "log audit"; severity informational (6), or warning (4) for a failure. */
const priorityOf = (doc: EcsDocument) => 13 * 8 + (doc.event.outcome === 'failure' ? 4 : 6);

/** An RFC 5424 header field: printable US-ASCII, at most `max` characters, '-' when empty. */
const headerField = (value: string, max: number) => value.replace(/[^\x21-\x7e]/g, '').slice(0, max) || '-';

/**
 * JSON with every character past ASCII written as its `\u` escape: the same document to any JSON parser, in bytes that
 * RFC 5424 takes as MSG-ANY, which wants no BOM (a UTF-8 MSG must start with one, and receivers such as rsyslog keep
 * it in the message, where it breaks the JSON). Decision 0152.
 */
const asciiJson = (value: unknown) =>
  JSON.stringify(value).replace(/[\u0080-\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** One document as an RFC 5425 frame: `<length> <RFC 5424 message>`, the message's MSG the ECS JSON in ASCII. */
export function syslogFrame(doc: EcsDocument, hostname: string): Buffer {
  const message = Buffer.from(
    `<${priorityOf(doc)}>1 ${doc['@timestamp']} ${headerField(hostname, 255)} portal - ${headerField(doc.event.action, 32)} - ${asciiJson(doc)}`,
    'ascii',
  );
  return Buffer.concat([Buffer.from(`${message.length} `), message]);
}

/** The body of one POST: NDJSON, or Splunk HEC's events one after the other. */
export function httpsBody(docs: EcsDocument[], formato: HttpsSettings['formato']): string {
  const lines = docs.map((doc) =>
    formato === 'splunk-hec'
      ? JSON.stringify({
          time: Date.parse(doc['@timestamp']) / 1000,
          source: 'portal',
          sourcetype: '_json',
          event: doc,
        })
      : JSON.stringify(doc),
  );
  return `${lines.join('\n')}\n`;
}

/**
 * Headers that cannot carry the secret: the hop-by-hop ones (RFC 9110 §7.6.1) and those that frame, address or describe
 * the request the portal writes. Sent with a secret for a value, they would make a malformed or re-addressed request.
 */
const reservedHeaders = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
  'content-length',
  'content-type',
  'content-encoding',
  'expect',
]);

export const isReservedHeader = (name: string) => reservedHeaders.has(name.trim().toLowerCase());

/**
 * The header carrying the secret: Splunk HEC's `Authorization: Splunk <token>` when the header is Authorization and
 * the secret does not already name its scheme; otherwise the secret as it was typed.
 */
export function secretHeader(settings: HttpsSettings, secret: string | null): Record<string, string> {
  if (!settings.cabecera || !secret) return {};
  const authorization = settings.cabecera.toLowerCase() === 'authorization';
  const value =
    authorization && settings.formato === 'splunk-hec' && !/^splunk\s/i.test(secret) ? `Splunk ${secret}` : secret;
  return { [settings.cabecera]: value };
}

/** How much of a receiver's refusal is read for the panel, and how much of it is kept. */
const answerReadBytes = 16_384;
const answerShownChars = 200;

/**
 * A receiver's answer as the panel may show it: the secret (as typed, JSON-escaped or URL-encoded) never, whether the
 * receiver echoed it whole or its read was cut inside it.
 */
function answerWithoutSecret(body: Buffer, cut: boolean, secret: string | null): string {
  let text = body.toString('utf8');
  if (secret) {
    const forms = [secret, JSON.stringify(secret).slice(1, -1), encodeURIComponent(secret)];
    // A read cut short may end inside the secret: what follows the last whole form's room goes.
    if (cut) text = text.slice(0, Math.max(0, text.length - Math.max(...forms.map((form) => form.length))));
    for (const form of forms) text = text.split(form).join('[secreto]');
  }
  return text.replace(/\s+/g, ' ').trim().slice(0, answerShownChars);
}

/** What the sender knew when a connection failed, to say why in Spanish. */
interface FailureContext {
  host: string;
  timeoutMs: number;
  /** The instance shutting down. */
  signal: AbortSignal;
  /** The request's own deadline, when it has one apart from a timer. */
  deadline?: AbortSignal;
  /** Whether the company gave the authority to trust (`ca`). */
  ownCa: boolean;
}

/** The certificate checks OpenSSL names by code, and the client-certificate alerts a receiver sends. */
const certificateFailures: [RegExp, (context: FailureContext) => string][] = [
  [
    /^(UNABLE_TO_GET_ISSUER_CERT(_LOCALLY)?|UNABLE_TO_VERIFY_LEAF_SIGNATURE|SELF_SIGNED_CERT_IN_CHAIN|DEPTH_ZERO_SELF_SIGNED_CERT|CERT_UNTRUSTED|INVALID_CA)$/,
    (context) => (context.ownCa ? M.certificateNotSignedByCa : M.certificateNotTrusted),
  ],
  [/^CERT_HAS_EXPIRED$/, () => M.certificateExpired],
  [/^CERT_NOT_YET_VALID$/, () => M.certificateNotYetValid],
  [
    /^(ERR_TLS_CERT_ALTNAME_INVALID|HOSTNAME_MISMATCH|IP_ADDRESS_MISMATCH)$/,
    (context) => M.certificateWrongName(context.host),
  ],
  [/^CERT_REVOKED$/, () => M.certificateRevoked],
  [/^ERR_SSL_(WRONG_VERSION_NUMBER|PACKET_LENGTH_TOO_LONG|HTTP_REQUEST|RECORD_LAYER_FAILURE)$/, () => M.notTls],
  [/^ERR_SSL_(UNSUPPORTED_PROTOCOL|TLSV1_ALERT_PROTOCOL_VERSION|NO_PROTOCOLS_AVAILABLE)$/, () => M.tlsVersion],
  [/^ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED$/, () => M.clientCertificateRequired],
  [
    /^ERR_SSL_(SSLV3_ALERT_BAD_CERTIFICATE|TLSV1_ALERT_UNKNOWN_CA|SSLV3_ALERT_CERTIFICATE_UNKNOWN|SSLV3_ALERT_UNSUPPORTED_CERTIFICATE|SSLV3_ALERT_CERTIFICATE_EXPIRED|SSLV3_ALERT_CERTIFICATE_REVOKED|TLSV1_ALERT_ACCESS_DENIED|TLSV1_ALERT_DECRYPT_ERROR)$/,
    () => M.clientCertificateRefused,
  ],
  [
    /^ERR_SSL_(SSLV3_ALERT_HANDSHAKE_FAILURE|NO_SHARED_CIPHER|TLSV1_UNRECOGNIZED_NAME|TLSV1_ALERT_INTERNAL_ERROR)$/,
    () => M.tlsHandshake,
  ],
  [/CERT|UNABLE_TO|SIGNATURE|PATH_LENGTH|INVALID_PURPOSE/, () => M.certificateInvalid],
  [/^ERR_SSL_|^ERR_TLS_/, () => M.tls],
];

/** Why a connection failed, in Spanish: a sentence for each kind of failure, never OpenSSL's or Node's code. */
function failureOf(error: unknown, context: FailureContext): SendResult {
  if (context.signal.aborted) return { ok: false, error: M.interrupted, interrupted: true };
  if (refusedSpecialUse(error)) return { ok: false, error: M.privateAddress };
  const code = String((error as { code?: string }).code ?? (error as Error).name);
  const failed = (sentence: string): SendResult => ({ ok: false, error: sentence, code });
  if (context.deadline?.aborted || /^(ETIMEDOUT|TimeoutError|ERR_TLS_HANDSHAKE_TIMEOUT)$/.test(code))
    return failed(M.timedOut(context.timeoutMs / 1000));
  if (code === 'ECONNREFUSED') return failed(M.refused);
  if (/^(ENOTFOUND|EAI_)/.test(code)) return failed(M.notFoundHost(context.host));
  if (/^(EHOSTUNREACH|ENETUNREACH|ENETDOWN|EHOSTDOWN|EADDRNOTAVAIL)$/.test(code)) return failed(M.unreachable);
  if (/^(ECONNRESET|EPIPE|ECONNABORTED|ERR_STREAM_PREMATURE_CLOSE)$/.test(code)) return failed(M.closed);
  if (/^HPE_/.test(code)) return failed(M.notHttp);
  const certificate = certificateFailures.find(([pattern]) => pattern.test(code));
  return failed(certificate ? certificate[1](context) : M.network);
}

/** The guard's socket options for `host`: refused before connecting, each resolved address judged, the peer again. */
function guard(host: string, privateNetwork: boolean): { lookup?: typeof guardedLookup; refused?: Error } {
  if (privateNetwork) return {};
  const refused = refusedHost(host);
  return refused ? { refused } : { lookup: guardedLookup };
}

/** Cuts a connection whose peer is special-use anyway (the guard's last line). */
function checkPeer(socket: Socket, privateNetwork: boolean) {
  const address = socket.remoteAddress ?? '';
  if (!privateNetwork && isSpecialUseAddress(address))
    socket.destroy(new SpecialUseAddressError(address || 'desconocida'));
}

/** Client key and certificate, and the CA to trust (the system's roots when none). */
function tlsOptions(settings: { ca?: string | null; certificado?: string | null }, key: string | null) {
  return {
    ...(settings.ca ? { ca: settings.ca } : {}),
    ...(settings.certificado && key ? { cert: settings.certificado, key } : {}),
    minVersion: 'TLSv1.2',
  } satisfies ConnectionOptions;
}

function sendSyslog(settings: SyslogSettings, key: string | null, docs: EcsDocument[], options: SendOptions) {
  const { privateNetwork, timeoutMs, signal } = options;
  return new Promise<SendResult>((resolve) => {
    const context: FailureContext = { host: settings.host, timeoutMs, signal, ownCa: Boolean(settings.ca) };
    const guarded = guard(settings.host, privateNetwork);
    if (guarded.refused) return resolve(failureOf(guarded.refused, context));
    const socket = tlsConnect({
      host: settings.host,
      port: settings.puerto,
      ...(isIP(settings.host) ? {} : { servername: settings.host }),
      ...tlsOptions(settings, key),
      ...(guarded.lookup ? { lookup: guarded.lookup } : {}),
    });
    let settled = false;
    let peerEnded = false;
    const finish = (result: SendResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal.removeEventListener('abort', abort);
      socket.destroy();
      resolve(result);
    };
    const fail = (error: unknown) => finish(failureOf(error, context));
    const timer = setTimeout(() => fail(Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' })), timeoutMs);
    const abort = () => fail(new Error('aborted'));
    signal.addEventListener('abort', abort);
    socket.once('connect', () => checkPeer(socket, privateNetwork));
    socket.once('secureConnect', () => {
      for (const doc of docs) socket.write(syslogFrame(doc, options.hostname));
      socket.end();
    });
    // Nothing is read from a syslog receiver; its end of the stream, after ours, says it read everything we wrote.
    socket.on('data', () => {});
    socket.once('end', () => {
      peerEnded = true;
    });
    socket.once('error', fail);
    socket.once('close', () =>
      peerEnded && socket.writableFinished
        ? finish({ ok: true, detail: `${docs.length} ${docs.length === 1 ? 'mensaje' : 'mensajes'} por syslog TLS` })
        : fail(Object.assign(new Error('closed'), { code: 'ECONNRESET' })),
    );
  });
}

function sendHttps(settings: HttpsSettings, secret: string | null, docs: EcsDocument[], options: SendOptions) {
  const { privateNetwork, timeoutMs, signal } = options;
  const url = new URL(settings.url);
  // A destination saved before such headers were refused is never sent with one.
  if (settings.cabecera && isReservedHeader(settings.cabecera))
    return Promise.resolve<SendResult>({ ok: false, error: M.headerReserved(settings.cabecera) });
  return new Promise<SendResult>((resolve) => {
    // Its own deadline, told apart from the instance's shutdown: a collector that never answers 'did not in time'.
    const deadline = AbortSignal.timeout(timeoutMs);
    const context: FailureContext = { host: url.hostname, timeoutMs, signal, deadline, ownCa: Boolean(settings.ca) };
    const guarded = guard(url.hostname.replace(/^\[|\]$/g, ''), privateNetwork);
    if (guarded.refused) return resolve(failureOf(guarded.refused, context));
    const body = httpsBody(docs, settings.formato);
    const request = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, {
      method: 'POST',
      headers: {
        'content-type': settings.formato === 'ndjson' ? 'application/x-ndjson' : 'application/json',
        'content-length': Buffer.byteLength(body),
        'user-agent': 'Portal-Registro/1',
        ...secretHeader(settings, secret),
      },
      ...tlsOptions(settings, null),
      ...(guarded.lookup ? { lookup: guarded.lookup } : {}),
      signal: AbortSignal.any([deadline, signal]),
      agent: false,
    });
    request.once('socket', (socket) => socket.once('connect', () => checkPeer(socket, privateNetwork)));
    request.once('error', (error) => resolve(failureOf(error, context)));
    request.once('response', (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        // Only the start of an answer is read, for the error the panel shows.
        if (size < answerReadBytes) chunks.push(chunk);
        size += chunk.length;
      });
      response.once('error', (error) => resolve(failureOf(error, context)));
      response.once('end', () => {
        const status = response.statusCode ?? 0;
        if (status >= 200 && status < 300) return resolve({ ok: true, detail: `HTTP ${status}` });
        const read = Buffer.concat(chunks).subarray(0, answerReadBytes);
        const text = answerWithoutSecret(read, size > answerReadBytes, secret);
        resolve({
          ok: false,
          error: status >= 300 && status < 400 ? M.redirected(status) : M.notAccepted(status, text),
        });
      });
    });
    request.end(body);
  });
}

/** Sends `docs` in order to the destination; resolves (never rejects) with what the receiver did. */
export function send(target: Target, docs: EcsDocument[], options: SendOptions): Promise<SendResult> {
  return 'host' in target.settings
    ? sendSyslog(target.settings, target.secret, docs, options)
    : sendHttps(target.settings, target.secret, docs, options);
}
