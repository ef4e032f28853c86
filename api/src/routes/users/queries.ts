import { and, desc, eq, ilike, like, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { roles, userCounts, users, type UserStatus } from '../../db/schema.js';
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

/**
 * Past this many matches a list filtered by email or name stops counting and says so (`totalCapped`): counting every
 * match of a broad filter at a million users costs more than the page itself, and nobody pages through 10 000 rows.
 */
export const TOTAL_CAP = 10_000;

/** The users with `status` (all of them without), from the counters the database keeps (migration 0009). */
async function countedUsers(db: Db, status?: UserStatus): Promise<number> {
  const [row] = await db
    .select({ value: sql<number>`coalesce(sum(${userCounts.n}), 0)`.mapWith(Number) })
    .from(userCounts)
    .where(status ? eq(userCounts.status, status) : undefined);
  return row?.value ?? 0;
}

/** How many users match `where`, counting no further than one past the cap. */
async function cappedCount(db: Db, where: SQL | undefined): Promise<number> {
  const matches = db
    .select({ one: sql`1` })
    .from(users)
    .where(where)
    .limit(TOTAL_CAP + 1)
    .as('matches');
  const [row] = await db.select({ value: sql<number>`count(*)`.mapWith(Number) }).from(matches);
  return row?.value ?? 0;
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

  // Without a text filter the counters answer exactly; with one, the count stops past the cap.
  const textFilter = Boolean(email || name);
  const counted = textFilter ? await cappedCount(db, where) : await countedUsers(db, filters.status);
  const totalCapped = textFilter && counted > TOTAL_CAP;
  const total = totalCapped ? TOTAL_CAP : counted;
  // One row more than the page says whether another page follows, whatever the count.
  const rows = await db
    .select()
    .from(users)
    .where(where)
    .orderBy(desc(users.createdAt), desc(users.id))
    .limit(filters.limit + 1)
    .offset((filters.page - 1) * filters.limit);

  const data = rows.slice(0, filters.limit).map(userListItem);
  return {
    data,
    total,
    totalCapped,
    totalPages: Math.ceil(total / filters.limit),
    currentPage: filters.page,
    hasNextPage: rows.length > filters.limit,
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

/** The stat cards, from the counters the database keeps by status and role (migration 0009): a few dozen rows read. */
export async function userStats(db: Db) {
  const sum = (condition?: SQL) =>
    sql<number>`coalesce(sum(${userCounts.n})${condition ? sql` filter (where ${condition})` : sql``}, 0)`.mapWith(
      Number,
    );
  const [stats] = await db
    .select({
      totalUsers: sum(),
      activeUsers: sum(sql`${userCounts.status} = 'active'`),
      pendingVerification: sum(sql`${userCounts.status} = 'pending_verification'`),
      administrators: sum(sql`${userCounts.role} = ${roles.admin}`),
    })
    .from(userCounts);
  return stats ?? { totalUsers: 0, activeUsers: 0, pendingVerification: 0, administrators: 0 };
}
