import { and, desc, eq, ilike, like, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { roles, users, type UserStatus } from '../../db/schema.js';
import { activateUser, userListItem } from '../auth/queries.js';

/** `%`, `_` and `\` typed by the admin are searched for literally, not as LIKE wildcards. */
function containing(text: string): string {
  return `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

export interface UserListFilters {
  page: number;
  limit: number;
  name?: string;
  email?: string;
  status?: UserStatus;
}

export async function listUsers(db: Db, filters: UserListFilters) {
  const conditions: SQL[] = [];
  const email = filters.email?.trim().toLowerCase();
  // Emails are stored lower-case, so a plain LIKE on the lower-cased text is case-insensitive and uses the trigram index.
  if (email) conditions.push(like(users.email, containing(email)));
  const name = filters.name?.trim();
  if (name) {
    conditions.push(ilike(sql`${users.name} || ' ' || ${users.lastName}`, containing(name)));
  }
  if (filters.status) conditions.push(eq(users.status, filters.status));
  const where = conditions.length > 0 ? and(...conditions) : undefined;

  const [totals] = await db
    .select({ value: sql<number>`count(*)`.mapWith(Number) })
    .from(users)
    .where(where);
  const rows = await db
    .select()
    .from(users)
    .where(where)
    .orderBy(desc(users.createdAt), desc(users.id))
    .limit(filters.limit)
    .offset((filters.page - 1) * filters.limit);

  const total = totals?.value ?? 0;
  const totalPages = Math.ceil(total / filters.limit);
  const data = rows.map(userListItem);
  return {
    data,
    total,
    totalPages,
    currentPage: filters.page,
    hasNextPage: filters.page < totalPages,
    count: data.length,
  };
}

/**
 * Activates those of `ids` that are pending, as verifying the emailed code does (same function: the account also gets
 * the free plan of each app); answers the ids it activated. Others are left as they are.
 */
export async function verifyPendingUsers(db: Db, ids: number[]): Promise<number[]> {
  const activated: number[] = [];
  for (const id of [...ids].sort((a, b) => a - b)) {
    if (await activateUser(db, id)) activated.push(id);
  }
  return activated;
}

export async function userStats(db: Db) {
  const count = (condition: SQL) => sql<number>`count(*) filter (where ${condition})`.mapWith(Number);
  const [stats] = await db
    .select({
      totalUsers: sql<number>`count(*)`.mapWith(Number),
      activeUsers: count(sql`${users.status} = 'active'`),
      pendingVerification: count(sql`${users.status} = 'pending_verification'`),
      administrators: count(sql`${users.role} = ${roles.admin}`),
    })
    .from(users);
  return stats ?? { totalUsers: 0, activeUsers: 0, pendingVerification: 0, administrators: 0 };
}
