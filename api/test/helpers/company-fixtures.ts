// Companies, members and licences written straight to the database, for the suites of the company calls: the rows the
// platform administrators' calls would make, without going through them.
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { companies, companyLicences, type CompanyRole, type MemberStatus, plans, users } from '../../src/db/schema.js';
import { addMember } from '../../src/domain/companies/members.js';
import { createUser, sessionToken } from './app.js';

export const memberPassword = 'clave-de-miembro';

export async function insertCompany(app: FastifyInstance, name: string): Promise<number> {
  const [row] = await app.db.insert(companies).values({ name }).returning({ id: companies.id });
  if (!row) throw new Error('company not created');
  return row.id;
}

/** An active account that belongs to the company with `role`, and a way to get a session of it. */
export async function insertMember(
  app: FastifyInstance,
  companyId: number,
  email: string,
  role: CompanyRole,
  status: MemberStatus = 'active',
): Promise<{ id: number; email: string; token: () => Promise<string> }> {
  const id = await createUser(app, { email, password: memberPassword, status: 'active' });
  await addMember(app.db, companyId, id, role, status);
  const token = async () => {
    const [user] = await app.db.select().from(users).where(eq(users.id, id));
    if (!user) throw new Error(`no user ${email}`);
    return sessionToken(app, user);
  };
  return { id, email, token };
}

/** The id of the plan named `name` of app `appId` (the seed's 'free' and 'PRO'). */
export async function planOf(app: FastifyInstance, appId: number, name = 'PRO'): Promise<number> {
  const [row] = await app.db
    .select({ id: plans.id })
    .from(plans)
    .where(and(eq(plans.appId, appId), eq(plans.nombre, name)));
  if (!row) throw new Error(`no plan ${name} of app ${appId}`);
  return row.id;
}

export async function insertLicence(
  app: FastifyInstance,
  companyId: number,
  appId: number,
  seats: number,
  expiresAt = new Date(Date.now() + 365 * 86_400_000),
): Promise<void> {
  await app.db.insert(companyLicences).values({ companyId, appId, planId: await planOf(app, appId), seats, expiresAt });
}

export async function userIdOf(app: FastifyInstance, email: string): Promise<number> {
  const [row] = await app.db.select({ id: users.id }).from(users).where(eq(users.email, email));
  if (!row) throw new Error(`no user ${email}`);
  return row.id;
}

/** A request with a bearer token (none when undefined). */
export function call(
  app: FastifyInstance,
  method: string,
  url: string,
  token: string | undefined,
  payload?: unknown,
): Promise<LightMyRequestResponse> {
  return app.inject({
    method: method as 'GET',
    url,
    ...(payload === undefined ? {} : { payload: payload as object }),
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
}
