import fp from 'fastify-plugin'
import type { CodePurpose } from '../../db/schema.js'
import { retryLater, type HttpError } from '../../lib/errors.js'

export const codeCooldownMs = 60_000
export const mailsPerHour = 10
export const lockoutThreshold = 5
const firstLockMs = 30_000
const maxLockMs = 15 * 60_000
/** Failures are remembered this long, so a slow guesser keeps meeting the longer locks. */
const failureMemoryMs = 24 * 60 * 60_000

/** 30 s at the 5th failure in a row, doubling with each further one, 15 min at most. */
export function lockDurationMs(failures: number): number {
  if (failures < lockoutThreshold) return 0
  return Math.min(maxLockMs, firstLockMs * 2 ** Math.min(failures - lockoutThreshold, 10))
}

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000))

/**
 * Brute-force and mail limits. Everything is keyed by the normalized email, whether an account has it or not, so
 * the answers are the same for known and unknown addresses.
 */
export interface AccountLimits {
  /** Ms left on the email's sign-in lock, 0 when it may try. */
  signInLockedFor(email: string): Promise<number>
  /** Records a failed password; answers the ms of the lock this failure starts (0 while under the threshold). */
  recordSignInFailure(email: string): Promise<number>
  clearSignInFailures(email: string): Promise<void>
  /** Takes the right to mail a code, or answers the 429 to give: 60 s between codes, 10 mails an hour. */
  reserveCodeMail(email: string, purpose: CodePurpose): Promise<HttpError | null>
  /** Gives back the cooldown of a reservation whose mail was never written (its transaction failed). */
  releaseCodeMail(email: string, purpose: CodePurpose): Promise<void>
}

declare module 'fastify' {
  interface FastifyInstance {
    limits: AccountLimits
  }
}

export default fp(async (app) => {
  const { counters, clock } = app
  const lockKey = (email: string) => `signin-lock:${email}`
  const failuresKey = (email: string) => `signin-failures:${email}`
  const cooldownKey = (email: string, purpose: CodePurpose) => `code-cooldown:${purpose}:${email}`

  app.decorate('limits', {
    signInLockedFor: (email) => counters.heldFor(lockKey(email)),

    async recordSignInFailure(email) {
      const { count } = await counters.increment(failuresKey(email), failureMemoryMs)
      const lockMs = lockDurationMs(count)
      if (lockMs > 0) await counters.hold(lockKey(email), lockMs, true)
      return lockMs
    },

    async clearSignInFailures(email) {
      await counters.delete(failuresKey(email), lockKey(email))
    },

    async reserveCodeMail(email, purpose) {
      const waitMs = await counters.hold(cooldownKey(email, purpose), codeCooldownMs)
      if (waitMs > 0) {
        const n = seconds(waitMs)
        return retryLater(429, `Espera ${n} ${n === 1 ? 'segundo' : 'segundos'} antes de pedir otro código`, 'CODE_COOLDOWN', waitMs)
      }
      const { count, resetAt } = await counters.increment(`code-mails:${email}`, 60 * 60_000)
      if (count > mailsPerHour) {
        const minutes = Math.ceil((resetAt - clock()) / 60_000)
        return retryLater(
          429,
          `Has pedido demasiados códigos. Inténtalo de nuevo en ${minutes} ${minutes === 1 ? 'minuto' : 'minutos'}.`,
          'CODE_MAIL_LIMIT',
          resetAt - clock(),
        )
      }
      return null
    },

    async releaseCodeMail(email, purpose) {
      await counters.delete(cooldownKey(email, purpose))
    },
  } satisfies AccountLimits)
}, { name: 'limits', dependencies: ['counters'] })
