import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import fp from 'fastify-plugin';
import { openDatabase, type Database, type Db } from '../../db/client.js';
import { migrate } from '../../db/migrate.js';
import { seed } from '../../db/seed.js';
import { watchWrites, writeProbeSql, type DatabaseWrites } from '../../db/writes.js';
import { diskFull } from '../../lib/errors.js';

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
    database: Database;
    databaseOutage: DatabaseOutage;
    /** Whether the database can write (a full disk leaves it answering reads): readiness asks it. */
    databaseWrites: DatabaseWrites;
  }
}

/**
 * One story per outage in the log instead of one stack trace per refused request: the first failure is logged once
 * (error, with its cause), every request refused meanwhile is only counted (debug), and a probe every second logs
 * the end once (warn) with how long it lasted and how many requests were refused.
 */
export interface DatabaseOutage {
  /** A request (or background work) could not reach the database: counted among the refused. */
  refused(error: unknown, log?: FastifyBaseLogger): void;
  /** An idle pooled connection failed: opens the outage like a refusal, but no request was refused. */
  lost(error: unknown): void;
  readonly active: boolean;
}

const probeEveryMs = 1_000;

function trackOutages(
  log: FastifyBaseLogger,
  probe: () => Promise<unknown>,
  now = Date.now,
): DatabaseOutage & { stop(): void } {
  let outage: { since: number; refused: number; timer: NodeJS.Timeout } | undefined;
  let stopped = false;
  const check = async () => {
    if (!outage || stopped) return;
    try {
      await probe();
    } catch {
      if (outage && !stopped) outage.timer = setTimeout(check, probeEveryMs).unref();
      return;
    }
    log.warn({ durationMs: now() - outage.since, refusedRequests: outage.refused }, 'database available again');
    outage = undefined;
  };
  const fail = (error: unknown, requestLog: FastifyBaseLogger, refusals: number) => {
    // The database answers but its disk is full: that story is told once by `databaseWrites`, not as an outage.
    if (diskFull(error)) {
      requestLog.debug({ err: error }, 'database cannot write');
      return;
    }
    if (outage) {
      outage.refused += refusals;
      requestLog.debug({ err: error }, 'database unavailable');
      return;
    }
    log.error({ err: error }, 'database unavailable: requests are answered 503 until it is back');
    outage = { since: now(), refused: refusals, timer: setTimeout(check, probeEveryMs).unref() };
  };
  return {
    get active() {
      return outage !== undefined;
    },
    refused: (error, requestLog = log) => fail(error, requestLog, 1),
    lost: (error) => fail(error, log, 0),
    stop() {
      stopped = true;
      if (outage) clearTimeout(outage.timer);
    },
  };
}

export interface DatabasePluginOptions {
  /** An already open database (tests); otherwise one is opened from the configuration. Closed with the app. */
  database?: Database;
}

export default fp<DatabasePluginOptions>(
  async (app, options) => {
    const { config } = app;
    // Before the database opens: an idle connection may fail at any time after.
    const outage = trackOutages(app.log, () => app.db.execute(sql`select 1`));
    const database = options.database ?? (await openDatabase(config, (error) => outage.lost(error)));
    let writes: DatabaseWrites | undefined;
    database.onQueryFailure((error) => {
      app.metrics.databaseFailure();
      writes?.failed(error);
    });
    app.addHook('onClose', async () => {
      outage.stop();
      writes?.stop();
      await database.close();
    });
    app.decorate('databaseOutage', outage);

    const applied = await migrate(database);
    if (applied.length > 0) app.log.info({ migrations: applied }, 'migrations applied');

    const { catalogueCreated, adminCreated } = await seed(database.db, config);
    if (catalogueCreated) app.log.info('seed catalogue created');
    if (adminCreated?.generatedPassword) {
      // Straight to stdout, once: it is the only time this password is ever shown.
      process.stdout.write(`\nAdministrador creado: ${adminCreated.email} / ${adminCreated.generatedPassword}\n`);
      // Under the default ADMIN_SECOND_FACTOR=required the panel first asks for a second factor.
      if (config.adminSecondFactor === 'required')
        process.stdout.write('Para probar sin segundo factor: ADMIN_SECOND_FACTOR=optional npm start\n');
      process.stdout.write('\n');
    } else if (adminCreated) {
      app.log.info({ email: adminCreated.email }, 'administrator created');
    }

    // Watched once started: a start that fails for a full disk says so in its one line (server.ts), not in the log.
    writes = watchWrites(() => database.script(writeProbeSql), app.log);
    app.decorate('databaseWrites', writes);
    app.decorate('database', database);
    app.decorate('db', database.db);
  },
  { name: 'database', dependencies: ['metrics'] },
);
