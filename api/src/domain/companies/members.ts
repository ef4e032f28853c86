import type { Db } from '../../db/client.js';
import { companyMembers, type CompanyRole, type MemberStatus } from '../../db/schema.js';

/**
 * Makes `userId` a member of the company with `role` (an accepted invitation, a domain join, the operator). A person
 * already in the company keeps their membership as it is: answers false then, true when the row was added.
 */
export async function addMember(
  db: Db,
  companyId: number,
  userId: number,
  role: CompanyRole,
  status: MemberStatus = 'active',
): Promise<boolean> {
  const added = await db
    .insert(companyMembers)
    .values({ companyId, userId, role, status })
    .onConflictDoNothing({ target: [companyMembers.companyId, companyMembers.userId] })
    .returning({ userId: companyMembers.userId });
  return added.length > 0;
}
