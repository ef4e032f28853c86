// A company's setup links: what an owner hands to the company's IT so it proves the domain, connects its sign-in and
// its directory without an account (docs/decisions/0105-company-setup-link.md). The secret is 'cfg_' + 32 random
// bytes (base64url), shown once in the URL's fragment and kept as its SHA-256 (hex).
import { createHash, randomBytes } from 'node:crypto';
import { and, asc, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { companies, companyMembers, companySetupLinks, users } from '../../db/schema.js';
import { HttpError } from '../../lib/errors.js';
import { type AuditActor, recordAudit } from '../audit/log.js';

export const setupLinkPrefix = 'cfg_';
const secretShape = /^cfg_[A-Za-z0-9_-]{43}$/;

/** How long a link lasts: 1 to 72 hours, a day when not said. */
export const setupLinkHours = { min: 1, max: 72, default: 24 } as const;

/** The portal's page a link opens; the secret goes after '#', so no server, log or referrer ever receives it. */
export const setupPagePath = '/configurar-empresa';

const hashSecret = (secret: string) => createHash('sha256').update(secret).digest('hex');

export const setupLinkMessages = {
  ownerOnly: 'Solo un propietario de la empresa puede crear un enlace de configuración',
  notFound: 'Ese enlace de configuración no existe en la empresa',
  invalid: 'El enlace de configuración no es válido. Pide uno nuevo al propietario de la empresa',
  expired: (owner: string) => `El enlace de configuración venció. Pide uno nuevo a ${owner}, propietario de la empresa`,
  revoked: (owner: string) =>
    `El enlace de configuración ya no sirve: fue revocado o quien lo creó ya no es propietario de la empresa. Pide uno nuevo a ${owner}, propietario de la empresa`,
  anyOwner: 'un propietario',
} as const;
const M = setupLinkMessages;

/** A link's state, as its list says it. */
export type SetupLinkState = 'activo' | 'vencido' | 'revocado';

/** The owner who is a company's link's only judge: the creator, when still an active owner of the company. */
const creatorIsOwner = sql<boolean>`exists (select 1 from ${companyMembers} where ${companyMembers.companyId} = ${companySetupLinks.companyId} and ${companyMembers.userId} = ${companySetupLinks.createdBy} and ${companyMembers.role} = 'propietario' and ${companyMembers.status} = 'active')`;

function stateOf(row: { expiresAt: Date; revokedAt: Date | null; ownerStays: boolean }, now: Date): SetupLinkState {
  if (row.revokedAt || !row.ownerStays) return 'revocado';
  return row.expiresAt.getTime() <= now.getTime() ? 'vencido' : 'activo';
}

/** A new link of the company (201 of POST /empresas/:id/enlaces-configuracion): the only time its URL is shown. */
export async function createSetupLink(db: Db, actor: AuditActor, companyId: number, hours: number, portalUrl: string) {
  if (actor.user.id === null) throw new HttpError(403, M.ownerOnly, 'FORBIDDEN');
  const secret = `${setupLinkPrefix}${randomBytes(32).toString('base64url')}`;
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(companySetupLinks)
      .values({
        companyId,
        secretHash: hashSecret(secret),
        createdBy: actor.user.id,
        expiresAt: sql`now() + make_interval(hours => ${hours})`,
      })
      .returning({ id: companySetupLinks.id, expiresAt: companySetupLinks.expiresAt });
    if (!row) throw new Error('setup link not created');
    const venceEn = new Date(row.expiresAt).toISOString();
    await recordAudit(tx, actor, [
      {
        action: 'company.setup_link_create',
        target: { type: 'company', id: companyId },
        details: { enlaceId: row.id, horas: hours, venceEn },
        companyId,
      },
    ]);
    return { id: row.id, url: `${portalUrl.replace(/\/+$/, '')}${setupPagePath}#${secret}`, venceEn };
  });
}

/** The company's links, newest first, never their secret. */
export async function listSetupLinks(db: Db, companyId: number, now: Date) {
  const rows = await db
    .select({
      id: companySetupLinks.id,
      createdAt: companySetupLinks.createdAt,
      createdBy: users.email,
      expiresAt: companySetupLinks.expiresAt,
      revokedAt: companySetupLinks.revokedAt,
      ownerStays: creatorIsOwner,
    })
    .from(companySetupLinks)
    .leftJoin(users, eq(users.id, companySetupLinks.createdBy))
    .where(eq(companySetupLinks.companyId, companyId))
    .orderBy(desc(companySetupLinks.id));
  return rows.map((row) => ({
    id: row.id,
    creado: new Date(row.createdAt).toISOString(),
    creadoPor: row.createdBy ?? null,
    venceEn: new Date(row.expiresAt).toISOString(),
    estado: stateOf({ ...row, expiresAt: new Date(row.expiresAt) }, now),
  }));
}

/** Revokes one of the company's links at once (again: nothing more); 404 ENLACE_NO_ENCONTRADO for none of its own. */
export async function revokeSetupLink(db: Db, actor: AuditActor, companyId: number, linkId: number): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx
      .select({ revokedAt: companySetupLinks.revokedAt })
      .from(companySetupLinks)
      .where(and(eq(companySetupLinks.id, linkId), eq(companySetupLinks.companyId, companyId)))
      .for('update');
    if (!row) throw new HttpError(404, M.notFound, 'ENLACE_NO_ENCONTRADO');
    if (row.revokedAt) return;
    await tx.update(companySetupLinks).set({ revokedAt: sql`now()` }).where(eq(companySetupLinks.id, linkId));
    await recordAudit(tx, actor, [
      {
        action: 'company.setup_link_revoke',
        target: { type: 'company', id: companyId },
        details: { enlaceId: linkId },
        companyId,
      },
    ]);
  });
}

/** Whether a link of the company still opens its page (not expired, revoked, its owner gone, the company suspended). */
export async function setupLinkOpen(db: Db, linkId: number, companyId: number, now: Date): Promise<boolean> {
  const [row] = await db
    .select({
      expiresAt: companySetupLinks.expiresAt,
      revokedAt: companySetupLinks.revokedAt,
      ownerStays: creatorIsOwner,
      companyStatus: companies.status,
    })
    .from(companySetupLinks)
    .innerJoin(companies, eq(companies.id, companySetupLinks.companyId))
    .where(and(eq(companySetupLinks.id, linkId), eq(companySetupLinks.companyId, companyId)));
  return row?.companyStatus === 'active' && stateOf({ ...row, expiresAt: new Date(row.expiresAt) }, now) === 'activo';
}

/** Who opened a company's page by a link: the link, its company and the address it came from. */
export interface SetupLinkCaller {
  linkId: number;
  companyId: number;
  companyName: string;
  expiresAt: string;
  address: string;
}

/** Who to ask for a new link: the creator while an owner, else one of the company's owners (name and email). */
async function ownerToAsk(db: Db, companyId: number, creator: number | null): Promise<string> {
  const [row] = await db
    .select({ name: users.name, email: users.email })
    .from(companyMembers)
    .innerJoin(users, eq(users.id, companyMembers.userId))
    .where(
      and(
        eq(companyMembers.companyId, companyId),
        eq(companyMembers.role, 'propietario'),
        eq(companyMembers.status, 'active'),
      ),
    )
    .orderBy(sql`${companyMembers.userId} = ${creator ?? 0} desc`, asc(companyMembers.userId))
    .limit(1);
  if (!row) return M.anyOwner;
  return row.name ? `${row.name} (${row.email})` : row.email;
}

/**
 * The company a request's `Authorization: Bearer cfg_…` opens, checked at every call: unknown or malformed → 401;
 * expired → 410 ENLACE_VENCIDO, revoked, its owner gone or the company suspended → 410 ENLACE_REVOCADO, both naming the
 * owner to ask.
 */
export async function setupLinkCaller(
  db: Db,
  header: string | undefined,
  address: string,
  now: Date,
): Promise<SetupLinkCaller> {
  const match = /^bearer\s+(\S+)\s*$/i.exec(header ?? '');
  const secret = match?.[1];
  if (!secret || !secretShape.test(secret)) throw new HttpError(401, M.invalid, 'ENLACE_NO_VALIDO');
  const [row] = await db
    .select({
      id: companySetupLinks.id,
      companyId: companySetupLinks.companyId,
      createdBy: companySetupLinks.createdBy,
      expiresAt: companySetupLinks.expiresAt,
      revokedAt: companySetupLinks.revokedAt,
      ownerStays: creatorIsOwner,
      companyName: companies.name,
      companyStatus: companies.status,
    })
    .from(companySetupLinks)
    .innerJoin(companies, eq(companies.id, companySetupLinks.companyId))
    .where(eq(companySetupLinks.secretHash, hashSecret(secret)));
  if (!row) throw new HttpError(401, M.invalid, 'ENLACE_NO_VALIDO');
  const expiresAt = new Date(row.expiresAt);
  const state = row.companyStatus === 'active' ? stateOf({ ...row, expiresAt }, now) : 'revocado';
  if (state !== 'activo') {
    const owner = await ownerToAsk(db, row.companyId, row.createdBy);
    throw state === 'vencido'
      ? new HttpError(410, M.expired(owner), 'ENLACE_VENCIDO')
      : new HttpError(410, M.revoked(owner), 'ENLACE_REVOCADO');
  }
  return {
    linkId: row.id,
    companyId: row.companyId,
    companyName: row.companyName,
    expiresAt: expiresAt.toISOString(),
    address,
  };
}

/**
 * The audit log's actor for what a link does: no account, so the link stands for the email, and each row it writes
 * names the link and the address it came from (`fuente: 'enlace'`, the activity's «Enlace de configuración»).
 */
export const setupLinkActor = (caller: SetupLinkCaller): AuditActor => ({
  user: { id: null, email: `enlace de configuración n.º ${caller.linkId}` },
  details: { fuente: 'enlace', enlaceId: caller.linkId, direccion: caller.address },
});

/** The audit row of what a link does that changes nothing of the company ('Probar conexión'): one row, this one. */
export async function recordSetupLinkUse(db: Db, caller: SetupLinkCaller, action: string, details = {}) {
  await recordAudit(db, setupLinkActor(caller), [
    {
      action: 'company.setup_link_use',
      target: { type: 'company', id: caller.companyId },
      details: { accion: action, ...details },
      companyId: caller.companyId,
    },
  ]);
}
