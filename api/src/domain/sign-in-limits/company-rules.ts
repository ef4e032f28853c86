// A company's own rules for its members (docs/decisions/0103-company-rules.md): the networks they may sign in from,
// the sign-in methods they may use, the longest a session lasts and the longest it may stay unused. They bind the
// company's active members only; a person in several companies lives by all of them (the strictest wins).
import { isIP } from 'node:net';
import { and, eq, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client.js';
import { companies, companyMembers, type SignInMethod, signInMethods } from '../../db/schema.js';
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
  /** A session signed in through another company's provider, as a company's refusal names it. */
  otherCompanySignIn: 'el inicio de sesión de otra empresa',
  methodRefused: (company: string, used: string, allowed: readonly SignInMethod[]) =>
    `La empresa «${company}» no permite iniciar sesión con ${used}: usa ${allowed.map((m) => methodNames[m]).join(' o ')}`,
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

/**
 * How a session was signed in, as the rules read it: its method and, for a company's own sign-in, whose provider it was
 * ('empresa' in a company's rule means its own provider: docs/decisions/0147-own-sign-in-is-own-provider.md).
 */
export interface SignInWay {
  method: SignInMethod;
  /** The company whose provider signed it in (method 'empresa'); null otherwise, or when not recorded. */
  ssoCompanyId: number | null;
}

/** Whether `way` is a sign-in through another company's provider than `companyId`'s: its 'empresa' is not this one. */
export const signedInElsewhere = (way: SignInWay, companyId: number): boolean =>
  way.method === 'empresa' && way.ssoCompanyId !== companyId;

/**
 * The first rule of the person's companies that a sign-in made `way` from `address` breaks: its 403, else undefined.
 * Whether an address is inside a company's networks and a way in is one it allows are the database's answers
 * (`portal_address_allowed`, migration 0040; `portal_method_allowed`, migration 0050), the same that judge the open
 * sessions when the rules change or a person joins.
 */
export async function companyRuleBroken(
  db: Db,
  userId: number,
  way: SignInWay,
  address: string,
): Promise<HttpError | undefined> {
  const [broken] = await db
    .select({
      id: companies.id,
      name: companies.name,
      networkAllowed: sql<boolean>`portal_address_allowed(${address}, ${companies.allowedNetworks})`,
      allowedMethods: companies.allowedMethods,
    })
    .from(companyMembers)
    .innerJoin(companies, eq(companies.id, companyMembers.companyId))
    .where(
      and(
        eq(companyMembers.userId, userId),
        eq(companyMembers.status, 'active'),
        eq(companies.status, 'active'),
        sql`not (portal_address_allowed(${address}, ${companies.allowedNetworks}) and portal_method_allowed(${way.method}::text, ${way.ssoCompanyId}::integer, ${companies.id}, ${companies.allowedMethods}))`,
      ),
    )
    .orderBy(companies.name)
    .limit(1);
  if (!broken) return undefined;
  if (!broken.networkAllowed)
    return new HttpError(403, rulesMessages.networkRefused(broken.name, address), 'RED_NO_PERMITIDA');
  const used = signedInElsewhere(way, broken.id) ? rulesMessages.otherCompanySignIn : methodNames[way.method];
  return new HttpError(
    403,
    rulesMessages.methodRefused(broken.name, used, broken.allowedMethods),
    'METODO_NO_PERMITIDO',
  );
}

/** Refuses (403 RED_NO_PERMITIDA / METODO_NO_PERMITIDO) a sign-in that breaks a rule of one of the person's companies. */
export async function enforceCompanyRules(db: Db, userId: number, way: SignInWay, address: string): Promise<void> {
  const broken = await companyRuleBroken(db, userId, way, address);
  if (broken) throw broken;
}

/** A recorded method, or null when none (or none the portal knows) was recorded. */
export const methodOrNull = (method: string | null): SignInMethod | null =>
  (signInMethods as readonly string[]).includes(method ?? '') ? (method as SignInMethod) : null;

/** A session's method as the rules read it: sessions from before methods were recorded count as a password's. */
export const methodOfSession = (method: string | null): SignInMethod => methodOrNull(method) ?? 'contrasena';

/** A session's way in as the rules read it, from what its row records (`method`, `sso_company_id`). */
export const wayOfSession = (session: { method: string | null; ssoCompanyId: number | null }): SignInWay => ({
  method: methodOfSession(session.method),
  ssoCompanyId: session.ssoCompanyId,
});

/**
 * Ends the open sessions of the company's active members that break its rules as they are now (a network, a method,
 * a session older than the longest allowed, or unused longer than allowed): the database's
 * `end_sessions_breaking_company_rules` (migration 0040), which a person joining the company runs too. Each ended row
 * notifies the session memory of every instance and ends the apps' sessions signed in with it, with their logouts
 * (triggers on sessions, docs/triggers.md). Answers how many ended.
 */
export async function endSessionsBreakingRules(db: Db, companyId: number): Promise<number> {
  const [row] = await rowsOf<{ ended: number }>(
    db,
    sql`select end_sessions_breaking_company_rules(${companyId}, null) as ended`,
  );
  return Number(row?.ended ?? 0);
}
