import { buildApp } from './app.js'
import { loadConfig, type Config } from './config.js'

function readConfig(): Config {
  try {
    return loadConfig()
  } catch (error) {
    console.error((error as Error).message)
    process.exit(1)
  }
}

const config = readConfig()

const app = await buildApp({ config }).catch((error: Error) => {
  console.error(`No se pudo iniciar la API: ${error.message}`)
  process.exit(1)
})

let closing = false
async function shutdown(signal: NodeJS.Signals) {
  if (closing) return
  closing = true
  app.log.info({ signal }, 'shutting down')
  // Requests in flight finish within REQUEST_TIMEOUT_MS (or get the 503); then mail sends get 2 s and their claims are
  // released, each database step bounded by DATABASE_TIMEOUT_MS. Past all that something is stuck: exit anyway.
  const bound = config.requestTimeoutMs + 2 * config.databaseTimeoutMs + 2_000
  setTimeout(() => {
    app.log.error({ signal, boundMs: bound }, 'shutdown did not finish in time; exiting anyway')
    process.exit(1)
  }, bound).unref()
  await app.close()
  process.exit(0)
}
process.once('SIGINT', shutdown)
process.once('SIGTERM', shutdown)

try {
  await app.listen({ port: config.port, host: config.host })
} catch (error) {
  console.error(`No se pudo escuchar en ${config.host}:${config.port}: ${(error as Error).message}`)
  await app.close()
  process.exit(1)
}
console.log(`API escuchando en http://${config.host}:${config.port}`)
