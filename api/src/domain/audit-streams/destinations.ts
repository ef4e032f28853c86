// A company's SIEM destinations, set by its owners and administrators (and platform administrators): a syslog
// receiver over TLS or an HTTPS collector, its secret (an HTTPS header's value, a client key) written once and never
// shown again, kept sealed. Each change is in the company's own activity log, and so streamed too.
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { isIP } from 'node:net';
import { and, asc, count, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { type AuditStreamSettings, auditStreams, companies } from '../../db/schema.js';
import { HttpError } from '../../lib/errors.js';
import { isLocalName, isSpecialUseAddress } from '../../lib/outbound/special-use.js';
import { seal, unseal } from '../../lib/sealed.js';
import { type AuditActor, recordAudit } from '../audit/log.js';
import { companyLogBehind, type EcsDocument, ecsVersion, positionOf } from '../audit/ecs.js';
import { validEndpoint } from '../partner-events/subscriptions.js';
import { auditStreamMessages as M } from './messages.js';
import { isReservedHeader, type Target } from './transports.js';

const maxPerCompany = 5;

export interface AuditStreamDeps {
  db: Db;
  sealingKey: Buffer;
  /** Whether a destination may be on loopback or private addresses (the partner events' rule). */
  privateNetwork: boolean;
  now: () => number;
}

/** What a request may carry, on creation (all of its kind's fields) or on a change (any of them). */
export interface AuditStreamInput {
  tipo?: 'syslog' | 'https';
  host?: string;
  puerto?: number;
  ca?: string | null;
  certificado?: string | null;
  clave?: string | null;
  url?: string;
  cabecera?: string | null;
  secreto?: string | null;
  formato?: 'ndjson' | 'splunk-hec';
  estado?: 'activo' | 'pausado';
}

type Row = typeof auditStreams.$inferSelect;

const syslogFields = ['host', 'puerto', 'ca', 'certificado', 'clave'] as const;
const httpsFields = ['url', 'cabecera', 'secreto', 'formato', 'ca'] as const;

const invalid = (message: string) => new HttpError(400, message, 'FLUJO_INVALIDO');
/** A new address with the old secret: the secret follows an address only when typed again. */
const secretRequired = (field: 'secreto' | 'clave') => new HttpError(400, M.secretRequired(field), 'SECRETO_REQUERIDO');
export const auditStreamNotFound = () => new HttpError(404, M.notFound, 'FLUJO_NO_ENCONTRADO');

/** Where the sealed secret of a destination is bound: a value copied to another row does not open. */
const boundTo = (id: string) => `audit-stream:${id}`;

/**
 * A PEM of one or more certificates, each parsed: the certificates alone, re-encoded (whatever surrounded them is
 * dropped), and the first one; or a Spanish 400.
 */
function certificates(pem: string, field: string): { pem: string; first: X509Certificate } {
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  let parsed: X509Certificate[];
  try {
    parsed = blocks.map((block) => new X509Certificate(block));
  } catch {
    throw invalid(M.pemInvalid(field));
  }
  const [first] = parsed;
  if (!first) throw invalid(M.pemInvalid(field));
  return { pem: parsed.map((certificate) => certificate.toString()).join(''), first };
}

const hostName = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*\.?$/i;

/** A syslog receiver's host: a DNS name or an IP address, off the internal network unless allowed. */
function validHost(raw: string, privateNetwork: boolean): string {
  const host = raw.trim().replace(/^\[(.*)\]$/, '$1');
  if (!isIP(host) && !hostName.test(host)) throw invalid(M.hostInvalid(raw));
  if (!privateNetwork && (isLocalName(host) || (isIP(host) !== 0 && isSpecialUseAddress(host))))
    throw invalid(M.hostPrivate(host));
  return host;
}

/** The settings and secret a destination ends up with: `input` over `current` (none on creation), all checked. */
function settled(
  kind: 'syslog' | 'https',
  input: AuditStreamInput,
  current: { settings: AuditStreamSettings; secret: string | null } | undefined,
  privateNetwork: boolean,
): { settings: AuditStreamSettings; secret: string | null } {
  const own: readonly string[] = kind === 'syslog' ? syslogFields : httpsFields;
  for (const [field, value] of Object.entries(input))
    if (value !== undefined && field !== 'tipo' && field !== 'estado' && !own.includes(field))
      throw invalid(M.fieldNotAllowed(field, kind));
  const pick = <T>(value: T | undefined, before: T) => (value === undefined ? before : value);
  if (kind === 'syslog') {
    const previous = current?.settings as Extract<AuditStreamSettings, { host: string }> | undefined;
    const host = pick(input.host, previous?.host);
    const puerto = pick(input.puerto, previous?.puerto);
    if (!host) throw invalid(M.fieldRequired('host', kind));
    if (!puerto) throw invalid(M.fieldRequired('puerto', kind));
    const givenCa = pick(input.ca, previous?.ca ?? null);
    const ca = givenCa ? certificates(givenCa, 'ca').pem : null;
    const settledHost = validHost(host, privateNetwork);
    const givenCertificate = pick(input.certificado, previous?.certificado ?? null);
    const client = givenCertificate ? certificates(givenCertificate, 'certificado') : undefined;
    const certificado = client?.pem ?? null;
    // A new certificate without a new key keeps the old key only while it still matches.
    const key = input.certificado === null ? null : pick(input.clave, current?.secret ?? null) || null;
    if (key && !client) throw invalid(M.keyWithoutCertificate);
    if (client) {
      const leaf = client.first;
      if (!key) throw invalid(M.fieldRequired('clave', kind));
      let privateKey: ReturnType<typeof createPrivateKey>;
      try {
        privateKey = createPrivateKey(key);
      } catch {
        throw invalid(M.keyInvalid);
      }
      if (!leaf.checkPrivateKey(privateKey)) throw invalid(M.keyDoesNotMatch);
    }
    const moved = previous !== undefined && (settledHost !== previous.host || puerto !== previous.puerto);
    if (key && moved && input.clave === undefined) throw secretRequired('clave');
    return { settings: { host: settledHost, puerto, ca, certificado }, secret: key };
  }
  const previous = current?.settings as Extract<AuditStreamSettings, { url: string }> | undefined;
  const rawUrl = pick(input.url, previous?.url);
  if (!rawUrl) throw invalid(M.fieldRequired('url', kind));
  let url: string;
  try {
    url = validEndpoint(rawUrl, privateNetwork);
  } catch (error) {
    throw error instanceof HttpError ? invalid(error.message) : error;
  }
  const formato = pick(input.formato, previous?.formato);
  if (!formato) throw invalid(M.fieldRequired('formato', kind));
  const cabecera = pick(input.cabecera, previous?.cabecera ?? null)?.trim() || null;
  if (cabecera && isReservedHeader(cabecera)) throw invalid(M.headerReserved(cabecera));
  const secret = cabecera ? pick(input.secreto, current?.secret ?? null) || null : null;
  if (input.secreto && !cabecera) throw invalid(M.secretWithoutHeader);
  if (cabecera && !secret) throw invalid(M.fieldRequired('secreto', kind));
  if (secret && previous !== undefined && url !== previous.url && input.secreto === undefined)
    throw secretRequired('secreto');
  const givenCa = pick(input.ca, previous?.ca ?? null);
  const ca = givenCa ? certificates(givenCa, 'ca').pem : null;
  return { settings: { url, cabecera, formato, ca }, secret };
}

/** A destination as its sender needs it: the settings and the secret unsealed. */
export function targetOf(sealingKey: Buffer, row: Pick<Row, 'id' | 'settings' | 'secretSealed'>): Target {
  return {
    settings: row.settings,
    secret: row.secretSealed ? unseal(sealingKey, boundTo(row.id), row.secretSealed) : null,
  };
}

/** What an audit entry says of a destination: where it sends, never its secret. */
function described(row: Pick<Row, 'id' | 'kind' | 'settings'>) {
  const { settings } = row;
  return {
    flujo: row.id,
    tipo: row.kind,
    ...('host' in settings ? { destino: `${settings.host}:${settings.puerto}` } : { destino: settings.url }),
  };
}

async function companyRow(db: Db, companyId: number, id: string): Promise<Row> {
  const [row] = await db
    .select()
    .from(auditStreams)
    .where(and(eq(auditStreams.id, id), eq(auditStreams.companyId, companyId)));
  if (!row) throw auditStreamNotFound();
  return row;
}

export async function createAuditStream(
  deps: AuditStreamDeps,
  actor: AuditActor,
  companyId: number,
  input: AuditStreamInput & { tipo: 'syslog' | 'https' },
): Promise<AuditStreamView> {
  const { settings, secret } = settled(input.tipo, input, undefined, deps.privateNetwork);
  const id = crypto.randomUUID();
  await deps.db.transaction(async (tx) => {
    // The company's row lock makes the count and the insert one step for concurrent creations.
    await tx.execute(sql`SELECT 1 FROM companies WHERE id = ${companyId} FOR NO KEY UPDATE`);
    const [existing] = await tx
      .select({ value: count() })
      .from(auditStreams)
      .where(eq(auditStreams.companyId, companyId));
    if (Number(existing?.value ?? 0) >= maxPerCompany)
      throw new HttpError(409, M.tooMany(maxPerCompany), 'DEMASIADOS_FLUJOS');
    const [row] = await tx
      .insert(auditStreams)
      .values({
        id,
        companyId,
        kind: input.tipo,
        settings,
        secretSealed: secret ? seal(deps.sealingKey, boundTo(id), secret) : null,
        createdBy: actor.user.id,
      })
      .returning();
    if (!row) throw new Error('destination not created');
    await recordAudit(tx, actor, [
      {
        action: 'company.audit_stream_create',
        target: { type: 'company', id: companyId },
        details: described(row),
        companyId,
      },
    ]);
  });
  return viewOf(deps, await companyRow(deps.db, companyId, id));
}

export async function updateAuditStream(
  deps: AuditStreamDeps,
  actor: AuditActor,
  companyId: number,
  id: string,
  input: AuditStreamInput,
): Promise<AuditStreamView> {
  await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(auditStreams)
      .where(and(eq(auditStreams.id, id), eq(auditStreams.companyId, companyId)))
      .for('no key update');
    if (!row) throw auditStreamNotFound();
    const { estado, ...changes } = input;
    const changed = Object.values(changes).some((value) => value !== undefined);
    const next = changed ? settled(row.kind, changes, targetOf(deps.sealingKey, row), deps.privateNetwork) : undefined;
    const resumed = estado === 'activo' && row.status === 'pausado';
    await tx
      .update(auditStreams)
      .set({
        ...(next && {
          settings: next.settings,
          secretSealed: next.secret ? seal(deps.sealingKey, boundTo(id), next.secret) : null,
        }),
        ...(estado && { status: estado }),
        // Resumed, or pointed elsewhere: tried again now, from where it got to.
        ...((resumed || next) && { attempts: 0, failingSince: null, nextAttemptAt: new Date(deps.now()) }),
        updatedAt: new Date(deps.now()),
      })
      .where(eq(auditStreams.id, id));
    await recordAudit(tx, actor, [
      {
        action: 'company.audit_stream_update',
        target: { type: 'company', id: companyId },
        details: {
          ...described(next ? { ...row, settings: next.settings } : row),
          ...(estado && estado !== row.status && { estado }),
          ...(changed && {
            cambios: Object.keys(changes).filter((key) => changes[key as keyof typeof changes] !== undefined),
          }),
        },
        companyId,
      },
    ]);
  });
  return viewOf(deps, await companyRow(deps.db, companyId, id));
}

export async function deleteAuditStream(deps: AuditStreamDeps, actor: AuditActor, companyId: number, id: string) {
  await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .delete(auditStreams)
      .where(and(eq(auditStreams.id, id), eq(auditStreams.companyId, companyId)))
      .returning();
    if (!row) throw auditStreamNotFound();
    await recordAudit(tx, actor, [
      {
        action: 'company.audit_stream_delete',
        target: { type: 'company', id: companyId },
        details: described(row),
        companyId,
      },
    ]);
  });
}

/** A destination as its company reads it: where it sends (never the secret), how far it got, how late, its last error. */
export interface AuditStreamView {
  id: string;
  tipo: 'syslog' | 'https';
  host?: string;
  puerto?: number;
  ca: string | null;
  certificado?: string | null;
  tieneClave?: boolean;
  url?: string;
  cabecera?: string | null;
  tieneSecreto?: boolean;
  formato?: 'ndjson' | 'splunk-hec';
  estado: 'activo' | 'pausado';
  entregadoHasta: string | null;
  entregadoEn: string | null;
  retraso: { entradas: number; segundos: number };
  ultimoError: string | null;
  proximoIntento: string | null;
  creadoEn: string;
}

/** How many committed entries of the company wait after `cursor`, and since when the oldest of them waits. */
async function lagOf(db: Db, companyId: number, cursor: string | null, now: number) {
  const { entries, oldest } = await companyLogBehind(db, companyId, cursor ? positionOf(cursor) : undefined);
  return {
    entradas: entries,
    segundos: oldest === null ? 0 : Math.max(0, Math.round((now - oldest.getTime()) / 1000)),
  };
}

async function viewOf(deps: AuditStreamDeps, row: Row): Promise<AuditStreamView> {
  const { settings } = row;
  return {
    id: row.id,
    tipo: row.kind,
    ...('host' in settings
      ? {
          host: settings.host,
          puerto: settings.puerto,
          ca: settings.ca,
          certificado: settings.certificado,
          tieneClave: row.secretSealed !== null,
        }
      : {
          url: settings.url,
          cabecera: settings.cabecera,
          tieneSecreto: row.secretSealed !== null,
          formato: settings.formato,
          ca: settings.ca,
        }),
    estado: row.status,
    entregadoHasta: row.deliveredUntil?.toISOString() ?? null,
    entregadoEn: row.deliveredAt?.toISOString() ?? null,
    retraso: await lagOf(deps.db, row.companyId, row.cursor, deps.now()),
    ultimoError: row.lastError,
    proximoIntento: row.status === 'activo' && row.lastError ? row.nextAttemptAt.toISOString() : null,
    creadoEn: row.createdAt.toISOString(),
  };
}

export async function listAuditStreams(deps: AuditStreamDeps, companyId: number): Promise<AuditStreamView[]> {
  const rows = await deps.db
    .select()
    .from(auditStreams)
    .where(eq(auditStreams.companyId, companyId))
    .orderBy(asc(auditStreams.createdAt), asc(auditStreams.id));
  return Promise.all(rows.map((row) => viewOf(deps, row)));
}

export async function getAuditStream(deps: AuditStreamDeps, companyId: number, id: string) {
  return viewOf(deps, await companyRow(deps.db, companyId, id));
}

/** The destination and its company's name, for a test event. */
export async function streamForTest(deps: AuditStreamDeps, companyId: number, id: string) {
  const row = await companyRow(deps.db, companyId, id);
  const [company] = await deps.db.select({ name: companies.name }).from(companies).where(eq(companies.id, companyId));
  return { target: targetOf(deps.sealingKey, row), companyName: company?.name ?? '' };
}

/**
 * The event 'Enviar prueba' sends: shaped as every entry, with `event.action` `portal.prueba` and an id of its own
 * (never an entry's), so a SIEM's rule can tell it apart. It is not written to the log.
 */
export function testDocument(
  user: { id: number; email: string },
  companyId: number,
  companyName: string,
  at: Date,
): EcsDocument {
  return {
    '@timestamp': at.toISOString(),
    ecs: { version: ecsVersion },
    event: {
      id: `prueba-${crypto.randomUUID()}`,
      action: 'portal.prueba',
      category: ['configuration'],
      type: ['info'],
      outcome: 'success',
      kind: 'event',
      dataset: 'portal.audit',
    },
    user: { id: String(user.id), email: user.email },
    organization: { id: String(companyId), name: companyName },
    portal: { origen: 'administrador', objetivo: { tipo: 'company', id: companyId }, detalles: { prueba: true } },
  };
}
