import { randomBytes } from 'node:crypto';
import { and, asc, count, eq, gt, inArray, isNotNull, isNull, ne, notExists } from 'drizzle-orm';
import { parse } from 'tldts';
import type { Db } from '../../db/client.js';
import { companies, companyDomains, companyInvitations, companyScimUsers } from '../../db/schema.js';
import { emailDomain, normalizeDomain } from '../../lib/email-address.js';
import { HttpError } from '../../lib/errors.js';
import { type AuditActor, recordAudit, systemActor } from '../audit/log.js';
import type { CompanyAccess } from './access.js';
import { type DomainLookup, DomainLookupUnavailable } from './domain-lookup.js';
import { freeMailDomains } from './free-mail.js';
import { addMember } from './members.js';
import { companyMessages as M } from './messages.js';
import { underSharedParent } from './shared-parents.js';

type CompanyDomain = typeof companyDomains.$inferSelect;

/** Domains one company may claim: enough for its brands and countries, and a bound on what one admin can add. */
export const maxDomainsPerCompany = 50;

/** A DNS label: letters, digits and hyphens, not at either end, 1 to 63 characters (RFC 1035, after IDN to ASCII). */
const dnsLabel = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

const invalidDomain = () => new HttpError(400, M.domainInvalid, 'DOMINIO_INVALIDO');
const publicDomain = (domain: string) => new HttpError(400, M.domainPublic(domain), 'DOMINIO_PUBLICO');

/**
 * The domain a company may claim, normalised, or the 400 that refuses it: only a registrable domain (one a registrar
 * sells, per the Public Suffix List, private section included) qualifies; a public suffix (`com`, `co.uk`,
 * `github.io`), a free-mail provider's domain, or a provider's parent shared by its tenants (`onmicrosoft.com`, and a
 * tenant's name under it) is DOMINIO_PUBLICO; an address, a name outside the list's TLDs
 * (`localhost`, `.invalid`) or a subdomain is DOMINIO_INVALIDO.
 */
export function claimableDomain(input: string): string {
  const domain = normalizeDomain(input);
  if (!domain || domain.length > 253 || !domain.split('.').every((label) => dnsLabel.test(label))) {
    throw invalidDomain();
  }
  const parsed = parse(domain, { allowPrivateDomains: true, extractHostname: false });
  if (parsed.isIp) throw invalidDomain();
  if (underSharedParent(domain)) throw publicDomain(domain);
  const listed = parsed.isIcann === true || parsed.isPrivate === true;
  if (listed && parsed.publicSuffix === domain) throw publicDomain(domain);
  if (!listed || parsed.domain !== domain) throw invalidDomain();
  if (freeMailDomains.has(domain)) throw publicDomain(domain);
  return domain;
}

/** The DNS name a company publishes its TXT record at, and the record's value. */
export const txtRecordName = (domain: string) => `_portal-verificacion.${domain}`;
export const txtRecordValue = (token: string) => `portal-verificacion=${token}`;

/** A domain as the API shows it (`Dominio`). */
export function domainView(row: CompanyDomain) {
  return {
    dominio: row.domain,
    verificado: row.verifiedAt !== null,
    verificadoPor: row.verifiedBy ?? null,
    verificadoEn: row.verifiedAt ? new Date(row.verifiedAt).toISOString() : null,
    registroTxt: { nombre: txtRecordName(row.domain), valor: txtRecordValue(row.verificationToken) },
  };
}
export type DomainView = ReturnType<typeof domainView>;

/** The company's domains, proved or not, in alphabetical order. */
export async function listDomains(db: Db, companyId: number): Promise<DomainView[]> {
  const rows = await db
    .select()
    .from(companyDomains)
    .where(eq(companyDomains.companyId, companyId))
    .orderBy(asc(companyDomains.domain));
  return rows.map(domainView);
}

const ofAnotherCompany = (domain: string) =>
  new HttpError(409, M.domainOfAnotherCompany(domain), 'DOMINIO_DE_OTRA_EMPRESA');

async function provedElsewhere(db: Db, companyId: number, domain: string): Promise<boolean> {
  const [row] = await db
    .select({ companyId: companyDomains.companyId })
    .from(companyDomains)
    .where(
      and(
        eq(companyDomains.domain, domain),
        isNotNull(companyDomains.verifiedAt),
        ne(companyDomains.companyId, companyId),
      ),
    );
  return row !== undefined;
}

/**
 * Claims a domain for the company (not yet proved: 201 with the TXT record to publish). Several companies may claim
 * one domain; the first to prove it keeps it. Claiming a domain the company already has answers it unchanged.
 */
export async function claimDomain(db: Db, actor: AuditActor, companyId: number, input: string): Promise<DomainView> {
  const domain = claimableDomain(input);
  if (await provedElsewhere(db, companyId, domain)) throw ofAnotherCompany(domain);
  return db.transaction(async (tx) => {
    // The company's row, locked, makes concurrent claims of one company count one after another.
    await tx.select({ id: companies.id }).from(companies).where(eq(companies.id, companyId)).for('update');
    const [existing] = await tx
      .select()
      .from(companyDomains)
      .where(and(eq(companyDomains.companyId, companyId), eq(companyDomains.domain, domain)));
    if (existing) return domainView(existing);
    const [held] = await tx.select({ n: count() }).from(companyDomains).where(eq(companyDomains.companyId, companyId));
    if ((held?.n ?? 0) >= maxDomainsPerCompany) {
      throw new HttpError(409, M.domainTooMany(maxDomainsPerCompany), 'DEMASIADOS_DOMINIOS');
    }
    const [row] = await tx
      .insert(companyDomains)
      .values({ companyId, domain, verificationToken: randomBytes(24).toString('base64url') })
      .returning();
    if (!row) throw new Error('domain not inserted');
    await recordAudit(tx, actor, [
      { action: 'company.domain_add', target: { type: 'company', id: companyId }, details: { domain }, companyId },
    ]);
    return domainView(row);
  });
}

const domainNotFound = () => new HttpError(404, M.domainNotFound, 'DOMINIO_NO_ENCONTRADO');

/**
 * The `:dominio` of a URL as stored (an IDN in the address finds its ASCII form). What cannot be a domain was never
 * claimed: a 404 without a query (a NUL byte would not even reach the database).
 */
function domainKey(param: string): string {
  const key = normalizeDomain(param);
  if (!key) throw domainNotFound();
  return key;
}

async function claimed(db: Db, companyId: number, param: string): Promise<CompanyDomain> {
  const [row] = await db
    .select()
    .from(companyDomains)
    .where(and(eq(companyDomains.companyId, companyId), eq(companyDomains.domain, domainKey(param))));
  if (!row) throw domainNotFound();
  return row;
}

/**
 * Marks the claim proved. The unique index on proved domains decides between two companies proving one domain at
 * once: the loser's update violates it and gets the 409.
 */
async function markProved(db: Db, actor: AuditActor, row: CompanyDomain, by: 'dns' | 'admin'): Promise<DomainView> {
  const { companyId, domain } = row;
  try {
    return await db.transaction(async (tx) => {
      const [proved] = await tx
        .update(companyDomains)
        .set({ verifiedAt: new Date(), verifiedBy: by })
        .where(
          and(
            eq(companyDomains.companyId, companyId),
            eq(companyDomains.domain, domain),
            isNull(companyDomains.verifiedAt),
          ),
        )
        .returning();
      // Proved meanwhile by the company's other request: that one recorded it.
      if (!proved) return domainView(await claimed(tx, companyId, domain));
      await recordAudit(tx, actor, [
        {
          action: 'company.domain_verify',
          target: { type: 'company', id: companyId },
          details: { domain, by },
          companyId,
        },
      ]);
      return domainView(proved);
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause ?? (error as { code?: string });
    if (cause.code === '23505') throw ofAnotherCompany(domain);
    throw error;
  }
}

/**
 * Proves a claimed domain by its TXT record `_portal-verificacion.<domain>` = `portal-verificacion=<token>` (409
 * REGISTRO_TXT_NO_ENCONTRADO naming the record looked for; 503 when the DNS does not answer, nothing changed).
 */
export async function verifyDomainByDns(
  db: Db,
  lookup: DomainLookup,
  actor: AuditActor,
  companyId: number,
  param: string,
): Promise<DomainView> {
  const row = await claimed(db, companyId, param);
  if (row.verifiedAt) return domainView(row);
  if (await provedElsewhere(db, companyId, row.domain)) throw ofAnotherCompany(row.domain);
  const name = txtRecordName(row.domain);
  const value = txtRecordValue(row.verificationToken);
  let records: string[];
  try {
    records = await lookup.txt(name);
  } catch (error) {
    if (error instanceof DomainLookupUnavailable) throw new HttpError(503, M.dnsUnavailable, 'DNS_NO_DISPONIBLE');
    throw error;
  }
  if (!records.some((record) => record.trim() === value)) {
    throw new HttpError(409, M.txtRecordNotFound(name, value), 'REGISTRO_TXT_NO_ENCONTRADO');
  }
  return markProved(db, actor, row, 'dns');
}

/** A platform administrator's recorded confirmation that the company owns a domain it claimed (403 to anyone else). */
export async function confirmDomain(
  db: Db,
  actor: AuditActor,
  access: CompanyAccess,
  param: string,
): Promise<DomainView> {
  if (!access.platform) throw new HttpError(403, M.domainConfirmPlatformOnly, 'FORBIDDEN');
  const row = await claimed(db, access.companyId, param);
  if (row.verifiedAt) return domainView(row);
  if (await provedElsewhere(db, access.companyId, row.domain)) throw ofAnotherCompany(row.domain);
  return markProved(db, actor, row, 'admin');
}

/** Drops a domain from the company; the people who joined by it stay members. */
/**
 * The company's directory (SCIM) resources whose userName is at `domain` are deleted, in the removal's transaction:
 * the directory's token no longer reaches those people, who stay members, managed in the panel. Answers how many.
 */
async function releaseDirectoryResources(tx: Db, companyId: number, domain: string): Promise<number> {
  const rows = await tx
    .select({ id: companyScimUsers.id, userName: companyScimUsers.userName })
    .from(companyScimUsers)
    .where(eq(companyScimUsers.companyId, companyId));
  const released = rows.filter(({ userName }) => emailDomain(userName) === domain).map((row) => row.id);
  if (released.length) await tx.delete(companyScimUsers).where(inArray(companyScimUsers.id, released));
  return released.length;
}

export async function removeDomain(db: Db, actor: AuditActor, companyId: number, param: string): Promise<void> {
  const domain = domainKey(param);
  await db.transaction(async (tx) => {
    const removed = await tx
      .delete(companyDomains)
      .where(and(eq(companyDomains.companyId, companyId), eq(companyDomains.domain, domain)))
      .returning({ verifiedAt: companyDomains.verifiedAt });
    if (removed.length === 0) throw domainNotFound();
    // The company's directory no longer holds the people of the domain.
    const released = await releaseDirectoryResources(tx, companyId, domain);
    await recordAudit(tx, actor, [
      {
        action: 'company.domain_remove',
        target: { type: 'company', id: companyId },
        details: {
          domain,
          proved: removed[0]?.verifiedAt != null,
          ...(released ? { directorioLiberado: released } : {}),
        },
        companyId,
      },
    ]);
  });
}

/**
 * Called as an account becomes active (domain/registration/activation.ts `activateUser`), in its transaction: the active
 * company that proved the address's domain (exact match) takes the person as 'miembro', at once or waiting for
 * approval as the company chose. A pending invitation of that company to the address decides instead (its role), so
 * the join leaves that company alone; a person already in the company stays as they are.
 */
export async function joinByEmailDomain(db: Db, userId: number, email: string): Promise<void> {
  const domain = emailDomain(email);
  if (!domain) return;
  const invited = db
    .select({ id: companyInvitations.id })
    .from(companyInvitations)
    .where(
      and(
        eq(companyInvitations.companyId, companies.id),
        eq(companyInvitations.email, email),
        isNull(companyInvitations.acceptedAt),
        isNull(companyInvitations.revokedAt),
        gt(companyInvitations.expiresAt, new Date()),
      ),
    );
  const [company] = await db
    .select({ id: companies.id, domainJoin: companies.domainJoin })
    .from(companyDomains)
    .innerJoin(companies, eq(companies.id, companyDomains.companyId))
    .where(
      and(
        eq(companyDomains.domain, domain),
        isNotNull(companyDomains.verifiedAt),
        eq(companies.status, 'active'),
        notExists(invited),
      ),
    );
  if (!company) return;
  const status = company.domainJoin === 'automatic' ? 'active' : 'pending_approval';
  if (!(await addMember(db, company.id, userId, 'miembro', status))) return;
  await recordAudit(db, systemActor, [
    {
      action: 'company.member_add',
      target: { type: 'company', id: company.id },
      details: { userId, email, role: 'miembro', status, via: 'domain', domain },
      companyId: company.id,
    },
  ]);
}
