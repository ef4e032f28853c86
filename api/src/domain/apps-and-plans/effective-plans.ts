// The one answer to "what plan does this person have in this app" (docs/decisions/0077-one-plan-rule-and-organization-scope.md),
// read by GET /auth/user, the plans of /plan-usuario, the partner token's readers and the OpenID Connect `plan` claim.
//
// Per app, the better of the person's own plan (user_plans) and their seats (company_seats → company_licences). A seat
// counts while its licence is unexpired, its company active, the membership active and, when the company asks for it,
// the person has a second factor (a confirmed TOTP or a passkey, as domain/second-factor/status.ts counts them).
// "Better": the higher monthly price, then the higher annual price, then the person's own plan, then the later expiry
// (none is latest), then the lower company id. An own plan whose expiry has passed is named as the app's free plan
// (what it falls back to), never by its old name; without a free plan in that app nothing is named there. That lapsed
// plan is answered apart, with its expiry, for whoever tells the person it ended (the `plan_vencido` claim).
//
// One statement answers it all, plans and memberships, so a person without any company costs the one round trip that
// their plans alone always cost; it is prepared once per database.
import { type SQL, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client.js';
import { type CompanyRole, type MemberStatus, userPlans } from '../../db/schema.js';
import { freePlanName } from '../../db/seed-data.js';

export type PlanOrigin = 'propio' | 'empresa';

/** The plan a person has in one app, and where it comes from. */
export interface EffectivePlan {
  /**
   * The person's own plan row of that app (`user_plans.id`) whether or not it won, so the entry keeps its id when a
   * seat comes or goes; for an app where they have only a seat, the licence's id negated (never a row's id).
   */
  rowId: number;
  app: { id: number; nombre: string };
  plan: { id: number; nombre: string; descripcion: string };
  fechaVencimiento: Date | null;
  origen: PlanOrigin;
  empresa: { id: number; nombre: string } | null;
}

/** A company the person belongs to (an active company; a suspended one is not shown). */
export interface Membership {
  id: number;
  nombre: string;
  rol: CompanyRole;
  estado: 'activo' | 'pendiente';
  /** Present when the company asks its members for a second factor the person has not set up: its seats wait for it. */
  segundoFactorPendiente?: true;
}

/** A person's own plan in an app whose expiry has passed (never a free plan: its lapse changes nothing). */
export interface LapsedPlan {
  app: { id: number; nombre: string };
  plan: { id: number; nombre: string };
  fechaVencimiento: Date;
}

export interface Entitlements {
  /** One per app where a plan is named, by app id. */
  plans: EffectivePlan[];
  /** One per app where the person's own plan has lapsed, by app id. */
  lapsed: LapsedPlan[];
  /** By company name. */
  empresas: Membership[];
  /** The earliest expiry named (epoch ms): past it the answer may differ with no row changed. Null: none. */
  validUntil: number | null;
}

const memberState: Record<MemberStatus, Membership['estado']> = { active: 'activo', pending_approval: 'pendiente' };

const dateOf = (value: unknown): Date | null => {
  if (value === null || value === undefined) return null;
  return value instanceof Date ? value : new Date(String(value));
};

interface Row {
  kind: 'plan' | 'empresa' | 'vencido';
  rowId: number | null;
  appId: number | null;
  appNombre: string | null;
  planId: number | null;
  planNombre: string | null;
  planDescripcion: string | null;
  expiresAt: unknown;
  origin: number | null;
  companyId: number | null;
  companyNombre: string | null;
  role: CompanyRole | null;
  memberStatus: MemberStatus | null;
  needsFactor: boolean | null;
}

/**
 * The FROM and WHERE of the person's seats that count (the rule above): `s` the seat, `l` its licence, `co` its
 * company. The one place that says when a seat gives its plan.
 */
export function countingSeats(userId: SQL, now: SQL): SQL {
  return sql`
    FROM company_seats s
    JOIN company_licences l ON l.company_id = s.company_id AND l.app_id = s.app_id
    JOIN companies co ON co.id = s.company_id
    JOIN company_members m ON m.company_id = s.company_id AND m.user_id = s.user_id
    WHERE s.user_id = ${userId}
      AND l.expires_at > ${now} AND co.status = 'active' AND m.status = 'active'
      AND (NOT co.require_second_factor
        OR EXISTS (SELECT 1 FROM totp_factors t WHERE t.user_id = s.user_id AND t.confirmed_at IS NOT NULL)
        OR EXISTS (SELECT 1 FROM passkeys k WHERE k.user_id = s.user_id))`;
}

/** A plan a company seat gives the person in an app, whether or not it is the one the rule names there. */
export interface SeatPlan {
  app: { id: number; nombre: string };
  plan: { id: number; nombre: string };
  fechaVencimiento: Date;
  empresa: { id: number; nombre: string };
}

/** The person's seats that count (of one app, or all), by app and company: what the administrators' plans dialog shows. */
export async function seatPlans(db: Db, userId: number, options: { appId?: number; now?: number } = {}) {
  const now = sql`${new Date(options.now ?? Date.now()).toISOString()}::timestamptz`;
  const rows = await rowsOf<{
    app_id: number;
    app_nombre: string;
    plan_id: number;
    plan_nombre: string;
    expires_at: unknown;
    company_id: number;
    company_nombre: string;
  }>(
    db,
    sql`SELECT c.app_id, a.nombre AS app_nombre, p.id AS plan_id, p.nombre AS plan_nombre, c.expires_at,
          co.id AS company_id, co.name AS company_nombre
        FROM (SELECT s.app_id, l.plan_id, l.expires_at, s.company_id ${countingSeats(sql`${userId}`, now)}) c
        JOIN apps a ON a.id = c.app_id
        JOIN plans p ON p.id = c.plan_id
        JOIN companies co ON co.id = c.company_id
        ${options.appId === undefined ? sql`` : sql`WHERE c.app_id = ${options.appId}`}
        ORDER BY c.app_id, co.name, co.id`,
  );
  return rows.map(
    (row): SeatPlan => ({
      app: { id: Number(row.app_id), nombre: row.app_nombre },
      plan: { id: Number(row.plan_id), nombre: row.plan_nombre },
      fechaVencimiento: dateOf(row.expires_at) as Date,
      empresa: { id: Number(row.company_id), nombre: row.company_nombre },
    }),
  );
}

function entitlementsQuery(db: Db) {
  const userId = sql.placeholder('userId');
  const now = sql`${sql.placeholder('now')}::timestamptz`;
  // Candidates per app: the own plan (origin 0, its free plan once expired) and each seat that counts (origin 1).
  const candidates = sql`
    SELECT up.app_id,
      CASE WHEN up.fecha_vencimiento <= ${now}
        THEN (SELECT f.id FROM plans f WHERE f.app_id = up.app_id AND lower(f.nombre) = ${freePlanName} ORDER BY f.id LIMIT 1)
        ELSE up.plan_id END AS plan_id,
      CASE WHEN up.fecha_vencimiento <= ${now} THEN NULL ELSE up.fecha_vencimiento END AS expires_at,
      0 AS origin, NULL::integer AS company_id, NULL::integer AS licence_id
    FROM user_plans up
    WHERE up.user_id = ${userId}
    UNION ALL
    SELECT s.app_id, l.plan_id, l.expires_at, 1, s.company_id, l.id
    ${countingSeats(sql`${userId}`, now)}`;
  const best = sql`
    SELECT DISTINCT ON (c.app_id)
      'plan' AS kind,
      coalesce(own.id, -c.licence_id) AS row_id,
      c.app_id, a.nombre AS app_nombre, p.id AS plan_id, p.nombre AS plan_nombre, p.descripcion AS plan_descripcion,
      c.expires_at, c.origin, c.company_id, co.name AS company_nombre,
      NULL::text AS role, NULL::text AS member_status, NULL::boolean AS needs_factor
    FROM (${candidates}) c
    JOIN plans p ON p.id = c.plan_id
    JOIN apps a ON a.id = c.app_id
    LEFT JOIN companies co ON co.id = c.company_id
    LEFT JOIN user_plans own ON own.user_id = ${userId} AND own.app_id = c.app_id
    ORDER BY c.app_id, p.precio_mensual DESC, p.precio_anual DESC, c.origin, c.expires_at DESC NULLS FIRST, c.company_id`;
  const memberships = sql`
    SELECT 'empresa', NULL::integer, NULL::integer, NULL::text, NULL::integer, NULL::text, NULL::text,
      NULL::timestamptz, NULL::integer, co.id, co.name, m.role, m.status,
      co.require_second_factor
        AND NOT EXISTS (SELECT 1 FROM totp_factors t WHERE t.user_id = m.user_id AND t.confirmed_at IS NOT NULL)
        AND NOT EXISTS (SELECT 1 FROM passkeys k WHERE k.user_id = m.user_id)
    FROM company_members m
    JOIN companies co ON co.id = m.company_id
    WHERE m.user_id = ${userId} AND co.status = 'active'`;
  const lapsed = sql`
    SELECT 'vencido', up.id, up.app_id, a.nombre, p.id, p.nombre, NULL::text,
      up.fecha_vencimiento, 0, NULL::integer, NULL::text, NULL::text, NULL::text, NULL::boolean
    FROM user_plans up
    JOIN plans p ON p.id = up.plan_id
    JOIN apps a ON a.id = up.app_id
    WHERE up.user_id = ${userId} AND up.fecha_vencimiento <= ${now} AND lower(p.nombre) <> ${freePlanName}`;
  return db
    .select({
      kind: sql<Row['kind']>`r.kind`,
      rowId: sql<number | null>`r.row_id`,
      appId: sql<number | null>`r.app_id`,
      appNombre: sql<string | null>`r.app_nombre`,
      planId: sql<number | null>`r.plan_id`,
      planNombre: sql<string | null>`r.plan_nombre`,
      planDescripcion: sql<string | null>`r.plan_descripcion`,
      expiresAt: sql`r.expires_at`.mapWith(userPlans.fechaVencimiento),
      origin: sql<number | null>`r.origin`,
      companyId: sql<number | null>`r.company_id`,
      companyNombre: sql<string | null>`r.company_nombre`,
      role: sql<CompanyRole | null>`r.role`,
      memberStatus: sql<MemberStatus | null>`r.member_status`,
      needsFactor: sql<boolean | null>`r.needs_factor`,
    })
    .from(sql`((${best}) UNION ALL (${memberships}) UNION ALL (${lapsed})) AS r`)
    .orderBy(sql`r.kind DESC, r.app_id, lower(r.company_nombre), r.company_id`)
    .prepare('effective_plans');
}

// Built once per database: GET /auth/user, the most frequent signed-in request, reads it when its memory misses.
const queries = new WeakMap<Db, ReturnType<typeof entitlementsQuery>>();

/**
 * The person's plan in each app (or in `appId` alone) by the rule above, their companies, and until when that answer
 * holds. `now` is the moment expiries are judged at (the app's clock).
 */
export async function entitlements(
  db: Db,
  userId: number,
  options: { appId?: number; now?: number } = {},
): Promise<Entitlements> {
  let query = queries.get(db);
  if (!query) {
    query = entitlementsQuery(db);
    queries.set(db, query);
  }
  // Every app is read even for one: a person has a handful, and one shape keeps the statement's plan cached.
  const rows = (await query.execute({ userId, now: new Date(options.now ?? Date.now()).toISOString() })) as Row[];
  const plans: EffectivePlan[] = [];
  const lapsed: LapsedPlan[] = [];
  const empresas: Membership[] = [];
  let validUntil: number | null = null;
  for (const row of rows) {
    if (row.kind === 'empresa') {
      empresas.push({
        id: Number(row.companyId),
        nombre: String(row.companyNombre),
        rol: row.role as CompanyRole,
        estado: memberState[row.memberStatus as MemberStatus],
        ...(row.needsFactor === true ? { segundoFactorPendiente: true as const } : {}),
      });
      continue;
    }
    if (options.appId !== undefined && row.appId !== options.appId) continue;
    if (row.kind === 'vencido') {
      lapsed.push({
        app: { id: Number(row.appId), nombre: String(row.appNombre) },
        plan: { id: Number(row.planId), nombre: String(row.planNombre) },
        fechaVencimiento: dateOf(row.expiresAt) as Date,
      });
      continue;
    }
    const fechaVencimiento = dateOf(row.expiresAt);
    if (fechaVencimiento && (validUntil === null || fechaVencimiento.getTime() < validUntil)) {
      validUntil = fechaVencimiento.getTime();
    }
    const fromCompany = Number(row.origin) === 1;
    plans.push({
      rowId: Number(row.rowId),
      app: { id: Number(row.appId), nombre: String(row.appNombre) },
      plan: { id: Number(row.planId), nombre: String(row.planNombre), descripcion: String(row.planDescripcion) },
      fechaVencimiento,
      origen: fromCompany ? 'empresa' : 'propio',
      empresa: fromCompany ? { id: Number(row.companyId), nombre: String(row.companyNombre) } : null,
    });
  }
  return { plans, lapsed, empresas, validUntil };
}

/** The person's plan in one app by the rule, or undefined when none is named there. */
export async function effectivePlan(db: Db, userId: number, appId: number, now?: number) {
  const { plans, validUntil } = await entitlements(db, userId, { appId, now });
  return { plan: plans[0], validUntil };
}

/**
 * The OpenID Connect `organization` claim, shaped like Keycloak's organization membership mapper with its id
 * attribute (a JSON object by company name), plus the person's role there: active memberships only.
 */
export function organizationClaim(empresas: readonly Membership[]): Record<string, { id: string; roles: string[] }> {
  const claim: Record<string, { id: string; roles: string[] }> = {};
  for (const empresa of empresas) {
    if (empresa.estado !== 'activo') continue;
    claim[empresa.nombre] = { id: String(empresa.id), roles: [empresa.rol] };
  }
  return claim;
}
