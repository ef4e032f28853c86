import { buildApp } from './app.js'
import { loadConfig, type Config } from './config.js'
import { keepDataPrivate } from './lib/private-data.js'

function readConfig(): Config {
  try {
    return loadConfig()
  } catch (error) {
    console.error((error as Error).message)
    process.exit(1)
  }
}

const config = readConfig()
keepDataPrivate(config.dataDir)

const app = await buildApp({ config }).catch((error: Error) => {
  console.error(`No se pudo iniciar la API: ${error.message}`)
  process.exit(1)
})
// PGlite lays down its first files with the modes of its bundled image (0666), whatever the umask says.
keepDataPrivate(config.dataDir)

let closing = false
async function shutdown(signal: NodeJS.Signals) {
  if (closing) return
  closing = true
  app.log.info({ signal }, 'shutting down')
  // Requests in flight get a few seconds to finish; a stuck one must not keep the process alive forever.
  setTimeout(() => process.exit(1), 10_000).unref()
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
