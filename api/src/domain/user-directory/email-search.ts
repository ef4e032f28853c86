import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client.js';
import { userCounts, userEmailRemovals, users } from '../../db/schema.js';

// How `GET /user/listar?email=` searches a million addresses (docs/decisions/0021-email-search-sampling.md). The
// trigram index answers `email LIKE '%fragment%'` by reading the posting list of every trigram of the fragment, and a
// trigram that most addresses have ('gma', 'ail', 'com'; 'usu' and 'dom' in the bench's data) is a list of most of the
// table: 'usuario0004242' read 1,655 index pages to find one row. So the index is asked only for the fragment's rarest
// part, and the whole fragment is checked on the rows it finds. Which trigrams are rare, and how many addresses a
// fragment matches, is read from a sample of the table's addresses each instance keeps.

/** Addresses in the sample: enough to tell a trigram in 1 % of the table from one in 0.05 %. */
export const SAMPLE_SIZE = 4000;
/** A sample is renewed, in the background, when older than this. */
const SAMPLE_AGE_MS = 10 * 60_000;
/**
 * A fragment in more of the sample than this is dense: the newest matches are found sooner by walking the table
 * newest first than by reading every match from the index and sorting them.
 */
export const DENSE_SHARE = 0.002;
/** A fragment in more of the sample than this is counted by reading the table in order (EmailSearchPlan). */
export const WALKED_COUNT_SHARE = 0.01;
/** Reading a row to check it costs about this many index entries. */
const ROW_COST = 10;

export interface EmailSearchPlan {
  /** The part of the fragment the trigram index is asked for (at least 3 letters or digits); null: the whole one. */
  indexed: string | null;
  /** Whether the page is better found by walking the table newest first (the index is then not asked for it). */
  dense: boolean;
  /**
   * Whether the count (up to the cap) is better made reading the table in its own order until the cap: when at
   * least 1 address in WALKED_COUNT_SHARE⁻¹ matches, the cap's worth is found within a few tens of thousands of rows.
   */
  walkCount: boolean;
  /**
   * How many addresses surely contain the fragment, from the sample (0 without one): the lower end of a confidence
   * interval so wide (SURE_Z standard errors) that the table held fewer only by one chance in millions, when the
   * sample was taken: surelyMatchingNow takes off what was removed since. A count that puts past the cap need not be
   * made (queries.ts).
   */
  surelyMatching: number;
  /** The removals counted (migration 0013) when the sample was taken. */
  removalsAt: number;
}

/** Standard errors below the sample's share that `surelyMatching` stays (Wilson's interval): one chance in 3.5 million. */
const SURE_Z = 5;

/**
 * The lower end of Wilson's interval for a share seen `hits` times in `size` draws, SURE_Z standard errors wide.
 * Exported for its tests.
 */
export function surelyAtLeastShare(hits: number, size: number): number {
  if (size === 0) return 0;
  const share = hits / size;
  const z2 = SURE_Z * SURE_Z;
  const centre = share + z2 / (2 * size);
  const spread = SURE_Z * Math.sqrt((share * (1 - share)) / size + z2 / (4 * size * size));
  return Math.max(0, (centre - spread) / (1 + z2 / size));
}

/** The longest part tried, in letters and digits: past 4 trigrams, a part matches hardly fewer addresses. */
const LONGEST_PART = 6;
/** How much of a fragment its parts are chosen from (an address is at most 254 characters). */
const SEARCHED_LENGTH = 40;

/**
 * Chooses how to search `fragment` (lower-case) given a sample of the addresses: the part of at least 3 letters or
 * digits in a row, up to LONGEST_PART, that is cheapest to search: its trigrams read from the index (each costs the
 * share of addresses that have it) plus the rows left to check (the share of addresses that contain the part,
 * ROW_COST each). Something missing from the sample counts as half an address. Without a sample, or without 3
 * letters or digits in a row, the whole fragment goes to the index as before.
 */
export function emailSearchPlan(
  fragment: string,
  sample: readonly string[],
  tableSize = 0,
  removalsAt = 0,
): EmailSearchPlan {
  if (sample.length === 0) return { indexed: null, dense: false, walkCount: false, surelyMatching: 0, removalsAt };
  const shares = new Map<string, number>();
  const shareOf = (text: string) => {
    let share = shares.get(text);
    if (share === undefined) {
      let count = 0;
      for (const email of sample) if (email.includes(text)) count++;
      share = Math.max(count, 0.5) / sample.length;
      shares.set(text, share);
    }
    return share;
  };
  // The whole fragment's hits give both its share (as shareOf counts it) and what the sample vouches for.
  let hits = 0;
  for (const email of sample) if (email.includes(fragment)) hits++;
  shares.set(fragment, Math.max(hits, 0.5) / sample.length);
  const surelyMatching = Math.floor(tableSize * surelyAtLeastShare(hits, sample.length));
  const dense = shareOf(fragment) > DENSE_SHARE;
  const walkCount = shareOf(fragment) > WALKED_COUNT_SHARE;
  let best: { part: string; cost: number } | null = null;
  // Parts are looked for in the first SEARCHED_LENGTH characters: a few milliseconds at most, whatever is typed.
  for (const run of fragment.slice(0, SEARCHED_LENGTH).split(/[^a-z0-9]+/)) {
    for (let start = 0; start + 3 <= run.length; start++) {
      let trigrams = 0;
      for (let end = start + 3; end <= Math.min(run.length, start + LONGEST_PART); end++) {
        trigrams += shareOf(run.slice(end - 3, end));
        const part = run.slice(start, end);
        const cost = trigrams + ROW_COST * shareOf(part);
        if (!best || cost < best.cost) best = { part, cost };
      }
    }
  }
  return { indexed: best?.part ?? null, dense, walkCount, surelyMatching, removalsAt };
}

interface Sample {
  emails: string[];
  /** The users in the table when the sample was taken (the counters the database keeps). */
  tableSize: number;
  /** The removals counted then (migration 0013). */
  removalsAt: number;
  takenAt: number;
  renewing: boolean;
  /** The plans made from these emails, by fragment (a few milliseconds each; an admin pages through one filter). */
  plans: Map<string, EmailSearchPlan>;
}

/** Plans kept per sample, the oldest forgotten first. */
const PLANS_KEPT = 500;

/** Each instance's sample, per database it serves. */
const samples = new WeakMap<Db, Sample>();

/** The users deleted, or whose email changed, so far (migration 0013). */
const removals = sql`(select coalesce(sum(${userEmailRemovals.n}), 0) from ${userEmailRemovals})`;

/**
 * A random sample of about SAMPLE_SIZE addresses (every address of a smaller table), lower-case as stored, with the
 * users in the table (the count the database keeps, migration 0009) and the removals so far, all read in one
 * statement: one snapshot of the table.
 */
async function takeSample(db: Db): Promise<{ emails: string[]; tableSize: number; removalsAt: number }> {
  const counted = sql`(select coalesce(sum(${userCounts.n}), 0) from ${userCounts})`;
  // The share to sample, from that count, so that about SAMPLE_SIZE come back.
  const share = sql`least(100, 100.0 * ${SAMPLE_SIZE} / greatest(1, ${counted}))`;
  const rows = await rowsOf<{ email: string; table_size: string | number; removals: string | number }>(
    db,
    sql`select ${users.email} as email, ${counted} as table_size, ${removals} as removals
        from ${users} tablesample bernoulli (${share}) limit ${SAMPLE_SIZE}`,
  );
  // An empty sample plans nothing, so its table size and removals are not needed.
  return {
    emails: rows.map((row) => row.email),
    tableSize: Number(rows[0]?.table_size ?? 0),
    removalsAt: Number(rows[0]?.removals ?? 0),
  };
}

/**
 * How many addresses surely contain the fragment of `plan` now: what the sample said (EmailSearchPlan.surelyMatching)
 * less every user deleted or whose email changed since (each takes at most one match away; new users only add).
 */
export async function surelyMatchingNow(db: Db, plan: EmailSearchPlan): Promise<number> {
  if (plan.surelyMatching === 0) return 0;
  const [row] = await rowsOf<{ removals: string | number }>(db, sql`select ${removals} as removals`);
  return Math.max(0, plan.surelyMatching - (Number(row?.removals ?? 0) - plan.removalsAt));
}

/**
 * Takes `db`'s sample anew (searchPlan does it in the background; a test waits for it). A failed read
 * keeps the sample there was, and is tried again SAMPLE_AGE_MS later.
 */
export async function renewEmailSample(db: Db): Promise<void> {
  const kept = samples.get(db) ?? {
    emails: [],
    tableSize: 0,
    removalsAt: 0,
    takenAt: 0,
    renewing: false,
    plans: new Map(),
  };
  samples.set(db, kept);
  kept.renewing = true;
  try {
    Object.assign(kept, await takeSample(db));
    kept.plans.clear();
  } catch {
    // The searches go on with the sample there was (none: the whole fragment to the index, as before).
  } finally {
    kept.takenAt = Date.now();
    kept.renewing = false;
  }
}

/**
 * How to search `fragment` in `db` (emailSearchPlan) with the sample this instance keeps: none until the first is
 * taken (that first search goes as before), then renewed in the background once it is SAMPLE_AGE_MS old. Never in a
 * request's way, never its error.
 */
export function searchPlan(db: Db, fragment: string, now = Date.now()): EmailSearchPlan {
  const kept = samples.get(db);
  if (!kept || (now - kept.takenAt > SAMPLE_AGE_MS && !kept.renewing)) void renewEmailSample(db);
  if (!kept) return emailSearchPlan(fragment, []);
  let plan = kept.plans.get(fragment);
  if (!plan) {
    plan = emailSearchPlan(fragment, kept.emails, kept.tableSize, kept.removalsAt);
    if (kept.plans.size >= PLANS_KEPT) kept.plans.delete(kept.plans.keys().next().value as string);
    kept.plans.set(fragment, plan);
  }
  return plan;
}
