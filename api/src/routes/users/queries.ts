import { and, asc, desc, eq, getTableColumns, ilike, like, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { roles, userCounts, userDayCounts, users, type UserStatus } from '../../db/schema.js';
import { activateUser, userListItem } from '../auth/queries.js';
import { beyond, decodeCursor, encodeCursor, invalidCursor, type ListPosition, positionAt } from './cursor.js';
import { searchPlan, surelyMatchingNow } from './email-search.js';

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
  /** A cursor (cursor.ts): the page is the rows after (older than) the row it names. */
  after?: string;
  /** A cursor: the page is the rows before (newer than) the row it names. */
  before?: string;
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

/** The list's order, newest first (`id` telling apart users created at the same instant), or its reverse. */
type Order = 'newest' | 'oldest';
const orderBy: Record<Order, SQL[]> = {
  newest: [desc(users.createdAt), desc(users.id)],
  oldest: [asc(users.createdAt), asc(users.id)],
};

/**
 * How many rows to skip, and whether `where` is the status filter alone (`byDay`: no filter, or `status`), whose
 * skipped rows are counted from the users per day the database keeps.
 */
interface Skip {
  offset: number;
  byDay: { status?: UserStatus } | null;
}

/**
 * The row `offset` rows into the list in `order` (the users with `status`, or all), as a row subquery: the day that
 * holds it from running sums of the users per day the database keeps (migration 0014: a few counters a day), then the
 * rest stepped over on the index within that day, instead of every index entry before it (a page in the middle of a
 * million users: 500,000 entries, 40 ms; a day holds a few thousand). One statement: the counters and the rows are read
 * in one snapshot, and the triggers keep them in the writing transaction, so they agree. No row (an offset past the
 * end) gives no page.
 */
function startByDay(offset: number, order: Order, status?: UserStatus): SQL {
  const direction = order === 'newest' ? sql.raw('desc') : sql.raw('asc');
  const ofStatus = (column: SQLWrapper) => (status ? sql`and ${column} = ${status}` : sql``);
  return sql`(with days as (
      select ${userDayCounts.day} as day, sum(${userDayCounts.n})::bigint as n from ${userDayCounts}
      where true ${ofStatus(userDayCounts.status)}
      group by ${userDayCounts.day} having sum(${userDayCounts.n}) > 0
    ), target as (
      select day, before from (
        select day, n,
          coalesce(sum(n) over (order by day ${direction} rows between unbounded preceding and 1 preceding), 0)::bigint
            as before
        from days
      ) as ranked
      where before <= ${offset}::bigint and ${offset}::bigint < before + n
    )
    select inside.created_at, inside.id from users as inside
    where inside.created_at >= (select day::timestamp at time zone 'UTC' from target)
      and inside.created_at < (select (day + 1)::timestamp at time zone 'UTC' from target)
      ${ofStatus(sql`inside.status`)}
    order by inside.created_at ${direction}, inside.id ${direction}
    offset (select ${offset}::bigint - before from target) limit 1)`;
}

/**
 * Up to `limit` rows of `where` in `order`, after `skip`, each with its place for a cursor. With the status filter
 * alone, the row the page starts at is found by startByDay and the page read from there; otherwise the offset is
 * stepped over by the query itself.
 */
function selectRows(db: Db, where: SQL | undefined, order: Order, limit: number, skip?: Skip) {
  const start = skip?.offset && skip.byDay ? startByDay(skip.offset, order, skip.byDay.status) : null;
  const fromStart = start
    ? order === 'newest'
      ? sql`(${users.createdAt}, ${users.id}) <= ${start}`
      : sql`(${users.createdAt}, ${users.id}) >= ${start}`
    : undefined;
  return db
    .select({ ...getTableColumns(users), positionAt })
    .from(users)
    .where(and(where, fromStart))
    .orderBy(...orderBy[order])
    .limit(limit)
    .offset(start ? 0 : (skip?.offset ?? 0));
}

type Row = Awaited<ReturnType<typeof selectRows>>[number];

const placeOf = (row: Row): ListPosition => ({ at: row.positionAt, id: row.id });

/** A page's rows (newest first) and whether rows come after and before them. */
interface FoundPage {
  rows: Row[];
  hasNextPage: boolean;
  hasPrevPage: boolean;
  /** The page number the rows are: the one asked for, or 1 when walking back reached the top of the list. */
  page: number;
}

/** The page `page` by skipping the rows before it: one row more than the page says whether another follows. */
async function pageByOffset(
  db: Db,
  where: SQL | undefined,
  page: number,
  limit: number,
  byDay: Skip['byDay'],
): Promise<FoundPage> {
  const offset = (page - 1) * limit;
  const rows = await selectRows(db, where, 'newest', limit + 1, { offset, byDay });
  return {
    rows: rows.slice(0, limit),
    hasNextPage: rows.length > limit,
    hasPrevPage: offset > 0 && rows.length > 0,
    page,
  };
}

/**
 * The page `page` of an exactly counted list (`total` rows, `where` the status filter alone, `byDay`) found from its
 * end: the rows older than the page are skipped oldest first, so the last pages cost what the first ones do. One older
 * row more says whether a page follows.
 */
async function pageFromEnd(
  db: Db,
  where: SQL | undefined,
  page: number,
  limit: number,
  total: number,
  byDay: NonNullable<Skip['byDay']>,
) {
  const newer = (page - 1) * limit;
  const size = Math.min(limit, total - newer);
  const older = total - newer - size;
  const offset = Math.max(0, older - 1);
  const rows = (await selectRows(db, where, 'oldest', total - newer - offset, { offset, byDay })).reverse();
  return { rows: rows.slice(0, size), hasNextPage: rows.length > size, hasPrevPage: newer > 0, page };
}

/** The page after the row `after` names (older rows): the cursor row was on a page before this one. */
async function pageAfter(db: Db, where: SQL | undefined, after: ListPosition, page: number, limit: number) {
  const rows = await selectRows(db, and(where, beyond(after, 'older')), 'newest', limit + 1);
  return { rows: rows.slice(0, limit), hasNextPage: rows.length > limit, hasPrevPage: rows.length > 0, page };
}

/**
 * The page before the row `before` names (newer rows), found oldest first from it and turned back. Fewer than a page
 * of newer rows means the top of the list was reached (users were deleted since): the first page is answered instead.
 */
async function pageBefore(db: Db, where: SQL | undefined, before: ListPosition, page: number, limit: number) {
  const newer = await selectRows(db, and(where, beyond(before, 'newer')), 'oldest', limit + 1);
  const oldest = newer[0];
  if (newer.length < limit || !oldest) return pageByOffset(db, where, 1, limit, null);
  const rows = newer.slice(0, limit).reverse();
  const following = await selectRows(db, and(where, beyond(placeOf(oldest), 'older')), 'newest', 1);
  return { rows, hasNextPage: following.length > 0, hasPrevPage: newer.length > limit, page };
}

export async function listUsers(db: Db, filters: UserListFilters) {
  if (filters.after && filters.before) throw invalidCursor();
  const after = filters.after ? decodeCursor(filters.after) : null;
  const before = filters.before ? decodeCursor(filters.before) : null;

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

  // Without a text filter the counters answer exactly, before the page: a page past the middle is then found from the
  // end of the list, and one past the end needs no query. A cursor finds its page from the row it names (cursor.ts).
  const textFilter = Boolean(email || name);
  const exact = textFilter ? null : await countedUsers(db, filters.status);
  const { page, limit } = filters;
  const skipped = (page - 1) * limit;
  const found: FoundPage = after
    ? await pageAfter(db, pageWhere, after, page, limit)
    : before
      ? await pageBefore(db, pageWhere, before, page, limit)
      : exact !== null && skipped >= exact
        ? { rows: [], hasNextPage: false, hasPrevPage: false, page }
        : exact !== null && exact - skipped - limit < skipped
          ? await pageFromEnd(db, pageWhere, page, limit, exact, { status: filters.status })
          : await pageByOffset(db, pageWhere, page, limit, textFilter ? null : { status: filters.status });
  const { rows, hasNextPage } = found;

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
  const offset = (found.page - 1) * limit;
  const lastPageHere = !hasNextPage && (rows.length > 0 || offset === 0);
  const pastCap = async () =>
    hasNextPage &&
    ((!after && !before && offset + rows.length >= TOTAL_CAP) ||
      (conditions.length === 0 &&
        plan !== null &&
        plan.surelyMatching > 2 * TOTAL_CAP &&
        (await surelyMatchingNow(db, plan)) > 2 * TOTAL_CAP));
  const counted =
    exact ??
    (lastPageHere ? offset + rows.length : (await pastCap()) ? TOTAL_CAP + 1 : await cappedCount(db, countWhere));
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
