// How the member and seat lists of one company are paged and searched (docs/decisions/0074-company-members-and-seats.md).
// Both walk a primary key in order, from a cursor naming the last row shown: `company_members (company_id, user_id)`
// and `company_seats (company_id, app_id, user_id)`, so a page deep in 100 000 members costs what the first does.
import { count, like, type SQL, sql } from 'drizzle-orm';
import type { PgSelect } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.js';
import { users } from '../../db/schema.js';
import { searchPlan } from '../user-directory/email-search.js';
import { containing } from '../user-directory/queries.js';

/**
 * Past this many matches an email-filtered list stops counting and says so (`totalLimitado`), as the user list does:
 * a broad filter's exact count costs more than its page.
 */
export const FILTERED_TOTAL_CAP = 1_000;

/**
 * The condition on `users.email` for a fragment typed by an administrator (lower-cased: emails are stored so). As in
 * the user list (user-directory/email-search.ts), the trigram index is asked only for the fragment's rarest part and
 * the whole fragment is checked as text on the rows found; a fragment most addresses hold (a company's own domain) asks
 * no index: the company's members are walked in key order and checked, and the first page fills at once.
 */
export function emailCondition(db: Db, email: string): SQL {
  const fragment = email.trim().toLowerCase();
  const plan = searchPlan(db, fragment);
  const text = sql`strpos(${users.email}, ${fragment}) > 0`;
  if (plan.dense) return text;
  return sql`${like(users.email, containing(plan.indexed ?? fragment))} and ${text}`;
}

/**
 * How many rows a filtered list matches, counted no further than one past FILTERED_TOTAL_CAP (the caller says
 * `totalLimitado` past the cap): `matching` selects one row per match.
 */
export async function cappedCount(db: Db, matching: PgSelect): Promise<number> {
  const matches = matching.limit(FILTERED_TOTAL_CAP + 1).as('matches');
  const [row] = await db.select({ n: count() }).from(matches);
  return row?.n ?? 0;
}
