// The session state every signed-in request needs (the user row, the session row's state, the revocation flag) and
// the answer of GET /auth/user, kept in memory per instance so that a request costs no database round trip, with
// revocation still immediate on every instance (docs/decisions/0014-session-state-in-memory.md).
//
// Invalidation has one owner: the triggers of migration 0011 notify the session-state channel with the user id
// (or '*') after any change to what this state is read from, whichever code path makes it. This instance LISTENs on a
// connection of its own and forgets the user's entries when a notification arrives. The memory is used only while
// that connection is up and its LISTEN confirmed; when it fails, every request reads the database (never answering
// from state that may have missed a notification) until it is back, and then the memory starts empty.
//
// A connection can also die without failing (a proxy or middlebox that stops forwarding and closes nothing): it is
// pinged every second with a one-second deadline, and the memory is trusted only within `trustMs` of the last
// confirmed round trip (notifications arrive in order on that connection, so its answer vouches for everything
// committed before). A frozen channel is thus given up on within about two seconds, as a closed one is at once.
// Writes and administrator checks never rely on this window: they always read the database (verify.ts, `fresh`).
//
// A read that started before a change and finishes after its notification would store the old state: every
// notification bumps a sequence number, and a read's result is stored only when no notification for its user (or
// '*') and no loss of the channel arrived since the read began.
//
// A notification reaches this instance a little after the change committed, so a request that changed something
// waits, before its answer leaves, for its own barrier notification to come back (`sync`): notifications arrive in
// commit order, so by then every change it made has been applied here, and the person's next request on this
// instance never sees the state from before (read-your-writes). Other instances see it within the delivery delay.
import { randomBytes } from 'node:crypto';
import type { Database, Listener } from '../../db/client.js';

/** What the memory reports about its channel (the app's logger in production). */
export interface StateLogger {
  info(details: object, message: string): void;
  debug(details: object | string, message?: string): void;
}

/** The channel's name in schema `public`; in another schema the database names it (migration 0029). */
export const sessionStateChannel = 'portal_session_state';

export interface SessionStateLimits {
  /** Users kept at most (each with its sessions and its GET /auth/user answer); the least recently used go first. */
  maxUsers: number;
  /** Sessions kept per user at most. */
  maxSessionsPerUser: number;
  /** Approximate bytes kept at most (JSON size of the user rows and answers, plus a fixed cost per session). */
  maxBytes: number;
  /** An entry is read again from the database after this long even without a notification (belt and braces). */
  ttlMs: number;
  /** How often the listening connection is checked with a round trip (a silently dropped path is noticed). */
  pingEveryMs: number;
  /** Longest wait for that round trip; past it the channel is treated as lost. */
  pingTimeoutMs: number;
  /** The memory answers only this long after the channel last proved alive (LISTEN, a ping answer). */
  trustMs: number;
  /** Longest wait for a barrier notification to come back; past it the channel is treated as lost. */
  syncTimeoutMs: number;
}

export const defaultSessionStateLimits: SessionStateLimits = {
  maxUsers: 10_000,
  maxSessionsPerUser: 16,
  maxBytes: 32 * 1024 * 1024,
  ttlMs: 60_000,
  pingEveryMs: 1_000,
  pingTimeoutMs: 1_000,
  trustMs: 2_500,
  syncTimeoutMs: 2_000,
};

const syncPrefix = 'sync:';

/** Fixed estimate of one session entry (key, flags, map slot). */
const sessionEntryBytes = 300;

interface UserEntry<U, S, V> {
  user: U;
  userBytes: number;
  sessions: Map<string, S>;
  /** `until`: the answer names an expiry then (epoch ms), and is not used from that moment on. */
  view?: { value: V; bytes: number; until: number | null };
  expiresAt: number;
}

/** A ticket for a database read: its result is stored only if nothing changed for that user meanwhile. */
export interface ReadTicket {
  readonly seq: number;
  readonly epoch: number;
}

export interface SessionStateCache<U, S, V> {
  /** Whether the memory is in use (the channel is up and proved alive lately): false means every lookup misses. */
  readonly serving: boolean;
  /** The listening connection's server process (PostgreSQL), for tests that cut it. */
  readonly listenerPid: number | undefined;
  /** Counters since start: lookups answered from memory, lookups that read the database, invalidations received. */
  readonly stats: { hits: number; misses: number; notifications: number; losses: number };
  /** Users kept in memory now. */
  readonly entries: number;
  session(userId: number, key: string): { user: U; session: S } | undefined;
  /** The kept answer for this very user row, unless `now` (epoch ms; the app's clock) has reached its `until`. */
  view(userId: number, user: U, now?: number): V | undefined;
  /** Taken before a database read whose result may be stored. */
  ticket(): ReadTicket;
  storeSession(ticket: ReadTicket, userId: number, user: U, key: string, session: S): U;
  /** `until`: the answer may differ from then on with no row changed (an expiry it names); null: no such moment. */
  storeView(ticket: ReadTicket, userId: number, user: U, view: V, until?: number | null): void;
  /** Resolves once every change committed before the call has been applied to this instance's memory. */
  sync(): Promise<void>;
  /**
   * Forgets a user's entries at once, as their notification would (a change this instance just made, whose
   * notification is still on its way): reads in flight for that user are not stored either.
   */
  forget(userId: number): void;
  /**
   * Called whenever entries are forgotten: a user's (a number) or all of them ('all': a '*' notification, the channel
   * lost or back). Memories kept beside this one (the OpenID Connect clients) follow it.
   */
  onInvalidate(listener: (scope: number | 'all') => void): void;
  start(): Promise<void>;
  stop(): Promise<void>;
}

export function createSessionStateCache<U extends object, S, V>(
  database: Pick<Database, 'listen'>,
  /** Sends a notification on the channel through an ordinary connection (the barrier of `sync`). */
  notify: (channel: string, payload: string) => Promise<unknown>,
  log: StateLogger,
  limits: SessionStateLimits = defaultSessionStateLimits,
  /** The channel the triggers notify, asked of the database before each LISTEN. */
  channelOf: () => Promise<string> = async () => sessionStateChannel,
): SessionStateCache<U, S, V> {
  let channel = sessionStateChannel;
  const users = new Map<number, UserEntry<U, S, V>>();
  let bytes = 0;
  let listener: Listener | undefined;
  let serving = false;
  // When the channel last proved it delivers (LISTEN confirmed, a ping answered): performance.now().
  let aliveAt = 0;
  let stopped = false;
  let seq = 0;
  // Bumped whenever the channel is lost or comes back: a read that began in another epoch is never stored.
  let epoch = 0;
  let lastAll = 0;
  // The sequence number of the last notification per user. Bounded: past its limit it is emptied and counted as a '*'
  // (a conservative answer for reads in flight, which then just do not store).
  const lastFor = new Map<number, number>();
  let reconnectTimer: NodeJS.Timeout | undefined;
  let pingTimer: NodeJS.Timeout | undefined;
  let backoffMs = 100;
  const stats = { hits: 0, misses: 0, notifications: 0, losses: 0 };

  // The user at the most recently used end of `users`: a lookup of that user needs no move (a busy client's requests
  // mostly follow one another).
  let newest: number | undefined;
  const drop = (userId: number) => {
    const entry = users.get(userId);
    if (!entry) return;
    bytes -= entry.userBytes + entry.sessions.size * sessionEntryBytes + (entry.view?.bytes ?? 0);
    users.delete(userId);
    if (newest === userId) newest = undefined;
  };
  const clear = () => {
    users.clear();
    newest = undefined;
    lastFor.clear();
    bytes = 0;
    invalidated('all');
  };
  const evict = () => {
    while (users.size > limits.maxUsers || (bytes > limits.maxBytes && users.size > 0)) {
      const oldest = users.keys().next().value as number;
      drop(oldest);
    }
  };

  const barriers = new Map<string, () => void>();
  const invalidationListeners: ((scope: number | 'all') => void)[] = [];
  const invalidated = (scope: number | 'all') => {
    for (const listener of invalidationListeners) listener(scope);
  };

  const onNotify = (payload: string) => {
    if (payload.startsWith(syncPrefix)) {
      barriers.get(payload)?.();
      return;
    }
    stats.notifications += 1;
    seq += 1;
    if (payload === '*') {
      lastAll = seq;
      clear();
      return;
    }
    const userId = Number(payload);
    if (!Number.isInteger(userId)) {
      // Not ours to read: forget everything rather than guess.
      lastAll = seq;
      clear();
      return;
    }
    drop(userId);
    if (lastFor.size >= limits.maxUsers) {
      lastFor.clear();
      lastAll = seq;
    }
    lastFor.set(userId, seq);
    invalidated(userId);
  };

  const goDown = (error?: Error) => {
    if (!serving && listener === undefined) return;
    const old = listener;
    serving = false;
    listener = undefined;
    // A connection given up on (a ping or barrier that did not come back) is closed, not left to deliver.
    void old?.close().catch(() => {});
    epoch += 1;
    stats.losses += 1;
    clear();
    // Whoever waits on a barrier goes on: from now on every read goes to the database anyway.
    for (const release of barriers.values()) release();
    if (pingTimer) clearInterval(pingTimer);
    pingTimer = undefined;
    if (!stopped) {
      // Info, not warn: nothing is lost or served stale (every read goes to the database), it heals by itself, and a
      // database outage, which also takes the channel down, is already logged once, at its start and its end.
      log.info({ err: error }, 'session state channel lost: reading the database until it is back');
      scheduleConnect();
    }
  };

  const scheduleConnect = () => {
    if (stopped || reconnectTimer) return;
    reconnectTimer = setTimeout(() => {
      reconnectTimer = undefined;
      void connect();
    }, backoffMs);
    reconnectTimer.unref();
    backoffMs = Math.min(backoffMs * 2, 5_000);
  };

  const connect = async () => {
    if (stopped || !database.listen) return;
    let opened: Listener;
    try {
      channel = await channelOf();
      opened = await database.listen(channel, {
        notify: onNotify,
        lost: (error) => {
          if (listener === opened) goDown(error);
        },
      });
    } catch (error) {
      log.debug({ err: error }, 'session state channel not available');
      scheduleConnect();
      return;
    }
    if (stopped) {
      await opened.close();
      return;
    }
    // LISTEN is confirmed: every change committed from now on is notified. Whatever was kept before may have missed
    // some, so the memory starts empty.
    listener = opened;
    epoch += 1;
    clear();
    serving = true;
    aliveAt = performance.now();
    backoffMs = 100;
    let pinging = false;
    pingTimer = setInterval(() => {
      if (pinging) return;
      pinging = true;
      const sentAt = performance.now();
      opened
        .ping(limits.pingTimeoutMs)
        .then(
          () => {
            // Everything notified before the ping was sent has been applied by now.
            if (listener === opened) aliveAt = Math.max(aliveAt, sentAt);
          },
          (error: Error) => {
            if (listener === opened) goDown(error);
          },
        )
        .finally(() => {
          pinging = false;
        });
    }, limits.pingEveryMs);
    pingTimer.unref();
    log.debug('session state channel listening');
  };

  /** Up, and proved alive recently enough: a channel that went silent is not trusted even before it is given up on. */
  const trusted = () => serving && performance.now() - aliveAt <= limits.trustMs;

  /** The user's entry, moved to the most recently used end; none when not trusted or expired. */
  const touchEntry = (userId: number) => {
    if (!trusted()) return undefined;
    const entry = users.get(userId);
    if (!entry) return undefined;
    if (entry.expiresAt <= Date.now()) {
      drop(userId);
      return undefined;
    }
    if (newest !== userId) {
      users.delete(userId);
      users.set(userId, entry);
      newest = userId;
    }
    return entry;
  };

  const fresh = (ticket: ReadTicket, userId: number) =>
    serving && ticket.epoch === epoch && lastAll <= ticket.seq && (lastFor.get(userId) ?? 0) <= ticket.seq;

  return {
    get serving() {
      return trusted();
    },
    get listenerPid() {
      return listener?.pid;
    },
    get entries() {
      return users.size;
    },
    stats,

    session(userId, key) {
      const entry = touchEntry(userId);
      const session = entry?.sessions.get(key);
      if (!entry || session === undefined) {
        stats.misses += 1;
        return undefined;
      }
      stats.hits += 1;
      return { user: entry.user, session };
    },

    view(userId, user, now = Date.now()) {
      const entry = touchEntry(userId);
      // Only the answer built from this very user row: a row read elsewhere may be newer or older.
      if (!entry?.view || entry.user !== user) return undefined;
      // Time passing changes no row, so no notification says a plan or licence it names has expired.
      if (entry.view.until !== null && now >= entry.view.until) return undefined;
      return entry.view.value;
    },

    ticket: () => ({ seq, epoch }),

    storeSession(ticket, userId, user, key, session) {
      if (!fresh(ticket, userId)) return user;
      const text = JSON.stringify(user);
      let entry = touchEntry(userId);
      // A row just read that differs from the kept one was committed after it, its notification still on the way
      // (a reactivation on another instance, then a new sign-in here): the read is the newer, so it replaces the entry
      // rather than being answered with the older row. The entry's sessions go with it and are read again.
      if (entry && JSON.stringify(entry.user) !== text) {
        drop(userId);
        entry = undefined;
      }
      if (!entry) {
        const userBytes = text.length;
        entry = { user, userBytes, sessions: new Map(), expiresAt: Date.now() + limits.ttlMs };
        users.set(userId, entry);
        newest = userId;
        bytes += userBytes;
      }
      if (!entry.sessions.has(key)) {
        if (entry.sessions.size >= limits.maxSessionsPerUser) {
          entry.sessions.delete(entry.sessions.keys().next().value as string);
          bytes -= sessionEntryBytes;
        }
        bytes += sessionEntryBytes;
      }
      entry.sessions.set(key, session);
      evict();
      // The kept row, so that the answer of GET /auth/user built from it may be stored too.
      return entry.user;
    },

    storeView(ticket, userId, user, view, until = null) {
      if (!fresh(ticket, userId)) return;
      const entry = users.get(userId);
      if (!entry || entry.user !== user) return;
      const viewBytes = JSON.stringify(view).length;
      bytes += viewBytes - (entry.view?.bytes ?? 0);
      entry.view = { value: view, bytes: viewBytes, until };
      evict();
    },

    async sync() {
      if (!serving) return;
      const opened = listener;
      const payload = `${syncPrefix}${randomBytes(9).toString('base64url')}`;
      let timer: NodeJS.Timeout | undefined;
      try {
        await new Promise<void>((resolve) => {
          barriers.set(payload, resolve);
          timer = setTimeout(() => {
            // A channel that does not bring back its own notification cannot be trusted with the others either.
            if (listener === opened) goDown(new Error('session state barrier timed out'));
            resolve();
          }, limits.syncTimeoutMs);
          // Not awaited on its own: the barrier's statement can wait behind a stuck database (a transaction that never
          // ends holds PGlite's one connection), and the timer above must bound the wait all the same.
          notify(channel, payload).catch((error: unknown) => {
            // The database refused the barrier: the request's own answer says so if it matters; stop trusting memory.
            if (listener === opened) goDown(error as Error);
            resolve();
          });
        });
      } finally {
        clearTimeout(timer);
        barriers.delete(payload);
      }
    },

    forget(userId) {
      seq += 1;
      drop(userId);
      lastFor.set(userId, seq);
      invalidated(userId);
    },

    onInvalidate(listener) {
      invalidationListeners.push(listener);
    },

    async start() {
      await connect();
    },

    async stop() {
      stopped = true;
      serving = false;
      if (reconnectTimer) clearTimeout(reconnectTimer);
      if (pingTimer) clearInterval(pingTimer);
      const open = listener;
      listener = undefined;
      clear();
      await open?.close();
    },
  };
}
