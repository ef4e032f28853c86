import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { companies, companyMembers, type CompanyRole, type CompanyStatus } from '../../db/schema.js';
import { HttpError } from '../../lib/errors.js';
import { companyMessages } from './messages.js';
import { roleAtLeast } from './roles.js';

/**
 * Who is acting on a company: a platform administrator (any company, any state) or one of its members with a role.
 * Routes under /empresas/:id read it from `request.company` (plugins/app/company-access.ts).
 */
export type CompanyAccess =
  | { companyId: number; platform: true; role: null; status: CompanyStatus }
  | { companyId: number; platform: false; role: CompanyRole; status: CompanyStatus };

/** The company's state, or undefined when there is no such company. */
export async function companyStatus(db: Db, companyId: number): Promise<CompanyStatus | undefined> {
  const [row] = await db.select({ status: companies.status }).from(companies).where(eq(companies.id, companyId));
  return row?.status;
}

/**
 * The role of `userId` in the company, when they are an active member of an active company and have at least
 * `least`; otherwise the 403 that refuses them. A person outside the company learns nothing of it, not even whether it
 * exists: an unknown company and someone else's answer the same 403.
 */
export async function memberAccess(
  db: Db,
  userId: number,
  companyId: number,
  least: CompanyRole,
): Promise<CompanyAccess> {
  const [row] = await db
    .select({ role: companyMembers.role, memberStatus: companyMembers.status, status: companies.status })
    .from(companyMembers)
    .innerJoin(companies, eq(companies.id, companyMembers.companyId))
    .where(and(eq(companyMembers.companyId, companyId), eq(companyMembers.userId, userId)));
  if (row?.memberStatus !== 'active' || !roleAtLeast(row.role, least)) {
    throw new HttpError(403, companyMessages.notCompanyManager, 'FORBIDDEN');
  }
  if (row.status !== 'active') throw new HttpError(403, companyMessages.companySuspended, 'EMPRESA_SUSPENDIDA');
  return { companyId, platform: false, role: row.role, status: row.status };
}
