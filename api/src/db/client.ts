import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { SQL } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePostgres } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { tightenToOwner } from '../lib/private-data.js';

export type Db = PgDatabase<PgQueryResultHKT>;

/** The rows of a raw SQL statement, on either backend (both drivers answer `{ rows }`). */
export async function rowsOf<Row>(db: Db, query: SQL): Promise<Row[]> {
  const result = (await db.execute(query)) as unknown as { rows: Row[] };
  return result.rows;
}

export interface SqlSession {
  query<Row>(text: string, params?: unknown[]): Promise<Row[]>;
  /** Runs a script of several statements (simple query protocol, no parameters). */
  exec(script: string): Promise<void>;
}

/** A notification subscription on a connection of its own (api/src/domain/sessions/state-cache.ts). */
export interface Listener {
  /** The server process of the listening connection (PostgreSQL only): tests cut the channel with it. */
  readonly pid: number | undefined;
  /**
   * A round trip on the listening connection: rejects when it is gone or does not answer within `timeoutMs` (then the
   * connection counts as lost). Notifications arrive in order on that connection, so once it answers, every
   * notification committed before it was sent has been delivered.
   */
  ping(timeoutMs: number): Promise<void>;
  close(): Promise<void>;
}

export interface ListenHandlers {
  notify(payload: string): void;
  /** The connection ended or failed: notifications may have been missed from then on. Called at most once. */
  lost(error?: Error): void;
}

export interface Database {
  readonly kind: 'pglite' | 'postgres';
  readonly db: Db;
  /**
   * LISTEN on `channel`: resolves once the server confirmed it, so every notification committed afterwards reaches
   * `notify`. Absent on a database that cannot (then the callers read the database every time).
   */
  listen?(channel: string, handlers: ListenHandlers): Promise<Listener>;
  /** Raw SQL in one transaction: migrations are multi-statement scripts, which drizzle's prepared queries refuse. */
  transaction<T>(work: (session: SqlSession) => Promise<T>): Promise<T>;
  /**
   * A short script of several statements, run as one implicit transaction (so `SET LOCAL` holds for the statements
   * after it and a failure rolls it all back) within the usual statement bounds; its failure is reported like any
   * statement's. For the write probe (db/writes.ts), not for work that takes long.
   */
  script(text: string): Promise<void>;
  /** The connection pool's figures (PostgreSQL only), for the metrics. */
  poolStats?(): { total: number; idle: number; waiting: number };
  /** Tells `listener` of every statement sent through `db` that fails, whatever the reason (the metrics count them). */
  onQueryFailure(listener: (error: unknown) => void): void;
  close(): Promise<void>;
}

/** Where a database reports its failed statements: nowhere until the app listens. */
function failureReports() {
  let listener: (error: unknown) => void = () => {};
  return {
    report: (error: unknown) => listener(error),
    listen: (next: (error: unknown) => void) => {
      listener = next;
    },
  };
}

type Method = (...args: unknown[]) => unknown;

/**
 * The driver client drizzle is given, reporting each statement that fails: drizzle sends every query through `query`,
 * a PostgreSQL transaction's through the client `connect` answers (a failed connect is reported too), a PGlite
 * transaction's through the one `transaction` hands its work.
 */
function reportingFailures<T extends object>(client: T, failed: (error: unknown) => void): T {
  const watched = (result: unknown) =>
    result instanceof Promise
      ? result.catch((error: unknown) => {
          failed(error);
          throw error;
        })
      : result;
  return new Proxy(client, {
    get(target, key) {
      const value = Reflect.get(target, key, target) as unknown;
      if (typeof value !== 'function') return value;
      const method = value as Method;
      if (key === 'query') return (...args: unknown[]) => watched(method.apply(target, args));
      if (key === 'connect')
        return async () =>
          reportingFailures(freedOnFailedBegin((await watched(method.call(target))) as PoolClientLike), failed);
      if (key === 'transaction')
        return (work: (tx: object) => unknown, ...rest: unknown[]) =>
          method.call(target, (tx: object) => work(reportingFailures(tx, failed)), ...rest);
      return method.bind(target);
    },
  });
}

interface PoolClientLike {
  query(...args: unknown[]): unknown;
  release(error?: Error | boolean): void;
}

/**
 * drizzle's node-postgres transaction sends `begin` before its try/finally: when `begin` itself fails (a statement
 * timeout on a busy server), it never gives its client back, and the pool waits for that client forever (a shutdown's
 * `pool.end()` hung until the process's bound). A checked-out client whose `begin` fails is released here, destroyed
 * (an error given), once; a later release of the same client does nothing.
 */
function freedOnFailedBegin<T extends PoolClientLike>(client: T): T {
  let released = false;
  const release = (error?: Error | boolean) => {
    if (released) return;
    released = true;
    client.release(error);
  };
  return new Proxy(client, {
    get(target, key) {
      if (key === 'release') return release;
      const value = Reflect.get(target, key, target) as unknown;
      if (key !== 'query' || typeof value !== 'function')
        return typeof value === 'function' ? value.bind(target) : value;
      return (...args: unknown[]) => {
        const first = args[0] as string | { text?: unknown } | undefined;
        const text = typeof first === 'string' ? first : first?.text;
        const result = (value as Method).apply(target, args);
        if (typeof text !== 'string' || !/^\s*begin\b/i.test(text) || !(result instanceof Promise)) return result;
        return result.catch((error: unknown) => {
          release(error instanceof Error ? error : new Error(String(error)));
          throw error;
        });
      };
    },
  });
}

/** Extensions the migrations create (0004: pg_trgm); PGlite needs them loaded when the client is created. */
export const pgliteExtensions = { pg_trgm };

export function wrapPglite(client: PGlite, onClose: () => void = () => {}): Database {
  const failures = failureReports();
  return {
    kind: 'pglite',
    db: drizzlePglite({ client: reportingFailures(client, failures.report) }),
    onQueryFailure: failures.listen,
    async script(text) {
      await client.exec(text).catch((error: unknown) => {
        failures.report(error);
        throw error;
      });
    },
    transaction: (work) =>
      client.transaction((tx) =>
        work({
          query: async <Row>(text: string, params?: unknown[]) => (await tx.query<Row>(text, params)).rows,
          exec: async (script) => {
            await tx.exec(script);
          },
        }),
      ),
    async listen(channel, handlers) {
      // In process: PGlite hands the notifications of a statement over before that statement's promise resolves, so
      // a change is seen by the next request. The connection cannot be lost short of closing the database.
      const unsubscribe = await client.listen(channel, handlers.notify);
      return {
        pid: undefined,
        ping: async () => {
          if (client.closed) throw new Error('PGlite closed');
        },
        close: async () => {
          if (!client.closed) await unsubscribe();
        },
      };
    },
    async close() {
      try {
        if (!client.closed) await client.close();
      } finally {
        onClose();
      }
    },
  };
}

/**
 * A round trip that starts no transaction: the protocol's Sync message alone, which the server answers with
 * ReadyForQuery (sending first any notification it holds for this connection). A `SELECT 1` would count as a
 * transaction every second on every instance, for nothing (docs/decisions/0159-one-sender.md).
 */
function syncPing(client: pg.Client, deadlineMs: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    // A custom query for pg's queue (its 'Submittable'): pg wraps `callback` with its `query_timeout`.
    const ping = {
      query_timeout: deadlineMs,
      callback(error?: Error) {
        if (error) reject(error);
        else resolve();
      },
      submit(connection: { sync(): void }) {
        connection.sync();
      },
      handleReadyForQuery() {
        ping.callback();
      },
      handleError(error: Error) {
        ping.callback(error);
      },
    };
    client.query(ping as unknown as pg.QueryConfig);
  });
}

export interface PostgresOptions {
  /** Schema that unqualified table names resolve to; tests use a throw-away schema per file. */
  searchPath?: string;
  onIdleClientError?: (error: Error) => void;
  /**
   * Longest wait for a connection (a free pool slot included), for one statement on the server and for one answer
   * on the client: a server that hangs fails the query after it instead of holding the request (default 4 s).
   */
  timeoutMs?: number;
}

export const defaultDatabaseTimeoutMs = 4_000;
/** Migrations may rewrite big tables and wait for another instance's migration: no statement limit for them. */
const migrationTimeoutMs = 30 * 60_000;

/**
 * A query that timed out on the client is still running on the server (or the server is frozen): the connection
 * would answer the next query only after it. Dropping the connection lets the pool open a fresh one instead of
 * handing this one to the next request; the server cancels the orphaned statement when it sees the socket close.
 */
class TimedClient extends pg.Client {
  override query(...args: unknown[]): never {
    const result = (super.query as (...a: unknown[]) => unknown)(...args);
    if (result instanceof Promise) {
      result.catch((error: Error) => {
        if (error?.message === 'Query read timeout') {
          (this as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
        }
      });
    }
    return result as never;
  }
}

export function openPostgres(url: string, options: PostgresOptions = {}): Database {
  if (options.searchPath !== undefined && !/^[a-z_][a-z0-9_]*$/.test(options.searchPath)) {
    throw new Error(`Invalid schema name: ${options.searchPath}`);
  }
  const timeoutMs = options.timeoutMs ?? defaultDatabaseTimeoutMs;
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    Client: TimedClient,
    // Fail fast when the server is down so requests get a 503 instead of hanging until the client gives up.
    connectionTimeoutMillis: timeoutMs,
    // A server that accepts but never answers (frozen, overloaded, a half-open network path): the client stops
    // waiting for the answer, and the server itself cancels a statement that runs longer (SQLSTATE 57014).
    query_timeout: timeoutMs,
    statement_timeout: timeoutMs,
    // A stuck client holding locks (a frozen API instance) must not block every other instance for long.
    idle_in_transaction_session_timeout: 4 * timeoutMs,
    // Idle pooled connections whose peer vanished (failover, a dropped NAT entry) are noticed and replaced.
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    ...(options.searchPath ? { options: `-c search_path=${options.searchPath}` } : {}),
  });
  // An idle client losing its connection emits here; without a listener the process would crash.
  const onError = options.onIdleClientError ?? (() => {});
  pool.on('error', onError);
  // A checked-out client has no pool listener: when the server goes away (restart, failover) mid-transaction, its
  // 'error' event would crash the process. The failed query already rejects, so the request still gets its 503.
  pool.on('connect', (client) => client.on('error', onError));

  const failures = failureReports();
  return {
    kind: 'postgres',
    db: drizzlePostgres({ client: reportingFailures(pool, failures.report) }),
    onQueryFailure: failures.listen,
    async script(text) {
      // No parameters: node-postgres sends it with the simple query protocol, which takes several statements.
      await pool.query(text).catch((error: unknown) => {
        failures.report(error);
        throw error;
      });
    },
    async listen(channel, handlers) {
      if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`Invalid channel name: ${channel}`);
      const client = new pg.Client({
        connectionString: url,
        connectionTimeoutMillis: timeoutMs,
        query_timeout: timeoutMs,
        // The kernel probes an idle path after 1 s (libuv then probes every second, ten times). Node cannot set
        // TCP_USER_TIMEOUT (unacknowledged data on a dead path would be retried for many minutes): the caller's ping
        // with a deadline (`ping(timeoutMs)`) is that bound, and it also catches a path that still acknowledges
        // but forwards nothing (a frozen proxy or middlebox), which no TCP option sees.
        keepAlive: true,
        keepAliveInitialDelayMillis: 1_000,
        ...(options.searchPath ? { options: `-c search_path=${options.searchPath}` } : {}),
      });
      /** Ends the connection, or drops its socket when a silent peer does not let it end within a second. */
      const finish = async () => {
        const stream = (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream;
        const force = setTimeout(() => stream?.destroy(), 1_000);
        force.unref();
        try {
          await client.end();
        } catch {
          // Already gone.
        } finally {
          clearTimeout(force);
        }
      };
      let lost = false;
      const lose = (error?: Error) => {
        if (lost) return;
        lost = true;
        handlers.lost(error);
        // A connection that failed is not reused: drop it (harmless on one already closed).
        void finish();
      };
      client.on('notification', (message) => {
        if (message.channel === channel) handlers.notify(message.payload ?? '');
      });
      client.on('error', lose);
      client.on('end', () => lose());
      try {
        await client.connect();
        await client.query(`LISTEN ${channel}`);
      } catch (error) {
        lost = true;
        await client.end().catch(() => {});
        throw error;
      }
      return {
        pid: (client as unknown as { processID: number | undefined }).processID,
        async ping(deadlineMs) {
          try {
            await syncPing(client, deadlineMs);
          } catch (error) {
            lose(error as Error);
            throw error;
          }
        },
        async close() {
          lost = true;
          await finish();
        },
      };
    },
    async transaction(work) {
      const client = await pool.connect();
      let broken: Error | undefined;
      try {
        // `query_timeout` per query is read by pg but missing from its types.
        const long = (text: string, values?: unknown[]) =>
          client.query({ text, values, query_timeout: migrationTimeoutMs } as pg.QueryConfig);
        await client.query('BEGIN');
        await long('SET LOCAL statement_timeout = 0');
        const result = await work({
          query: async <Row>(text: string, params?: unknown[]) => (await long(text, params)).rows as Row[],
          exec: async (script) => {
            await long(script);
          },
        });
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch((rollbackError: Error) => {
          broken = rollbackError;
        });
        throw error;
      } finally {
        client.release(broken);
      }
    },
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    close: async () => {
      if (!pool.ended) await pool.end();
    },
  };
}

/** Another live process (an API) holds the embedded database's lock file; `pid` is that process. */
export class DatabaseLockedError extends Error {
  constructor(
    readonly pid: number,
    readonly dataDir: string,
  ) {
    super(
      `Otra instancia de la API (pid ${pid}) ya usa la base de datos embebida en ${dataDir}. ` +
        'Deténla, usa otro DATA_DIR o configura DATABASE_URL para compartir PostgreSQL entre instancias.',
    );
    this.name = 'DatabaseLockedError';
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Where the embedded database's files live inside DATA_DIR. */
export const embeddedDatabaseDir = (dataDir: string): string => join(dataDir, 'pglite');

/**
 * PGlite is single-process: a second process opening the same directory would corrupt it. The lock file holds the
 * owner's pid so that a lock left behind by a crashed process can be taken over. Answers the release.
 */
export function lockDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const lockPath = join(dataDir, 'pglite.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockPath, 'wx', 0o600);
      try {
        writeSync(fd, String(process.pid));
      } catch (error) {
        // A full disk: no empty lock file left behind.
        rmSync(lockPath, { force: true });
        throw error;
      } finally {
        closeSync(fd);
      }
      return () => rmSync(lockPath, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      refuseIfLocked(dataDir);
      rmSync(lockPath, { force: true });
    }
  }
  throw new Error(`No se pudo bloquear ${lockPath}`);
}

/**
 * Throws DatabaseLockedError when another live process holds the embedded database, without taking the lock or
 * creating anything: a command checks it before it looks at, or changes, the directory.
 */
export function refuseIfLocked(dataDir: string): void {
  let owner: number;
  try {
    owner = Number(readFileSync(join(dataDir, 'pglite.lock'), 'utf8').trim());
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && isRunning(owner)) {
    throw new DatabaseLockedError(owner, dataDir);
  }
}

export async function openDatabase(
  config: { databaseUrl: string | undefined; dataDir: string; databaseTimeoutMs?: number },
  onIdleClientError?: (error: Error) => void,
): Promise<Database> {
  if (config.databaseUrl) {
    return openPostgres(config.databaseUrl, { onIdleClientError, timeoutMs: config.databaseTimeoutMs });
  }
  const release = lockDataDir(config.dataDir);
  try {
    const dir = embeddedDatabaseDir(config.dataDir);
    const client = await PGlite.create({ dataDir: dir, extensions: pgliteExtensions });
    // PGlite lays down its first files with the modes of its bundled image (0666), whatever the umask says.
    tightenToOwner(dir);
    return wrapPglite(client, release);
  } catch (error) {
    release();
    throw error;
  }
}
