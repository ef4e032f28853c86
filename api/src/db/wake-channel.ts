import type { FastifyBaseLogger } from 'fastify';
import type { Database, Listener } from './client.js';

/** A channel that wakes a worker: kept open for as long as the app runs. */
export interface WakeChannel {
  /** The first LISTEN's outcome: resolves once it is confirmed, or has failed (then retried in the background). */
  ready: Promise<void>;
  close(): Promise<void>;
}

/**
 * LISTEN on `channel` for a worker whose loop also polls (the partner events' outbox, the back-channel logouts): each
 * notification calls `wake` with its payload. A lost connection (the database restarted, the connection was cut) is
 * opened again, 100 ms after at first and then up to every 5 s, and `wake` is called once it is back (no payload: any
 * notification may have been missed), for whatever was queued while it was down; meanwhile the worker's poll finds the
 * work, only later. Without `listen` (a database that cannot), the poll alone.
 */
export function openWakeChannel(
  database: Database,
  channel: string,
  wake: (payload?: string) => void,
  log: FastifyBaseLogger,
  what: string,
): WakeChannel {
  let stopped = false;
  let listener: Listener | undefined;
  let retry: NodeJS.Timeout | undefined;
  let backoffMs = 100;
  let failures = 0;

  const schedule = () => {
    if (stopped || retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      void open();
    }, backoffMs);
    retry.unref();
    backoffMs = Math.min(backoffMs * 2, 5_000);
  };

  const open = async () => {
    if (stopped || !database.listen) return;
    let opened: Listener;
    try {
      opened = await database.listen(channel, {
        notify: (payload) => wake(payload),
        lost: (error) => {
          if (listener !== opened) return;
          listener = undefined;
          void opened.close().catch(() => {});
          log.info({ err: error }, `${what}: channel lost, polling until it is back`);
          schedule();
        },
      });
    } catch (error) {
      failures += 1;
      // Info, once per outage: nothing is lost (the poll goes on), it heals by itself, and a database outage, which
      // takes the channel down too, is already logged once at its start and its end. The retries say nothing more.
      if (failures === 1) log.info({ err: error }, `${what}: could not listen, polling until the channel opens`);
      schedule();
      return;
    }
    if (stopped) {
      await opened.close().catch(() => {});
      return;
    }
    if (failures > 0 || backoffMs > 100) log.info(`${what}: channel listening again`);
    listener = opened;
    failures = 0;
    backoffMs = 100;
    // What was queued while no channel listened is found now, not at the next poll.
    wake();
  };

  const ready = open();
  return {
    ready,
    async close() {
      stopped = true;
      if (retry) clearTimeout(retry);
      retry = undefined;
      await ready;
      const current = listener;
      listener = undefined;
      await current?.close().catch(() => {});
    },
  };
}
