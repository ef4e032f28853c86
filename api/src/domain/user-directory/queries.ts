import { and, eq, ilike, like, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { roles, userCounts, users, type UserStatus } from '../../db/schema.js';
import { userListItem } from '../accounts/queries.js';
import { decodeCursor, encodeCursor, invalidCursor } from './cursor.js';
import { type EmailSearchPlan, searchPlan, surelyMatchingNow } from './email-search.js';
import { choosePaging, type FoundPage, findPage, placeOf } from './paging.js';

/** `%`, `_` and `\` typed by the admin are searched for literally, not as LIKE wildcards. */
export function containing(text: string): string {
  return `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

export interface UserListFilters {
  page: number;
  limit: number;
  name?: string;
  email?: string;
  status?: UserStatus;
  /** A cursor (cursor.ts): the page is the rows after (older than) the row it names. */
  after?: string;
  /** A cursor: the page is the rows before (newer than) the row it names. */
  before?: string;
}

/**
 * Past this many matches a list filtered by email or name stops counting and says so (`totalCapped`): counting every
 * match of a broad filter at a million users costs more than the page itself, more with each thousand counted
 * (docs/benchmarks.md), and nobody pages through a thousand rows to find one person: they type more.
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

/** What a filter asks of the table: the page's condition, the count's, and whether a text filter is set. */
interface UserFilter {
  textFilter: boolean;
  /** Name or status conditions besides the email. */
  others: number;
  plan: EmailSearchPlan | null;
  pageWhere: SQL | undefined;
  countWhere: SQL | undefined;
}

function userFilter(db: Db, filters: UserListFilters): UserFilter {
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

  return { textFilter: Boolean(email || name), others: conditions.length, plan, pageWhere, countWhere };
}

/**
 * How many users match: the exact count when the counters gave it, else counted no further than one past the cap
 * (TOTAL_CAP + 1 means "more than the cap").
 */
async function countTotal(
  db: Db,
  filter: UserFilter,
  found: FoundPage,
  options: { exact: number | null; cursor: boolean; limit: number },
): Promise<number> {
  const { exact, cursor, limit } = options;
  // With a text filter, a page that holds the last match already tells the total (the matches before it, then its
  // own), so only a page followed by more, or one past the end, counts them, and that count stops past the cap. A
  // narrow filter (one address) is then one query, not two.
  //
  // Nor is a count made that is known to end past the cap: when the rows before a page found by its number, with the
  // page and one row after it, pass it (a cursor's page number is the client's word, not a count), or when
  // the email filter alone is, by the sample of addresses, surely in more than twice the cap (email-search.ts: the
  // lower end of an interval 5 standard errors wide when the sample was taken, less every address deleted or changed
  // since: a filter in 2 % of a million addresses is then answered by its page and a read of 16 rows). Either way the
  // answer is the capped count's.
  const { rows, hasNextPage } = found;
  const { plan } = filter;
  const offset = (found.page - 1) * limit;
  const lastPageHere = !hasNextPage && (rows.length > 0 || offset === 0);
  const pastCap = async () =>
    hasNextPage &&
    ((!cursor && offset + rows.length >= TOTAL_CAP) ||
      (filter.others === 0 &&
        plan !== null &&
        plan.surelyMatching > 2 * TOTAL_CAP &&
        (await surelyMatchingNow(db, plan)) > 2 * TOTAL_CAP));
  if (exact !== null) return exact;
  if (lastPageHere) return offset + rows.length;
  if (await pastCap()) return TOTAL_CAP + 1;
  return cappedCount(db, filter.countWhere);
}

/** A page of the admin's user list: filters, then the page (paging.ts), then the total. */
export async function listUsers(db: Db, filters: UserListFilters) {
  if (filters.after && filters.before) throw invalidCursor();
  const after = filters.after ? decodeCursor(filters.after) : null;
  const before = filters.before ? decodeCursor(filters.before) : null;

  const filter = userFilter(db, filters);
  const { textFilter, pageWhere } = filter;

  // Without a text filter the counters answer exactly, before the page (paging.ts chooses how the page is found).
  const exact = textFilter ? null : await countedUsers(db, filters.status);
  const { page, limit } = filters;
  const paging = choosePaging({ after, before, exact, page, limit, status: filters.status });
  const found = await findPage(db, pageWhere, paging, page, limit);
  const { rows, hasNextPage } = found;

  const counted = await countTotal(db, filter, found, { exact, cursor: Boolean(after || before), limit });
  const totalCapped = textFilter && counted > TOTAL_CAP;
  const total = totalCapped ? TOTAL_CAP : counted;

  const first = rows[0];
  const last = rows.at(-1);
  return {
    data: rows.map(userListItem),
    total,
    totalCapped,
    totalPages: Math.ceil(total / limit),
    currentPage: found.page,
    hasNextPage,
    count: rows.length,
    nextCursor: hasNextPage && last ? encodeCursor(placeOf(last)) : null,
    prevCursor: found.hasPrevPage && first ? encodeCursor(placeOf(first)) : null,
  };
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
