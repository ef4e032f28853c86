import { and, count, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import {
  companies,
  companyLicences,
  companyMembers,
  type Company,
  type CompanyRole,
  type CompanyStatus,
  type DomainJoinMode,
} from '../../db/schema.js';
import { HttpError } from '../../lib/errors.js';
import { printable } from '../../schemas/common.js';
import { type AuditActor, recordAudit } from '../audit/log.js';
import { companyMessages as M } from './messages.js';
import {
  type CompanyRules,
  endSessionsBreakingRules,
  normalizeMethods,
  normalizeNetworks,
  rulesOf,
  type SignInMethod,
} from '../sign-in-limits/company-rules.js';

/** The API's words for a company's state and its domain join, and back. */
export const statusWords = { active: 'activa', suspended: 'suspendida' } as const satisfies Record<
  CompanyStatus,
  string
>;
export type StatusWord = (typeof statusWords)[CompanyStatus];
export const statusOfWord = (word: StatusWord): CompanyStatus => (word === 'activa' ? 'active' : 'suspended');

export const domainJoinWords = { automatic: 'automatica', approval: 'aprobacion' } as const satisfies Record<
  DomainJoinMode,
  string
>;
export type DomainJoinWord = (typeof domainJoinWords)[DomainJoinMode];
const domainJoinOfWord = (word: DomainJoinWord): DomainJoinMode => (word === 'automatica' ? 'automatic' : 'approval');

export const companyNotFound = () => new HttpError(404, M.companyNotFound, 'EMPRESA_NO_ENCONTRADA');

// One line of printable characters: the schema says so for the API, this says it for the console too.
const oneLine = new RegExp(`^${printable}+$`);

/** The name as kept: trimmed, one line, 1 to 100 characters; else the Spanish 400. */
export function companyName(raw: string): string {
  const name = raw.trim();
  if (name.length === 0 || name.length > 100 || !oneLine.test(name)) {
    throw new HttpError(400, M.companyNameRequired, 'VALIDATION_ERROR');
  }
  return name;
}

const nameTaken = (name: string) => new HttpError(409, M.companyExists(name), 'EMPRESA_EXISTENTE');

/** Whether another company already has this name, compared as the unique index does (lower(name)). */
async function nameUsed(db: Db, name: string, except?: number): Promise<boolean> {
  const [row] = await db
    .select({ id: companies.id })
    .from(companies)
    .where(
      and(
        sql`lower(${companies.name}) = lower(${name})`,
        except === undefined ? undefined : sql`${companies.id} <> ${except}`,
      ),
    )
    .limit(1);
  return row !== undefined;
}

/**
 * The unique index on lower(name) decides between two requests with the same name at once: its violation is the same
 * 409 as the check before it.
 */
async function oneCompanyPerName<T>(name: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause ?? (error as { code?: string });
    if (cause.code === '23505') throw nameTaken(name);
    throw error;
  }
}

/** Creates a company (active, domain join by approval), audited; answers its id. */
export async function createCompany(db: Db, actor: AuditActor, input: { nombre: string }): Promise<{ id: number }> {
  const name = companyName(input.nombre);
  if (await nameUsed(db, name)) throw nameTaken(name);
  return oneCompanyPerName(name, () =>
    db.transaction(async (tx) => {
      const [row] = await tx.insert(companies).values({ name }).returning({ id: companies.id });
      if (!row) throw new Error('the company was not inserted');
      await recordAudit(tx, actor, [
        {
          action: 'company.create',
          target: { type: 'company', id: row.id },
          details: { nombre: name },
          companyId: row.id,
        },
      ]);
      return { id: row.id };
    }),
  );
}

/** A company as the API answers it (`Empresa`). */
export interface CompanyView {
  id: number;
  nombre: string;
  estado: StatusWord;
  altaPorDominio: DomainJoinWord;
  exigirSegundoFactor: boolean;
  permitirDispositivosConfiables: boolean;
  confiarSegundoFactorDelProveedor: boolean;
  redesPermitidas: string[];
  metodosPermitidos: SignInMethod[];
  sesionMaximaHoras: number | null;
  inactividadMinutos: number | null;
  /** Its active members (those waiting for approval apart). */
  miembros: number;
  /** Those who joined by their address's domain and wait for an administrator's approval. */
  pendientes: number;
  createdAt: string;
  /** The reader's role in it; null for a platform administrator. */
  miRol: CompanyRole | null;
}

/** The company's members by state: the active ones and those waiting for approval. */
async function memberCounts(db: Db, companyId: number): Promise<{ active: number; pending: number }> {
  const rows = await db
    .select({ status: companyMembers.status, value: count() })
    .from(companyMembers)
    .where(eq(companyMembers.companyId, companyId))
    .groupBy(companyMembers.status);
  const of = (status: string) => rows.find((row) => row.status === status)?.value ?? 0;
  return { active: of('active'), pending: of('pending_approval') };
}

function view(company: Company, members: { active: number; pending: number }, role: CompanyRole | null): CompanyView {
  return {
    id: company.id,
    nombre: company.name,
    estado: statusWords[company.status],
    altaPorDominio: domainJoinWords[company.domainJoin],
    exigirSegundoFactor: company.requireSecondFactor,
    permitirDispositivosConfiables: company.allowTrustedDevices,
    confiarSegundoFactorDelProveedor: company.trustProviderSecondFactor,
    ...rulesOf(company),
    miembros: members.active,
    pendientes: members.pending,
    createdAt: company.createdAt.toISOString(),
    miRol: role,
  };
}

/** The company, or the 404. */
export async function findCompany(db: Db, companyId: number): Promise<Company> {
  const [row] = await db.select().from(companies).where(eq(companies.id, companyId));
  if (!row) throw companyNotFound();
  return row;
}

/** `Empresa`: the company with its count of active members and the reader's role (`null` for the platform). */
export async function companyDetail(db: Db, companyId: number, role: CompanyRole | null): Promise<CompanyView> {
  const company = await findCompany(db, companyId);
  return view(company, await memberCounts(db, companyId), role);
}

/**
 * A platform administrator's change: a new name and/or a new state (suspend, reactivate), each audited with the value
 * before. Answers the company as it is now.
 */
export async function updateCompany(
  db: Db,
  actor: AuditActor,
  companyId: number,
  change: { nombre?: string; estado?: StatusWord },
): Promise<CompanyView> {
  if (change.nombre === undefined && change.estado === undefined) {
    throw new HttpError(400, M.nothingToChange, 'VALIDATION_ERROR');
  }
  const name = change.nombre === undefined ? undefined : companyName(change.nombre);
  if (name !== undefined && (await nameUsed(db, name, companyId))) throw nameTaken(name);
  const status = change.estado === undefined ? undefined : statusOfWord(change.estado);
  await oneCompanyPerName(name ?? '', () =>
    db.transaction(async (tx) => {
      const [before] = await tx.select().from(companies).where(eq(companies.id, companyId)).for('update');
      if (!before) throw companyNotFound();
      const renamed = name !== undefined && name !== before.name;
      const statusChanged = status !== undefined && status !== before.status;
      if (!renamed && !statusChanged) return;
      // Notifies session-state `*` (trigger `companies_session_notify`, docs/triggers.md).
      await tx
        .update(companies)
        .set({ ...(renamed ? { name } : {}), ...(statusChanged ? { status } : {}) })
        .where(eq(companies.id, companyId));
      const target = { type: 'company', id: companyId } as const;
      await recordAudit(tx, actor, [
        ...(renamed
          ? [{ action: 'company.rename' as const, target, details: { de: before.name, a: name }, companyId }]
          : []),
        ...(statusChanged
          ? [
              {
                action: 'company.status_change' as const,
                target,
                details: { de: statusWords[before.status], a: statusWords[status] },
                companyId,
              },
            ]
          : []),
      ]);
    }),
  );
  return companyDetail(db, companyId, null);
}

/** What `PATCH /empresas/:id/ajustes` may change: the domain join, the second factor, the company's rules. */
export type CompanySettingsChange = {
  altaPorDominio?: DomainJoinWord;
  exigirSegundoFactor?: boolean;
  permitirDispositivosConfiables?: boolean;
  confiarSegundoFactorDelProveedor?: boolean;
} & Partial<CompanyRules>;

const sameList = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((value, index) => value === b[index]);

/**
 * A company's own settings and rules (its owners, administrators and the platform change them), audited with the
 * values before and after. Sessions of its members that break the rules as they now stand end in the same
 * transaction (sign-in-limits/company-rules.ts `endSessionsBreakingRules`).
 */
export async function updateCompanySettings(
  db: Db,
  actor: AuditActor,
  companyId: number,
  role: CompanyRole | null,
  change: CompanySettingsChange,
): Promise<CompanyView> {
  if (Object.values(change).every((value) => value === undefined)) {
    throw new HttpError(400, M.nothingToChange, 'VALIDATION_ERROR');
  }
  const networks = change.redesPermitidas === undefined ? undefined : normalizeNetworks(change.redesPermitidas);
  const methods = change.metodosPermitidos === undefined ? undefined : normalizeMethods(change.metodosPermitidos);
  await db.transaction(async (tx) => {
    const [before] = await tx.select().from(companies).where(eq(companies.id, companyId)).for('update');
    if (!before) throw companyNotFound();
    const domainJoin =
      change.altaPorDominio === undefined ? before.domainJoin : domainJoinOfWord(change.altaPorDominio);
    const requireSecondFactor = change.exigirSegundoFactor ?? before.requireSecondFactor;
    const allowTrustedDevices = change.permitirDispositivosConfiables ?? before.allowTrustedDevices;
    const trustProviderSecondFactor = change.confiarSegundoFactorDelProveedor ?? before.trustProviderSecondFactor;
    const rulesBefore = rulesOf(before);
    const rules: CompanyRules = {
      redesPermitidas: networks ?? rulesBefore.redesPermitidas,
      metodosPermitidos: methods ?? rulesBefore.metodosPermitidos,
      sesionMaximaHoras:
        change.sesionMaximaHoras === undefined ? rulesBefore.sesionMaximaHoras : change.sesionMaximaHoras,
      inactividadMinutos:
        change.inactividadMinutos === undefined ? rulesBefore.inactividadMinutos : change.inactividadMinutos,
    };
    const details: Record<string, unknown> = {};
    if (domainJoin !== before.domainJoin) {
      details.altaPorDominio = { de: domainJoinWords[before.domainJoin], a: domainJoinWords[domainJoin] };
    }
    if (requireSecondFactor !== before.requireSecondFactor) {
      details.exigirSegundoFactor = { de: before.requireSecondFactor, a: requireSecondFactor };
    }
    if (allowTrustedDevices !== before.allowTrustedDevices) {
      details.permitirDispositivosConfiables = { de: before.allowTrustedDevices, a: allowTrustedDevices };
    }
    if (trustProviderSecondFactor !== before.trustProviderSecondFactor) {
      details.confiarSegundoFactorDelProveedor = { de: before.trustProviderSecondFactor, a: trustProviderSecondFactor };
    }
    for (const key of ['redesPermitidas', 'metodosPermitidos'] as const) {
      if (!sameList(rulesBefore[key], rules[key])) details[key] = { de: rulesBefore[key], a: rules[key] };
    }
    for (const key of ['sesionMaximaHoras', 'inactividadMinutos'] as const) {
      if (rulesBefore[key] !== rules[key]) details[key] = { de: rulesBefore[key], a: rules[key] };
    }
    if (Object.keys(details).length === 0) return;
    // Notifies session-state `*` (trigger `companies_session_notify`, docs/triggers.md): every instance reads the
    // members' session limits again.
    await tx
      .update(companies)
      .set({
        domainJoin,
        requireSecondFactor,
        allowTrustedDevices,
        trustProviderSecondFactor,
        allowedNetworks: rules.redesPermitidas,
        allowedMethods: rules.metodosPermitidos,
        sessionMaxHours: rules.sesionMaximaHoras,
        idleMinutes: rules.inactividadMinutos,
      })
      .where(eq(companies.id, companyId));
    const ended = await endSessionsBreakingRules(tx, companyId);
    if (ended > 0) details.sesionesTerminadas = ended;
    await recordAudit(tx, actor, [
      { action: 'company.settings_change', target: { type: 'company', id: companyId }, details, companyId },
    ]);
  });
  return companyDetail(db, companyId, role);
}

export interface CompanyListQuery {
  page: number;
  limit: number;
  /** A part of the name, any case. */
  nombre?: string;
  estado?: StatusWord;
}

/** `%`, `_` and `\` in what a person types are letters, not LIKE's wildcards. */
const likeEscaped = (text: string) => text.replace(/[\\%_]/g, (char) => `\\${char}`);

/**
 * A page of companies, newest first, with their active members and licences counted for that page's companies only
 * (two grouped counts over the page's ids), so a page costs the same with 10 000 companies and 100 000 members.
 */
export async function listCompanies(db: Db, query: CompanyListQuery) {
  const conditions: SQL[] = [];
  const part = query.nombre?.trim();
  if (part) conditions.push(sql`lower(${companies.name}) LIKE ${`%${likeEscaped(part.toLowerCase())}%`}`);
  if (query.estado) conditions.push(eq(companies.status, statusOfWord(query.estado)));
  const where = and(...conditions);
  const [totals] = await db.select({ value: count() }).from(companies).where(where);
  const rows = await db
    .select({ id: companies.id, name: companies.name, status: companies.status, createdAt: companies.createdAt })
    .from(companies)
    .where(where)
    .orderBy(desc(companies.createdAt), desc(companies.id))
    .limit(query.limit)
    .offset((query.page - 1) * query.limit);
  const ids = rows.map((row) => row.id);
  const [members, licences] =
    ids.length === 0
      ? [[], []]
      : await Promise.all([
          db
            .select({ companyId: companyMembers.companyId, value: count() })
            .from(companyMembers)
            .where(and(inArray(companyMembers.companyId, ids), eq(companyMembers.status, 'active')))
            .groupBy(companyMembers.companyId),
          db
            .select({ companyId: companyLicences.companyId, value: count() })
            .from(companyLicences)
            .where(inArray(companyLicences.companyId, ids))
            .groupBy(companyLicences.companyId),
        ]);
  const memberCount = new Map(members.map((row) => [row.companyId, row.value]));
  const licenceCount = new Map(licences.map((row) => [row.companyId, row.value]));
  const data = rows.map((row) => ({
    id: row.id,
    nombre: row.name,
    estado: statusWords[row.status],
    miembros: memberCount.get(row.id) ?? 0,
    licencias: licenceCount.get(row.id) ?? 0,
    createdAt: row.createdAt.toISOString(),
  }));
  const total = totals?.value ?? 0;
  const totalPages = Math.ceil(total / query.limit);
  return { data, total, totalPages, currentPage: query.page, hasNextPage: query.page < totalPages, count: data.length };
}
