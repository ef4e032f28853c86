import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm'
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { drizzle as drizzlePostgres } from 'drizzle-orm/node-postgres'
import pg from 'pg'

export type Db = PgDatabase<PgQueryResultHKT>

export interface SqlSession {
  query<Row>(text: string, params?: unknown[]): Promise<Row[]>
  /** Runs a script of several statements (simple query protocol, no parameters). */
  exec(script: string): Promise<void>
}

export interface Database {
  readonly kind: 'pglite' | 'postgres'
  readonly db: Db
  /** Raw SQL in one transaction: migrations are multi-statement scripts, which drizzle's prepared queries refuse. */
  transaction<T>(work: (session: SqlSession) => Promise<T>): Promise<T>
  close(): Promise<void>
}

/** Extensions the migrations create (0004: pg_trgm); PGlite needs them loaded when the client is created. */
export const pgliteExtensions = { pg_trgm }

export function wrapPglite(client: PGlite, onClose: () => void = () => {}): Database {
  return {
    kind: 'pglite',
    db: drizzlePglite({ client }),
    transaction: (work) => client.transaction((tx) => work({
      query: async <Row>(text: string, params?: unknown[]) => (await tx.query<Row>(text, params)).rows,
      exec: async (script) => { await tx.exec(script) },
    })),
    async close() {
      try {
        if (!client.closed) await client.close()
      } finally {
        onClose()
      }
    },
  }
}

export interface PostgresOptions {
  /** Schema that unqualified table names resolve to; tests use a throw-away schema per file. */
  searchPath?: string
  onIdleClientError?: (error: Error) => void
}

export function openPostgres(url: string, options: PostgresOptions = {}): Database {
  if (options.searchPath !== undefined && !/^[a-z_][a-z0-9_]*$/.test(options.searchPath)) {
    throw new Error(`Invalid schema name: ${options.searchPath}`)
  }
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    // Fail fast when the server is down so requests get a 503 instead of hanging until the client gives up.
    connectionTimeoutMillis: 5000,
    ...(options.searchPath ? { options: `-c search_path=${options.searchPath}` } : {}),
  })
  // An idle client losing its connection emits here; without a listener the process would crash.
  const onError = options.onIdleClientError ?? (() => {})
  pool.on('error', onError)
  // A checked-out client has no pool listener: when the server goes away (restart, failover) mid-transaction, its
  // 'error' event would crash the process. The failed query already rejects, so the request still gets its 503.
  pool.on('connect', (client) => client.on('error', onError))

  return {
    kind: 'postgres',
    db: drizzlePostgres({ client: pool }),
    async transaction(work) {
      const client = await pool.connect()
      let broken: Error | undefined
      try {
        await client.query('BEGIN')
        const result = await work({
          query: async <Row>(text: string, params?: unknown[]) => (await client.query(text, params)).rows as Row[],
          exec: async (script) => { await client.query(script) },
        })
        await client.query('COMMIT')
        return result
      } catch (error) {
        await client.query('ROLLBACK').catch((rollbackError: Error) => { broken = rollbackError })
        throw error
      } finally {
        client.release(broken)
      }
    },
    close: async () => {
      if (!pool.ended) await pool.end()
    },
  }
}

/** Another live process (an API) holds the embedded database's lock file; `pid` is that process. */
export class DatabaseLockedError extends Error {
  constructor(readonly pid: number, readonly dataDir: string) {
    super(
      `Otra instancia de la API (pid ${pid}) ya usa la base de datos embebida en ${dataDir}. `
      + 'Deténla, usa otro DATA_DIR o configura DATABASE_URL para compartir PostgreSQL entre instancias.',
    )
    this.name = 'DatabaseLockedError'
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/**
 * PGlite is single-process: a second process opening the same directory would corrupt it. The lock file holds the
 * owner's pid so that a lock left behind by a crashed process can be taken over.
 */
function lockDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true })
  const lockPath = join(dataDir, 'pglite.lock')
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockPath, 'wx', 0o600)
      writeSync(fd, String(process.pid))
      closeSync(fd)
      return () => rmSync(lockPath, { force: true })
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      const owner = Number(readFileSync(lockPath, 'utf8').trim())
      if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && isRunning(owner)) {
        throw new DatabaseLockedError(owner, dataDir)
      }
      rmSync(lockPath, { force: true })
    }
  }
  throw new Error(`No se pudo bloquear ${lockPath}`)
}

export async function openDatabase(
  config: { databaseUrl: string | undefined, dataDir: string },
  onIdleClientError?: (error: Error) => void,
): Promise<Database> {
  if (config.databaseUrl) return openPostgres(config.databaseUrl, { onIdleClientError })
  const release = lockDataDir(config.dataDir)
  try {
    const client = await PGlite.create({ dataDir: join(config.dataDir, 'pglite'), extensions: pgliteExtensions })
    return wrapPglite(client, release)
  } catch (error) {
    release()
    throw error
  }
}
