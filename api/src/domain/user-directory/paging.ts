// The three ways a page of the user list is found (docs: keyset and day-counter paging): by its number, stepping
// over the rows before it (from the end of the list when that is shorter, counted per day when only the status
// filters); after or before a cursor's row; or not at all past the end. `choosePaging` is the one place that decides.
import { and, asc, desc, getTableColumns, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { userDayCounts, users, type UserStatus } from '../../db/schema.js';
import { beyond, type ListPosition, positionAt } from './cursor.js';

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
export interface Skip {
  offset: number;
  byDay: { status?: UserStatus } | null;
}

/**
 * The row `offset` rows into the list in `order` (the users with `status`, or all), as a row subquery: the day that
 * holds it from running sums of the users per day the database keeps (migration 0014: a few counters a day), then the
 * rest stepped over on the index within that day, instead of every index entry before it (half a million for a page in
 * the middle of a million users; a day holds a few thousand). One statement: the counters and the rows are read in one
 * snapshot, and the triggers keep them in the writing transaction, so they agree. No row (an offset past the end) gives
 * no page.
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
export function selectRows(db: Db, where: SQL | undefined, order: Order, limit: number, skip?: Skip) {
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

export const placeOf = (row: Row): ListPosition => ({ at: row.positionAt, id: row.id });

/** A page's rows (newest first) and whether rows come after and before them. */
export interface FoundPage {
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

/** How the page asked for is found. */
export type Paging =
  | { kind: 'after'; cursor: ListPosition }
  | { kind: 'before'; cursor: ListPosition }
  | { kind: 'pastEnd' }
  | { kind: 'fromEnd'; total: number; status?: UserStatus }
  | { kind: 'byOffset'; byDay: Skip['byDay'] };

/**
 * The choice of strategy. A cursor finds its page from the row it names (cursor.ts). Without a text filter the
 * counters give the exact total (`exact`) before the page: a page past the end needs no query, and a page past the
 * middle is found from the end of the list, so the last pages cost what the first ones do. A text-filtered list has
 * no exact total: its page is found by offset, stepped over by the query itself.
 */
export function choosePaging(options: {
  after: ListPosition | null;
  before: ListPosition | null;
  exact: number | null;
  page: number;
  limit: number;
  status?: UserStatus;
}): Paging {
  const { after, before, exact, page, limit, status } = options;
  if (after) return { kind: 'after', cursor: after };
  if (before) return { kind: 'before', cursor: before };
  if (exact === null) return { kind: 'byOffset', byDay: null };
  const skipped = (page - 1) * limit;
  if (skipped >= exact) return { kind: 'pastEnd' };
  if (exact - skipped - limit < skipped) return { kind: 'fromEnd', total: exact, status };
  return { kind: 'byOffset', byDay: { status } };
}

/** The page of `where` (newest first) found the way `paging` says. */
export function findPage(
  db: Db,
  where: SQL | undefined,
  paging: Paging,
  page: number,
  limit: number,
): Promise<FoundPage> {
  switch (paging.kind) {
    case 'after':
      return pageAfter(db, where, paging.cursor, page, limit);
    case 'before':
      return pageBefore(db, where, paging.cursor, page, limit);
    case 'pastEnd':
      return Promise.resolve({ rows: [], hasNextPage: false, hasPrevPage: false, page });
    case 'fromEnd':
      return pageFromEnd(db, where, page, limit, paging.total, { status: paging.status });
    case 'byOffset':
      return pageByOffset(db, where, page, limit, paging.byDay);
  }
}
