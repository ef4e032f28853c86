import type { CompanyRole } from '../../db/schema.js';

export { type CompanyRole, companyRoles } from '../../db/schema.js';

/** What each role may do, ordered: an owner does all an administrator does, who does all a member does. */
const rank: Record<CompanyRole, number> = { miembro: 1, administrador: 2, propietario: 3 };

/** Whether `role` is `least` or above it. */
export const roleAtLeast = (role: CompanyRole, least: CompanyRole) => rank[role] >= rank[least];

/** The roles that manage a company (its members, invitations, seats, domains). */
export const managesCompany = (role: CompanyRole) => roleAtLeast(role, 'administrador');
