import { and, desc, eq, ilike, like, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { roles, userCounts, users, type UserStatus } from '../../db/schema.js';
import { activateUser, userListItem } from '../auth/queries.js';
import { searchPlan } from './email-search.js';

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
 * match of a broad filter at a million users costs more than the page itself (a filter in 2 % of a million addresses:
 * 14 ms to 1 000, 83 ms to 10 000), and nobody pages through a thousand rows to find one person: they type more.
 */
export const TOTAL_CAP = 1_000;

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
  const name = filters.name?.trim();
  if (name) {
    conditions.push(ilike(sql`${users.name} || ' ' || ${users.lastName}`, containing(name)));
  }
  if (filters.status) conditions.push(eq(users.status, filters.status));
  // Emails are stored lower-case, so the lower-cased fragment is a case-insensitive match. The trigram index is asked
  // for its rarest part only, and the whole fragment is checked as text (strpos: literal, never the index) on the rows
  // found (email-search.ts). A dense fragment's page is found walking the table newest first, and a very dense one's
  // count reading it in its own order: neither asks the index.
  const email = filters.email?.trim().toLowerCase();
  const plan = email ? searchPlan(db, email) : null;
  const indexed = email ? like(users.email, containing(plan?.indexed ?? email)) : undefined;
  const text = email ? sql`strpos(${users.email}, ${email}) > 0` : undefined;
  const where = and(...conditions, indexed, plan?.indexed ? text : undefined);
  const walked = and(...conditions, text);
  const pageWhere = plan?.dense ? walked : where;
  const countWhere = plan?.walkCount ? walked : where;

  // One row more than the page says whether another page follows, whatever the count.
  const offset = (filters.page - 1) * filters.limit;
  const rows = await db
    .select()
    .from(users)
    .where(pageWhere)
    .orderBy(desc(users.createdAt), desc(users.id))
    .limit(filters.limit + 1)
    .offset(offset);
  const hasNextPage = rows.length > filters.limit;

  // Without a text filter the counters answer exactly. With one, a page that holds the last match already tells the
  // total (the matches before it, then its own), so only a page followed by more, or one past the end, counts them,
  // and that count stops past the cap. A narrow filter (one address) is then one query, not two.
  const textFilter = Boolean(email || name);
  const lastPageHere = !hasNextPage && (rows.length > 0 || offset === 0);
  const counted = !textFilter
    ? await countedUsers(db, filters.status)
    : lastPageHere
      ? offset + rows.length
      : await cappedCount(db, countWhere);
  const totalCapped = textFilter && counted > TOTAL_CAP;
  const total = totalCapped ? TOTAL_CAP : counted;

  const data = rows.slice(0, filters.limit).map(userListItem);
  return {
    data,
    total,
    totalCapped,
    totalPages: Math.ceil(total / filters.limit),
    currentPage: filters.page,
    hasNextPage,
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
