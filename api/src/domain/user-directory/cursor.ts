import { sql, type SQL } from 'drizzle-orm';
import { HttpError } from '../../lib/errors.js';
import { users } from '../../db/schema.js';
import { userDirectoryMessages } from './messages.js';

// Keyset pagination of `GET /user/listar` (docs/decisions/0020-user-list-keyset-and-day-paging.md). A cursor names one
// row of the list by its place in the list's order, `created_at` then `id`, newest first, so the next or previous page
// is found on the index `users_created_at_idx (created_at DESC, id DESC)` (or `users_status_created_at_idx` under a
// status filter) from that row, instead of stepping over every row before it. It is not signed: any place in the list
// is one the administrator may read anyway, so a cursor grants nothing; one that does not name a place (bad text, bad
// JSON, an impossible time) is a 400.

/** A place in the list: the row's `created_at` to the microsecond, in UTC, and its id. */
export interface ListPosition {
  at: string;
  id: number;
}

/** The microsecond timestamp the database writes (`positionAt`), the only one a cursor may carry. */
const exactTime = /^(\d{4})-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.(\d{3})\d{3}Z$/;
const largestId = 2_147_483_647;

export const invalidCursor = () => new HttpError(400, userDirectoryMessages.invalidCursor, 'INVALID_CURSOR');

/**
 * `created_at` as the text a cursor carries: PostgreSQL keeps microseconds, a JavaScript Date only milliseconds, and a
 * cursor rounded to the millisecond would skip or repeat users created within the same millisecond.
 */
export const positionAt = sql<string>`to_char(${users.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

export function encodeCursor(position: ListPosition): string {
  return Buffer.from(JSON.stringify({ t: position.at, i: position.id })).toString('base64url');
}

/** The place a cursor names, or the 400 INVALID_CURSOR; never a value the database would refuse. */
export function decodeCursor(cursor: string): ListPosition {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalidCursor();
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalidCursor();
  const { t, i, ...rest } = value as Record<string, unknown>;
  if (Object.keys(rest).length > 0 || typeof t !== 'string' || typeof i !== 'number') throw invalidCursor();
  if (!Number.isInteger(i) || i < 1 || i > largestId) throw invalidCursor();
  const parts = exactTime.exec(t);
  // Date reads '2026-02-30' as 2 March: the time must come back as written (and PostgreSQL has no year 0).
  const ms = Date.parse(t);
  if (!parts || Number(parts[1]) < 1 || Number.isNaN(ms) || new Date(ms).toISOString() !== `${t.slice(0, 23)}Z`) {
    throw invalidCursor();
  }
  return { at: t, id: i };
}

/** Rows after `position` in the list's order (older), or before it (newer). */
export function beyond(position: ListPosition, direction: 'older' | 'newer'): SQL {
  const place = sql`(${position.at}::timestamptz, ${position.id}::integer)`;
  return direction === 'older'
    ? sql`(${users.createdAt}, ${users.id}) < ${place}`
    : sql`(${users.createdAt}, ${users.id}) > ${place}`;
}
