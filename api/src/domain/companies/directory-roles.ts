// The roles of an app that follow the directory's groups (docs/decisions/0136-app-roles-from-directory-groups.md): a
// rule of a group may give roles of its app; the group's members holding the app's seat in the company have them
// while a group gives them. A seat given takes them at once (trigger `company_seats_group_app_roles`); a seat taken
// back takes them away (`company_seats_app_roles`); this brings them in line after the groups or the rules change,
// with the same function the seat's trigger calls (docs/decisions/0163-one-audit-writer.md).
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { currentRequestId } from '../../lib/request-scope.js';

/**
 * Each of these people's roles from the company's groups brought in line with what the rules give now, and written in
 * the company's log as the directory's: by `follow_group_app_roles()` (migration 0058), the one function the seat's
 * trigger calls too.
 */
export async function followGroupAppRoles(tx: Db, companyId: number, userIds: number[]): Promise<void> {
  const people = [...new Set(userIds)];
  if (people.length === 0) return;
  await tx.execute(
    sql`SELECT follow_group_app_roles(${companyId}::int, ${`{${people.join(',')}}`}::int[], NULL, ${currentRequestId() ?? null})`,
  );
}
