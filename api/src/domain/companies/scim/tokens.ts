// The bearer tokens of a company's directory: 'scim_' + 32 random bytes (base64url), shown once, kept as SHA-256 hex.
import { createHash, randomBytes } from 'node:crypto';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.js';
import { auditLog, companies, companyScimTokens, type CompanyStatus, users } from '../../../db/schema.js';
import { HttpError } from '../../../lib/errors.js';
import { type AuditActor, recordAudit, systemActor } from '../../audit/log.js';
import { ScimError, scimMessages as M } from './errors.js';
import type { TokenMemory } from './token-memory.js';

export const tokenPrefix = 'scim_';
const tokenShape = /^scim_[A-Za-z0-9_-]{43}$/;
export const prefixLength = 12;

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export const tokenMessages = {
  notFound: 'Ese token del directorio no existe en la empresa',
} as const;

/** A new token of the company (201 of POST /empresas/:id/scim/tokens): the only time it is shown. */
export async function createToken(db: Db, actor: AuditActor, companyId: number, description: string) {
  const token = `${tokenPrefix}${randomBytes(32).toString('base64url')}`;
  const prefix = token.slice(0, prefixLength);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(companyScimTokens)
      .values({ companyId, tokenHash: hashToken(token), prefix, description, createdBy: actor.user.id })
      .returning({ id: companyScimTokens.id, createdAt: companyScimTokens.createdAt });
    if (!row) throw new Error('token not created');
    await recordAudit(tx, actor, [
      {
        action: 'company.scim_token_create',
        target: { type: 'company', id: companyId },
        details: { tokenId: row.id, prefijo: prefix, descripcion: description },
        companyId,
      },
    ]);
    return { id: row.id, token, prefijo: prefix, descripcion: description, creado: row.createdAt.toISOString() };
  });
}

/** The company's tokens, newest first, never the token itself. */
export async function listTokens(db: Db, companyId: number) {
  const rows = await db
    .select({
      id: companyScimTokens.id,
      prefix: companyScimTokens.prefix,
      description: companyScimTokens.description,
      createdAt: companyScimTokens.createdAt,
      createdBy: users.email,
      lastUsedAt: companyScimTokens.lastUsedAt,
      revokedAt: companyScimTokens.revokedAt,
    })
    .from(companyScimTokens)
    .leftJoin(users, eq(users.id, companyScimTokens.createdBy))
    .where(eq(companyScimTokens.companyId, companyId))
    .orderBy(desc(companyScimTokens.id));
  return rows.map((row) => ({
    id: row.id,
    prefijo: row.prefix,
    descripcion: row.description,
    creado: row.createdAt.toISOString(),
    creadoPor: row.createdBy ?? null,
    ultimoUso: row.lastUsedAt?.toISOString() ?? null,
    revocado: row.revokedAt?.toISOString() ?? null,
  }));
}

/** Revokes one of the company's tokens (again: nothing more); 404 TOKEN_NO_ENCONTRADO for none of its own. */
export async function revokeToken(db: Db, actor: AuditActor, companyId: number, tokenId: number): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx
      .select({ prefix: companyScimTokens.prefix, revokedAt: companyScimTokens.revokedAt })
      .from(companyScimTokens)
      .where(and(eq(companyScimTokens.id, tokenId), eq(companyScimTokens.companyId, companyId)))
      .for('update');
    if (!row) throw new HttpError(404, tokenMessages.notFound, 'TOKEN_NO_ENCONTRADO');
    if (row.revokedAt) return;
    await tx.update(companyScimTokens).set({ revokedAt: sql`now()` }).where(eq(companyScimTokens.id, tokenId));
    await recordAudit(tx, actor, [
      {
        action: 'company.scim_token_revoke',
        target: { type: 'company', id: companyId },
        details: { tokenId, prefijo: row.prefix },
        companyId,
      },
    ]);
  });
}

export interface ScimCaller {
  companyId: number;
  tokenId: number;
  companyStatus: CompanyStatus;
}

/** last_used_at is written at most this often per token. */
const lastUsedEveryMs = 60_000;

/**
 * A revoked token tried anyway (a directory left configured with it, or someone who found it): a failure in its
 * company's log, from `address`; once a minute per token at most, as a directory retries on its own schedule.
 */
async function revokedTokenTried(db: Db, token: { id: number; companyId: number; prefix: string }, address: string) {
  const [recent] = await db
    .select({ id: auditLog.id })
    .from(auditLog)
    .where(
      and(
        eq(auditLog.companyId, token.companyId),
        sql`${auditLog.createdAt} > now() - interval '1 minute'`,
        eq(auditLog.action, 'company.scim_token_refused'),
        sql`${auditLog.details}->>'tokenId' = ${String(token.id)}`,
      ),
    )
    .limit(1);
  if (recent) return;
  await recordAudit(db, systemActor, [
    {
      action: 'company.scim_token_refused',
      target: { type: 'company', id: token.companyId },
      details: { tokenId: token.id, prefijo: token.prefix, address },
      companyId: token.companyId,
    },
  ]);
}

/**
 * The company a request's `Authorization: Bearer scim_…` opens: one lookup on the token's unique hash, or none when
 * this instance keeps the token in memory (token-memory.ts). Missing, malformed, unknown or revoked → 401 (a revoked
 * one on record in its company's log, from `address`); a suspended company → 403 (with the company known, so it is
 * logged there).
 */
export async function authenticateToken(
  db: Db,
  header: string | undefined,
  address: string,
  memory?: TokenMemory,
): Promise<ScimCaller> {
  const match = /^bearer\s+(\S+)\s*$/i.exec(header ?? '');
  if (!match) throw new ScimError(401, M.noToken);
  const token = match[1] as string;
  if (!tokenShape.test(token)) throw new ScimError(401, M.badToken);
  const hash = hashToken(token);
  const kept = memory?.get(hash);
  if (kept) {
    if (Date.now() - kept.lastUsedAt > lastUsedEveryMs) {
      kept.lastUsedAt = Date.now();
      await db.update(companyScimTokens).set({ lastUsedAt: sql`now()` }).where(eq(companyScimTokens.id, kept.tokenId));
    }
    return { companyId: kept.companyId, tokenId: kept.tokenId, companyStatus: kept.companyStatus };
  }
  const ticket = memory?.ticket();
  const [row] = await db
    .select({
      id: companyScimTokens.id,
      companyId: companyScimTokens.companyId,
      prefix: companyScimTokens.prefix,
      revokedAt: companyScimTokens.revokedAt,
      lastUsedAt: companyScimTokens.lastUsedAt,
      status: companies.status,
    })
    .from(companyScimTokens)
    .innerJoin(companies, eq(companies.id, companyScimTokens.companyId))
    .where(eq(companyScimTokens.tokenHash, hash));
  if (row?.revokedAt) await revokedTokenTried(db, row, address);
  if (!row || row.revokedAt) throw new ScimError(401, M.badToken);
  let lastUsedAt = row.lastUsedAt?.getTime() ?? 0;
  if (Date.now() - lastUsedAt > lastUsedEveryMs) {
    await db.update(companyScimTokens).set({ lastUsedAt: sql`now()` }).where(eq(companyScimTokens.id, row.id));
    lastUsedAt = Date.now();
  }
  if (memory && ticket !== undefined) {
    memory.store(ticket, hash, { companyId: row.companyId, tokenId: row.id, companyStatus: row.status, lastUsedAt });
  }
  return { companyId: row.companyId, tokenId: row.id, companyStatus: row.status };
}
