// The logouts owed to partner apps without a browser: OpenID Connect back-channel logouts (logout-deliveries.ts) and
// SAML SOAP logouts (saml/logouts.ts), sent by the one sender (domain/sender.ts). Each protocol keeps its own
// table (what it owes an app differs: a `sid` and the app's subject, a NameID and SessionIndex) and says how to claim,
// send and settle a row; the pace is the sender's (docs/decisions/0124-one-logout-queue.md,
// docs/decisions/0159-one-sender.md):
//
// - Each app is a lane: a claim takes due rows only of apps this instance is not already sending to, and a lane's
//   rows go out together; a hung app holds its own lane and nobody else's. A lane that delivered looks again at once.
// - A claim is a short lease on the rows, so instances sharing the database never send one twice at once and a dead
//   instance's claims lapse; a failure is retried with backoff for a day, then given up.
// - Shutting down cuts the tries in flight short (they count as no try) and gives their rows back, due at once for
//   whichever instance claims them: closing never waits for an app.
import { type SQL, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client.js';
import { createSender, type Sender } from '../sender.js';

const keptSettledMs = 30 * 24 * 60 * 60_000;
/** The rows one claim takes at most. */
export const claimLimit = 20;
/** Apps sent to at once by one instance. */
const lanesPerInstance = 64;
const firstRetryMs = 5_000;
const maxRetryMs = 30 * 60_000;
/** A logout not delivered within a day is given up: the app's own session has long expired by then. */
export const giveUpAfterMs = 24 * 60 * 60_000;
/** How long a claim holds its rows: longer than any try's own timeout. */
export const leaseMs = 30_000;

export function logoutRetryDelayMs(attempts: number): number {
  return Math.min(maxRetryMs, firstRetryMs * 2 ** Math.min(attempts - 1, 20));
}

/** How one row's try ended. */
export type LogoutTry = { delivered: true } | { delivered: false; error: unknown };

/** What a protocol tells the queue: its rows, how to claim, send and settle them. */
export interface LogoutLanes<Row extends { id: number | string; attempts: number; createdAt: Date }> {
  /** For the log lines. */
  name: string;
  /** The app a row is owed to: one lane each. */
  laneOf(row: Row): string;
  /** Claims (with a lease until `leaseUntil`) up to `limit` due rows of apps not in `busy`. */
  claim(now: Date, leaseUntil: Date, limit: number, busy: readonly string[]): Promise<Row[]>;
  /** Sends one row; throws with why the app did not take it. The signal aborts when the instance shuts down. */
  send(row: Row, signal: AbortSignal): Promise<void>;
  /** Writes a try's outcome: delivered, or failed with its next try (`retryAt`), or given up. */
  settle(row: Row, outcome: Settled): Promise<void>;
  /** Gives rows claimed but not settled back, due at once (shutdown). */
  release(rows: Row[]): Promise<void>;
  /** Housekeeping at each sweep (old rows deleted, expired ones marked). */
  tidy?(): Promise<void>;
}

export type Settled =
  | { delivered: true; attempts: number }
  | { delivered: false; attempts: number; error: unknown; retryAt: Date; givenUp: boolean };

export interface LogoutQueueDeps {
  log: { warn(details: object, message: string): void; error(details: object, message: string): void };
  databaseLost(error: unknown): void;
  now?: () => number;
}

/** This protocol's logouts: `deliverDue` resolves with how many were delivered. */
export type LogoutQueue = Sender;

class Interrupted extends Error {}

/** `work` unless the signal aborts first; then an `Interrupted` at once, whatever `work` still does. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new Interrupted());
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(new Interrupted());
    signal.addEventListener('abort', abort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
  });
}

export function createLogoutQueue<Row extends { id: number | string; attempts: number; createdAt: Date }>(
  lanes: LogoutLanes<Row>,
  deps: LogoutQueueDeps,
): LogoutQueue {
  const now = deps.now ?? Date.now;

  /** One row's try and its outcome written; answers whether it was delivered, or `undefined` if cut short. */
  async function tryOne(row: Row, signal: AbortSignal): Promise<Settled | undefined> {
    const attempts = row.attempts + 1;
    let outcome: Settled;
    try {
      await untilAborted(lanes.send(row, signal), signal);
      outcome = { delivered: true, attempts };
    } catch (error) {
      // Cut short by the shutdown: no try is counted, and the row is given back.
      if (error instanceof Interrupted || signal.aborted) return undefined;
      const givenUp = now() - row.createdAt.getTime() >= giveUpAfterMs;
      deps.log.warn(
        { err: error, deliveryId: row.id, app: lanes.laneOf(row), attempts, givenUp },
        `${lanes.name} failed`,
      );
      outcome = { delivered: false, attempts, error, retryAt: new Date(now() + logoutRetryDelayMs(attempts)), givenUp };
    }
    await lanes.settle(row, outcome);
    return outcome;
  }

  return createSender<{ app: string; rows: Row[] }>(
    {
      name: lanes.name,
      maxLanes: lanesPerInstance,
      keyOf: (lane) => lane.app,
      async claim(limit, busy) {
        const at = now();
        const rows = await lanes.claim(new Date(at), new Date(at + leaseMs), claimLimit, [...busy]);
        const byApp = new Map<string, Row[]>();
        for (const row of rows) {
          const app = lanes.laneOf(row);
          byApp.set(app, [...(byApp.get(app) ?? []), row]);
        }
        const claimed = [...byApp].map(([app, appRows]) => ({ app, rows: appRows }));
        // More apps than free places: the others' rows go back, due at once.
        const over = claimed.splice(limit).flatMap((lane) => lane.rows);
        if (over.length > 0) await lanes.release(over);
        return claimed;
      },
      async serve(lane, signal) {
        const outcomes = await Promise.all(lane.rows.map((row) => tryOne(row, signal)));
        const unsettled = lane.rows.filter((_, index) => outcomes[index] === undefined);
        if (unsettled.length > 0) await lanes.release(unsettled);
        const retries = outcomes.flatMap((outcome) =>
          outcome && !outcome.delivered && !outcome.givenUp ? [outcome.retryAt.getTime()] : [],
        );
        return {
          delivered: outcomes.filter((outcome) => outcome?.delivered).length,
          ...(retries.length > 0 && { dueAt: new Date(Math.min(...retries)) }),
        };
      },
      release: async () => {},
      tidy: lanes.tidy?.bind(lanes),
    },
    { ...deps, now },
  );
}

/**
 * The queue's columns, which both logout tables share (id, attempts, next_attempt_at, locked_until, delivered_at,
 * failed_at, last_error, created_at): claiming, settling, giving back and deleting the settled after 30 days.
 */
export function logoutTable(db: Db, table: string, lane: string, only: SQL = sql`true`) {
  const t = sql.identifier(table);
  const laneColumn = sql.identifier(lane);
  const idList = (ids: readonly (number | string)[]) =>
    sql.join(
      ids.map((id) => sql`${id}`),
      sql`, `,
    );
  return {
    /** Claims due rows of apps not in `busy` (their lane column as text); answers their ids, oldest first. */
    async claim(now: Date, leaseUntil: Date, limit: number, busy: readonly string[]): Promise<number[]> {
      const notBusy = busy.length > 0 ? sql`${laneColumn}::text not in (${idList(busy)})` : sql`true`;
      const claimed = await rowsOf<{ id: number | string }>(
        db,
        sql`update ${t} set locked_until = ${leaseUntil}
            where id in (
              select id from ${t}
              where delivered_at is null and failed_at is null and next_attempt_at <= ${now}
                and (locked_until is null or locked_until <= ${now}) and ${notBusy} and ${only}
              order by id limit ${limit}
              for update skip locked)
            returning id`,
      );
      return claimed.map((row) => Number(row.id)).sort((a, b) => a - b);
    },
    async settle(id: number, outcome: Settled, errorText: string | null): Promise<void> {
      await db.execute(
        outcome.delivered
          ? sql`update ${t} set attempts = ${outcome.attempts}, delivered_at = now(), locked_until = null,
                last_error = null where id = ${id}`
          : sql`update ${t} set attempts = ${outcome.attempts}, last_error = ${errorText}, locked_until = null,
                next_attempt_at = ${outcome.retryAt}, failed_at = ${outcome.givenUp ? sql`now()` : sql`null`}
                where id = ${id}`,
      );
    },
    async release(ids: readonly number[]): Promise<void> {
      if (ids.length === 0) return;
      await db.execute(
        sql`update ${t} set locked_until = null
            where id in (${idList(ids)}) and delivered_at is null and failed_at is null`,
      );
    },
    async deleteSettled(now: Date): Promise<void> {
      await db.execute(
        sql`delete from ${t} where coalesce(delivered_at, failed_at) < ${new Date(now.getTime() - keptSettledMs)}`,
      );
    },
  };
}
