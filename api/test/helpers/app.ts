import { createHash, randomBytes } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe } from 'node:test';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import type { FastifyInstance, InjectOptions } from 'fastify';
import pg from 'pg';
import { buildApp, type BuildAppOptions } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/config.js';
import { openPostgres, pgliteExtensions, wrapPglite, type Database } from '../../src/db/client.js';
import { migrate, readMigrations } from '../../src/db/migrate.js';
import { seed } from '../../src/db/seed.js';
import { sessions, users, type User, type UserStatus } from '../../src/db/schema.js';
import { newSessionId } from '../../src/domain/sessions/sessions.js';
import { hashAtTestCostInThisProcess, hashPassword } from '../../src/domain/accounts/passwords.js';
import { loadSigningKey, type SigningKey } from '../../src/domain/tokens/keys.js';
import { generateEcKeyPem } from './keys.js';

export type Backend = 'pglite' | 'postgres';

export const databaseUrl = process.env.DATABASE_URL || undefined;

/**
 * PGlite always; PostgreSQL too when DATABASE_URL is set. TEST_BACKENDS=postgres (or pglite) keeps only one: CI's
 * PostgreSQL round uses it, the PGlite round having run just before.
 */
function chooseBackends(): Backend[] {
  const available: Backend[] = databaseUrl ? ['pglite', 'postgres'] : ['pglite'];
  const wanted = process.env.TEST_BACKENDS?.split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  if (!wanted?.length) return available;
  const unknown = wanted.filter((name) => !available.includes(name as Backend));
  if (unknown.length)
    throw new Error(`TEST_BACKENDS pide ${unknown.join(', ')}, no disponible (PostgreSQL necesita DATABASE_URL)`);
  return available.filter((backend) => wanted.includes(backend));
}
export const backends: Backend[] = chooseBackends();

// Every app of the suites hashes at the lowest cost; a process they start (the API, the console) at production's.
hashAtTestCostInThisProcess();

export const adminEmail = 'admin@portal.test';
export const adminPassword = 'clave-de-prueba-admin';

/** Defines the suite once per backend, each in its own `describe` with its own database. */
export function forEachBackend(define: (backend: Backend) => void): void {
  for (const backend of backends) describe(backend, () => define(backend));
}

export function testConfig(overrides: Partial<Config> = {}): Config {
  return {
    ...loadConfig({
      LOG_LEVEL: 'silent',
      ADMIN_EMAIL: adminEmail,
      ADMIN_PASSWORD: adminPassword,
      DATA_DIR: join(tmpdir(), 'portal-api-test'),
      // The suites that are not about the second factor administer with a password alone; second-factor.test.ts and
      // passkeys.test.ts pass { adminSecondFactor: 'required' }, the production default.
      ADMIN_SECOND_FACTOR: 'optional',
    }),
    ...overrides,
  };
}

let signingKey: Promise<SigningKey> | undefined;

/** One key per test process: generating is cheap, but it keeps tests off the disk. */
export function testSigningKey(): Promise<SigningKey> {
  signingKey ??= loadSigningKey({ privateKeyPem: generateEcKeyPem(), keysDir: tmpdir() });
  return signingKey;
}

export { generateEcKeyPem };

const srcDb = fileURLToPath(new URL('../../src/db/', import.meta.url));

/**
 * A migrated and seeded PGlite data directory, built once and kept in the OS temp directory: a PGlite cold start
 * takes seconds, loading a dump well under one. The name changes whenever the migrations, the seed or PGlite do.
 */
export async function pgliteSnapshot(): Promise<Blob> {
  const hash = createHash('sha256');
  for (const migration of readMigrations()) hash.update(migration.name).update(migration.sql);
  hash.update(readFileSync(join(srcDb, 'seed.ts'))).update(readFileSync(join(srcDb, 'seed-data.ts')));
  hash.update(adminEmail).update(adminPassword).update('argon2 at the test cost');
  hash.update(String(statSync(createRequire(import.meta.url).resolve('@electric-sql/pglite/pglite.wasm')).size));
  // Uncompressed: loading a gzipped dump costs each new database a decompression (and PGlite, given no type, a failed
  // read of it as a plain tar first).
  const file = join(tmpdir(), `portal-api-pglite-${hash.digest('hex').slice(0, 16)}.tar`);

  try {
    return new Blob([await readFile(file)]);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const client = await PGlite.create({ extensions: pgliteExtensions });
  try {
    const database = wrapPglite(client);
    await migrate(database);
    await seed(database.db, { adminEmail, adminPassword });
    const dump = await client.dumpDataDir('none');
    // Written aside and renamed, so a test process reading it concurrently never sees half a file.
    const partial = `${file}.${process.pid}.partial`;
    await writeFile(partial, Buffer.from(await dump.arrayBuffer()));
    await rename(partial, file);
    return dump;
  } finally {
    await client.close();
  }
}

const openPglite = async () => PGlite.create({ loadDataDir: await pgliteSnapshot(), extensions: pgliteExtensions });

/** The throw-away schema of each PostgreSQL test database, so a second instance can open the same one. */
const schemaOf = new WeakMap<Database, string>();

/** The PostgreSQL schema a test app's tables are in, for a suite that writes beside the app on a connection of its own. */
export function schemaOfApp(test: Pick<TestApp, 'database'>): string {
  const schema = schemaOf.get(test.database);
  if (!schema) throw new Error('not a PostgreSQL test app');
  return schema;
}

interface TestDatabase {
  database: Database;
  /** Removes what the database left behind once the app has closed it. */
  dispose(): Promise<void>;
}

/** `timeoutMs`: the PostgreSQL pool's statement bound (the product's 4 s unless a suite's bulk set-up needs more). */
async function openTestDatabase(backend: Backend, timeoutMs?: number): Promise<TestDatabase> {
  if (backend === 'pglite') return { database: wrapPglite(await openPglite()), dispose: async () => {} };
  if (!databaseUrl) throw new Error('DATABASE_URL is required for the postgres backend');
  // A schema of its own per test file: files never see each other's rows, and dropping it cleans up everything.
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  await admin.query(`CREATE SCHEMA ${schema}`);
  const database = openPostgres(databaseUrl, { searchPath: schema, timeoutMs });
  schemaOf.set(database, schema);
  try {
    await migrate(database);
    await seed(database.db, { adminEmail, adminPassword });
  } catch (error) {
    await database.close();
    await admin.query(`DROP SCHEMA ${schema} CASCADE`);
    await admin.end();
    throw error;
  }
  return {
    database,
    async dispose() {
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await admin.end();
    },
  };
}

export interface TestApp {
  app: FastifyInstance;
  database: Database;
  signingKey: SigningKey;
  close(): Promise<void>;
}

/** The real app on a fresh, migrated and seeded database of the given backend. */
export async function buildTestApp(
  backend: Backend,
  overrides: Partial<Config> = {},
  options: Pick<BuildAppOptions, 'mailTransport' | 'clock' | 'logStream' | 'domainLookup'> & {
    waitForChannel?: boolean;
    /**
     * The PostgreSQL statement bound, for a suite that writes tens of thousands of rows in one statement to set up a
     * case: on a busy machine such a statement outlasts the product's 4 s, which is about requests, not set-ups.
     */
    databaseTimeoutMs?: number;
  } = {},
): Promise<TestApp> {
  const { waitForChannel = true, databaseTimeoutMs, ...appOptions } = options;
  const { database, dispose } = await openTestDatabase(backend, databaseTimeoutMs);
  const key = await testSigningKey();
  let app: FastifyInstance;
  try {
    app = await buildApp({ ...appOptions, config: testConfig(overrides), database, signingKey: key });
  } catch (error) {
    await database.close();
    await dispose();
    throw error;
  }
  if (waitForChannel) waitForChannelBeforeEachRequest(app);
  return {
    app,
    database,
    signingKey: key,
    async close() {
      await app.close();
      await dispose();
    },
  };
}

/**
 * The suites write the database directly (`app.db`) to set up a case and then call the API at once. The product
 * applies such a change to its in-memory session state when its notification comes back (within a few
 * milliseconds on PostgreSQL, and at once for its own HTTP writes), so each injected request of a suite first waits
 * for the channel to deliver what was committed before it (`sessionState.sync()`, which returns at once when the
 * channel is down). Without this, a direct write followed by a request is a race the suite can lose. What is not
 * waited for is tested where it matters: session-state.test.ts uses instances without the wait (`buildTestAppPair`,
 * `waitForChannel: false`) for the delivery delay between instances, direct writes seen at once on PGlite, and each
 * instance reading its own HTTP writes at once.
 */
function waitForChannelBeforeEachRequest(app: FastifyInstance): void {
  const inject = app.inject.bind(app) as (options?: InjectOptions | string) => ReturnType<FastifyInstance['inject']>;
  const waiting = (options?: InjectOptions | string) =>
    options === undefined ? inject() : app.sessionState.sync().then(() => inject(options));
  app.inject = waiting as FastifyInstance['inject'];
}

export interface TestAppPair {
  /** Two API instances, each with its own connections (on PGlite, its own handle) and its own memory, on ONE database. */
  a: FastifyInstance;
  b: FastifyInstance;
  close(): Promise<void>;
}

/**
 * The database of a pair: on PostgreSQL a schema of its own, which B opens again with connections of its own; on
 * PGlite one client in this process, which both instances use (its notifications reach both, in process) and which
 * closes after both apps have, so the first to close never takes it from under the other.
 */
async function openSharedDatabase(backend: Backend, listenUrlOfB: string | undefined) {
  if (backend === 'pglite') {
    if (listenUrlOfB) throw new Error('listenUrlOfB needs PostgreSQL');
    const client = await openPglite();
    const handle = (): Database => ({ ...wrapPglite(client), close: async () => {} });
    return { first: handle(), second: async () => handle(), dispose: () => client.close() };
  }
  const { database, dispose } = await openTestDatabase('postgres');
  const searchPath = schemaOf.get(database);
  const second = async (): Promise<Database> => {
    const direct = openPostgres(databaseUrl!, { searchPath });
    // Only `listen` of the proxied one is used: its pool never opens a connection.
    return listenUrlOfB ? { ...direct, listen: openPostgres(listenUrlOfB, { searchPath }).listen } : direct;
  };
  return { first: database, second, dispose };
}

/**
 * Two real app instances on one freshly migrated and seeded database (state across instances): PostgreSQL unless
 * `backend` says PGlite. `listenUrlOfB` (PostgreSQL): B's notification listener connects there (a test's proxy in
 * front of the server) while its pool connects straight to DATABASE_URL.
 */
export async function buildTestAppPair(
  overrides: Partial<Config> = {},
  options: { listenUrlOfB?: string; backend?: Backend } = {},
): Promise<TestAppPair> {
  const { first, second, dispose } = await openSharedDatabase(options.backend ?? 'postgres', options.listenUrlOfB);
  const key = await testSigningKey();
  const opened: FastifyInstance[] = [];
  try {
    const a = await buildApp({ config: testConfig(overrides), database: first, signingKey: key });
    opened.push(a);
    const database = await second();
    const b = await buildApp({ config: testConfig(overrides), database, signingKey: key }).catch(
      async (error: unknown) => {
        await database.close();
        throw error;
      },
    );
    opened.push(b);
    return {
      a,
      b,
      async close() {
        await Promise.all(opened.map((app) => app.close()));
        await dispose();
      },
    };
  } catch (error) {
    await Promise.all(opened.map((app) => app.close()));
    if (opened.length === 0) await first.close();
    await dispose();
    throw error;
  }
}

export async function createUser(
  app: FastifyInstance,
  fields: { email: string; password: string; status: UserStatus },
): Promise<number> {
  const [user] = await app.db
    .insert(users)
    .values({
      email: fields.email,
      passwordHash: await hashPassword(fields.password),
      name: 'Prueba',
      status: fields.status,
    })
    .returning({ id: users.id });
  if (!user) throw new Error('user not created');
  return user.id;
}

export async function login(app: FastifyInstance, email = adminEmail, password = adminPassword): Promise<string> {
  const response = await app.inject({ method: 'POST', url: '/auth/login', payload: { email, password } });
  if (response.statusCode !== 200) throw new Error(`login failed: ${response.statusCode} ${response.body}`);
  return response.json<{ access_token: string }>().access_token;
}

/** A token for `user` without signing in through HTTP: writes its session row as `startSession` does. */
export async function sessionToken(app: FastifyInstance, user: User): Promise<string> {
  const id = newSessionId();
  const issuedAt = new Date();
  const expiresAt = new Date(issuedAt.getTime() + app.config.tokenTtlSeconds * 1000);
  await app.db.insert(sessions).values({
    id,
    userId: user.id,
    device: 'Computadora',
    browser: 'Prueba',
    os: 'Linux',
    address: '127.0.0.1',
    tokenVersion: user.tokenVersion,
    expiresAt,
  });
  return app.tokens.sign(user, { id, issuedAt, expiresAt });
}
