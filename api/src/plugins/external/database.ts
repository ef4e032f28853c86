import fp from 'fastify-plugin'
import { openDatabase, type Database, type Db } from '../../db/client.js'
import { migrate } from '../../db/migrate.js'
import { seed } from '../../db/seed.js'

declare module 'fastify' {
  interface FastifyInstance {
    db: Db
    database: Database
  }
}

export interface DatabasePluginOptions {
  /** An already open database (tests); otherwise one is opened from the configuration. Closed with the app. */
  database?: Database
}

export default fp<DatabasePluginOptions>(async (app, options) => {
  const { config } = app
  const database = options.database
    ?? await openDatabase(config, (error) => app.log.error({ err: error }, 'idle database connection failed'))
  app.addHook('onClose', () => database.close())

  const applied = await migrate(database)
  if (applied.length > 0) app.log.info({ migrations: applied }, 'migrations applied')

  const { catalogueCreated, adminCreated } = await seed(database.db, config)
  if (catalogueCreated) app.log.info('seed catalogue created')
  if (adminCreated?.generatedPassword) {
    // Straight to stdout, once: it is the only time this password is ever shown.
    process.stdout.write(`\nAdministrador creado: ${adminCreated.email} / ${adminCreated.generatedPassword}\n\n`)
  } else if (adminCreated) {
    app.log.info({ email: adminCreated.email }, 'administrator created')
  }

  app.decorate('database', database)
  app.decorate('db', database.db)
}, { name: 'database' })
