import { diskFull, isDatabaseUnavailable } from '../lib/errors.js';

/**
 * Puts new bytes on the database's disk and keeps nothing: a sort made to spill to a temporary file (about 100 kB, in
 * the data directory's `base/pgsql_tmp`), which a full disk refuses with SQLSTATE 53100 on PostgreSQL and on PGlite
 * alike. A write rolled back proves nothing: a row that fits in a page already on disk is written even then. No lock,
 * no row, no write-ahead log (docs/decisions/0067-a-full-disk.md).
 */
export const writeProbeSql =
  "SET LOCAL work_mem = '64kB'; " +
  'SELECT count(*) FROM (SELECT g FROM generate_series(1, 10000) g ORDER BY g DESC OFFSET 0) AS spilled';

/** How often, at most, the probe runs: readiness asked every second by several balancers costs one probe per period. */
export const writeProbeEveryMs = 5_000;

interface Log {
  error(details: object, message: string): void;
  warn(details: object, message: string): void;
}

/**
 * Whether the database can write. A full disk leaves reads working (`select 1` answers), so readiness asks this too:
 * a statement that failed for a full disk says no at once; the probe says yes again, and says no before any write
 * fails. The story goes to the log once when it begins and once when it ends.
 */
export interface DatabaseWrites {
  /** A statement failed: one that failed for a full disk means the database cannot write, until a probe succeeds. */
  failed(error: unknown): void;
  /** The answer: known, or the probe's when the last is older than `everyMs`; one probe at a time. */
  check(): Promise<boolean>;
  /** Stops probing (the app closes). */
  stop(): void;
}

export function watchWrites(
  probe: () => Promise<void>,
  log: Log,
  { everyMs = writeProbeEveryMs, now = Date.now }: { everyMs?: number; now?: () => number } = {},
): DatabaseWrites {
  let refused: { since: number; failures: number; timer?: NodeJS.Timeout } | undefined;
  let probedAt = Number.NEGATIVE_INFINITY;
  let running: Promise<void> | undefined;
  let stopped = false;

  const refuse = (error: unknown) => {
    if (refused) return;
    log.error({ err: error }, 'database cannot write: readiness answers 503 until a write probe succeeds');
    refused = { since: now(), failures: 0 };
    schedule();
  };
  /** While it cannot write, the probe runs on its own, so the end is noticed (and told) with no one asking. */
  const schedule = () => {
    if (!refused || stopped) return;
    clearTimeout(refused.timer);
    refused.timer = setTimeout(() => void runProbe(), everyMs).unref();
  };
  const runProbe = (): Promise<void> => {
    running ??= (async () => {
      try {
        await probe();
        if (refused) {
          clearTimeout(refused.timer);
          log.warn(
            { durationMs: now() - refused.since, failedStatements: refused.failures },
            'database can write again',
          );
          refused = undefined;
        }
      } catch (error) {
        // A database out of reach is readiness's other check (and the outage's story), not a verdict on writing.
        if (diskFull(error) || !isDatabaseUnavailable(error)) refuse(error);
      } finally {
        probedAt = now();
        running = undefined;
        schedule();
      }
    })();
    return running;
  };

  return {
    failed(error) {
      if (!diskFull(error)) return;
      refuse(error);
      if (refused) refused.failures++;
    },
    async check() {
      if (!refused && now() - probedAt >= everyMs) await runProbe();
      return refused === undefined;
    },
    stop() {
      stopped = true;
      clearTimeout(refused?.timer);
    },
  };
}
