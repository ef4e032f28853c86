// A company's own rules for its members (docs/decisions/0103-company-rules.md): the networks they may sign in from,
// the sign-in methods they may use, the longest a session lasts and the longest it may stay unused. They bind the
// company's active members only; a person in several companies lives by all of them (the strictest wins).
import { BlockList, isIP } from 'node:net';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { companies, companyMembers, sessions, type SignInMethod, signInMethods } from '../../db/schema.js';
import { HttpError } from '../../lib/errors.js';

export { type SignInMethod, signInMethods };

/** The rules as the API names them (fields of `Empresa` and of `PATCH /empresas/:id/ajustes`). */
export interface CompanyRules {
  /** CIDR blocks, normalized ('203.0.113.0/24', '2001:db8::/32'); empty: any network. */
  redesPermitidas: string[];
  metodosPermitidos: SignInMethod[];
  /** Null: the portal's own session length. */
  sesionMaximaHoras: number | null;
  /** Null: no inactivity limit. */
  inactividadMinutos: number | null;
}

/** The rules of a company that has set none (and what lifting them leaves). */
export const noRules: CompanyRules = {
  redesPermitidas: [],
  metodosPermitidos: [...signInMethods],
  sesionMaximaHoras: null,
  inactividadMinutos: null,
};

/** Whether a company's rules restrict anything (a company that set none binds nobody to anything). */
export const restrictsAnything = (rules: CompanyRules) =>
  rules.redesPermitidas.length > 0 ||
  rules.metodosPermitidos.length < signInMethods.length ||
  rules.sesionMaximaHoras !== null ||
  rules.inactividadMinutos !== null;

export const methodNames: Record<SignInMethod, string> = {
  contrasena: 'contraseña',
  google: 'Google',
  apple: 'Apple',
  llave: 'llave de acceso',
  empresa: 'el inicio de sesión de la empresa',
};

export const rulesMessages = {
  networkInvalid: (value: string) =>
    `«${value.slice(0, 60)}» no es una red válida: escribe una dirección IPv4 o IPv6 con su prefijo, como 203.0.113.0/24 o 2001:db8::/32`,
  tooManyNetworks: 'Indica como mucho 100 redes',
  methodsEmpty: 'Deja al menos un método de inicio de sesión permitido',
  networkRefused: (company: string, address: string) =>
    `La empresa «${company}» solo permite iniciar sesión desde sus redes, y esta dirección (${address}) no está entre ellas: conéctate desde la red de la empresa o pide a su administrador que la añada`,
  methodRefused: (company: string, method: SignInMethod, allowed: readonly SignInMethod[]) =>
    `La empresa «${company}» no permite iniciar sesión con ${methodNames[method]}: usa ${allowed.map((m) => methodNames[m]).join(' o ')}`,
};

/** Accepts '10.0.0.0/8', '2001:db8::/32' or a bare address (a /32 or /128); answers the block written canonically. */
export function parseNetwork(raw: string): { address: string; prefix: number; family: 'ipv4' | 'ipv6' } | undefined {
  const text = raw.trim();
  const [address = '', prefixText, extra] = text.split('/');
  if (extra !== undefined) return undefined;
  const version = isIP(address);
  if (version === 0) return undefined;
  const max = version === 4 ? 32 : 128;
  if (prefixText !== undefined && !/^\d{1,3}$/.test(prefixText)) return undefined;
  const prefix = prefixText === undefined ? max : Number(prefixText);
  if (prefix > max) return undefined;
  return { address: address.toLowerCase(), prefix, family: version === 4 ? 'ipv4' : 'ipv6' };
}

/** The networks as kept: each valid and written `address/prefix`, no repeats; else the Spanish 400. */
export function normalizeNetworks(raw: readonly string[]): string[] {
  if (raw.length > 100) throw new HttpError(400, rulesMessages.tooManyNetworks, 'VALIDATION_ERROR');
  const kept = raw.map((value) => {
    const network = parseNetwork(value);
    if (!network) throw new HttpError(400, rulesMessages.networkInvalid(value), 'RED_INVALIDA');
    return `${network.address}/${network.prefix}`;
  });
  return [...new Set(kept)];
}

/** Whether `address` (as the API reads the client's, IPv4-mapped IPv6 included) is inside one of `networks`. */
export function addressAllowed(networks: readonly string[], address: string): boolean {
  if (networks.length === 0) return true;
  const list = new BlockList();
  for (const value of networks) {
    const network = parseNetwork(value);
    if (network) list.addSubnet(network.address, network.prefix, network.family);
  }
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  const plain = mapped ?? address;
  const version = isIP(plain);
  if (version === 0) return false;
  return list.check(plain, version === 4 ? 'ipv4' : 'ipv6');
}

/** The methods as kept: a non-empty subset, in the canonical order; else the Spanish 400. */
export function normalizeMethods(raw: readonly SignInMethod[]): SignInMethod[] {
  const kept = signInMethods.filter((method) => raw.includes(method));
  if (kept.length === 0) throw new HttpError(400, rulesMessages.methodsEmpty, 'METODOS_VACIOS');
  return kept;
}

/** A company row's rules in the API's words. */
export function rulesOf(company: {
  allowedNetworks: string[];
  allowedMethods: SignInMethod[];
  sessionMaxHours: number | null;
  idleMinutes: number | null;
}): CompanyRules {
  return {
    redesPermitidas: company.allowedNetworks,
    metodosPermitidos: company.allowedMethods,
    sesionMaximaHoras: company.sessionMaxHours,
    inactividadMinutos: company.idleMinutes,
  };
}

/** The rules of every active company where the person is an active member, with the company's id and name. */
export async function rulesBinding(
  db: Db,
  userId: number,
): Promise<{ id: number; nombre: string; reglas: CompanyRules }[]> {
  const rows = await db
    .select({
      id: companies.id,
      name: companies.name,
      allowedNetworks: companies.allowedNetworks,
      allowedMethods: companies.allowedMethods,
      sessionMaxHours: companies.sessionMaxHours,
      idleMinutes: companies.idleMinutes,
    })
    .from(companyMembers)
    .innerJoin(companies, eq(companies.id, companyMembers.companyId))
    .where(and(eq(companyMembers.userId, userId), eq(companyMembers.status, 'active'), eq(companies.status, 'active')))
    .orderBy(companies.name);
  return rows.map((row) => ({ id: row.id, nombre: row.name, reglas: rulesOf(row) }));
}

/** The first rule of `companies` that a sign-in with `method` from `address` breaks: its 403, else undefined. */
export function ruleBroken(
  bound: readonly { nombre: string; reglas: CompanyRules }[],
  method: SignInMethod,
  address: string,
): HttpError | undefined {
  for (const company of bound) {
    if (!addressAllowed(company.reglas.redesPermitidas, address)) {
      return new HttpError(403, rulesMessages.networkRefused(company.nombre, address), 'RED_NO_PERMITIDA');
    }
    if (!company.reglas.metodosPermitidos.includes(method)) {
      return new HttpError(
        403,
        rulesMessages.methodRefused(company.nombre, method, company.reglas.metodosPermitidos),
        'METODO_NO_PERMITIDO',
      );
    }
  }
  return undefined;
}

/** Refuses (403 RED_NO_PERMITIDA / METODO_NO_PERMITIDO) a sign-in that breaks a rule of one of the person's companies. */
export async function enforceCompanyRules(
  db: Db,
  userId: number,
  method: SignInMethod,
  address: string,
): Promise<void> {
  const broken = ruleBroken(await rulesBinding(db, userId), method, address);
  if (broken) throw broken;
}

/** A recorded method, or null when none (or none the portal knows) was recorded. */
export const methodOrNull = (method: string | null): SignInMethod | null =>
  (signInMethods as readonly string[]).includes(method ?? '') ? (method as SignInMethod) : null;

/** A session's method as the rules read it: sessions from before methods were recorded count as a password's. */
export const methodOfSession = (method: string | null): SignInMethod => methodOrNull(method) ?? 'contrasena';

/**
 * Ends the open sessions of the company's active members that break its rules as they are now (a network, a method,
 * a session older than the longest allowed, or unused longer than allowed). Each ended row notifies the session
 * memory of every instance and ends the apps' sessions signed in with it, with their back-channel logouts (triggers
 * on sessions, docs/triggers.md). Answers how many ended.
 */
export async function endSessionsBreakingRules(db: Db, companyId: number, rules: CompanyRules): Promise<number> {
  const open = await db
    .select({
      id: sessions.id,
      address: sessions.address,
      method: sessions.method,
      createdAt: sessions.createdAt,
      lastSeenAt: sessions.lastSeenAt,
    })
    .from(sessions)
    .innerJoin(
      companyMembers,
      and(
        eq(companyMembers.userId, sessions.userId),
        eq(companyMembers.companyId, companyId),
        eq(companyMembers.status, 'active'),
      ),
    )
    .where(isNull(sessions.endedAt));
  const now = Date.now();
  const breaking = open
    .filter(
      (session) =>
        !addressAllowed(rules.redesPermitidas, session.address) ||
        !rules.metodosPermitidos.includes(methodOfSession(session.method)) ||
        (rules.sesionMaximaHoras !== null &&
          now - session.createdAt.getTime() >= rules.sesionMaximaHoras * 3_600_000) ||
        (rules.inactividadMinutos !== null && now - session.lastSeenAt.getTime() >= rules.inactividadMinutos * 60_000),
    )
    .map((session) => session.id);
  if (breaking.length === 0) return 0;
  const ended = await db
    .update(sessions)
    .set({ endedAt: sql`now()` })
    .where(and(inArray(sessions.id, breaking), isNull(sessions.endedAt)))
    .returning({ id: sessions.id });
  return ended.length;
}
