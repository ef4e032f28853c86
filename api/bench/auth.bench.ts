// GET /auth/user against a bare Fastify route, and POST /auth/login against raw argon2id verifies at the same
// parameters: how much the API adds on top of the framework and of the password hash it cannot avoid.
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { createInterface } from 'node:readline'
import autocannon from 'autocannon'
import { hashPassword, verifyPassword } from '../src/plugins/app/passwords.js'

const seconds = Number(process.env.BENCH_SECONDS || 4)
const adminEmail = 'bench@portal.local'
const adminPassword = 'clave-del-benchmark'
const loginConnections = 4

const server = spawn(process.execPath, ['--import', 'tsx', new URL('./server.ts', import.meta.url).pathname], {
  env: {
    ...process.env,
    ADMIN_EMAIL: adminEmail,
    ADMIN_PASSWORD: adminPassword,
    // The per-IP limits would otherwise answer most of the login load with 429 (all of it comes from 127.0.0.1).
    LOGIN_RATE_LIMIT_PER_MINUTE: '100000',
  },
  stdio: ['ignore', 'pipe', 'inherit'],
})
const [line] = await once(createInterface({ input: server.stdout! }), 'line') as [string]
const { api, bare } = JSON.parse(line) as { api: string, bare: string }

interface Row {
  what: string
  perSecond: number
  p99: number | undefined
  reference?: string
}

async function load(options: autocannon.Options): Promise<{ perSecond: number, p99: number }> {
  const result = await autocannon({ duration: seconds, ...options })
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${options.url}: ${result.non2xx} respuestas no 2xx y ${result.errors} errores`)
  }
  return { perSecond: result.requests.average, p99: result.latency.p99 }
}

/** argon2id verifies with `parallel` in flight for the benchmark's duration, on the library's thread pool. */
async function rawVerifies(parallel: number): Promise<number> {
  const hash = await hashPassword(adminPassword)
  const end = Date.now() + seconds * 1000
  let done = 0
  await Promise.all(Array.from({ length: parallel }, async () => {
    while (Date.now() < end) {
      if (!await verifyPassword(hash, adminPassword)) throw new Error('argon2 verify failed')
      done += 1
    }
  }))
  return done / seconds
}

/** A share as a percentage, with a decimal when it is small enough for rounding to hide it. */
const percent = (part: number, whole: number) => {
  const value = (part / whole) * 100
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} %`
}

const rows: Row[] = []
try {
  const loginBody = JSON.stringify({ email: adminEmail, password: adminPassword })
  const json = { 'content-type': 'application/json' }
  const signIn = await fetch(`${api}/auth/login`, { method: 'POST', headers: json, body: loginBody })
  const { access_token: token } = await signIn.json() as { access_token: string }

  for (const connections of [1, 50]) {
    const user = await load({ url: `${api}/auth/user`, connections, headers: { authorization: `Bearer ${token}` } })
    const floor = await load({ url: `${bare}/bare`, connections })
    rows.push({ what: `bare Fastify route, ${connections} conn.`, ...floor })
    rows.push({
      what: `GET /auth/user, ${connections} conn.`,
      ...user,
      reference: `${percent(user.perSecond, floor.perSecond)} of the bare route`,
    })
  }

  const verifies = await rawVerifies(loginConnections)
  rows.push({ what: `raw argon2id verify, ${loginConnections} in flight`, perSecond: verifies, p99: undefined })
  const logins = await load({ url: `${api}/auth/login`, connections: loginConnections, method: 'POST', headers: json, body: loginBody })
  rows.push({
    what: `POST /auth/login, ${loginConnections} conn.`,
    ...logins,
    reference: `${percent(logins.perSecond, verifies)} of raw verifies`,
  })
} finally {
  server.kill('SIGTERM')
  await once(server, 'exit')
}

const format = (value: number) => (value >= 100 ? Math.round(value).toLocaleString('en-US') : value.toFixed(1))
console.log(`GET /auth/user and POST /auth/login, ${seconds} s each, autocannon on 127.0.0.1 (same machine)\n`)
console.log('| measure | per second | p99 (ms) | relative |')
console.log('|---|---:|---:|---|')
for (const row of rows) {
  console.log(`| ${row.what} | ${format(row.perSecond)} | ${row.p99 === undefined ? '—' : row.p99} | ${row.reference ?? ''} |`)
}
