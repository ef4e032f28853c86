import type { FastifyInstance } from 'fastify'
import type { CodePurpose, User } from '../../db/schema.js'
import { HttpError } from '../../lib/errors.js'

export const invalidCode = () => new HttpError(400, 'Código inválido o expirado', 'INVALID_CODE')

/**
 * The account whose code may be used; otherwise throws the answer: 400 when wrong, expired or the email unknown,
 * 429 once 5 wrong tries killed the code.
 */
export async function checkCode(
  app: FastifyInstance,
  user: User | undefined,
  purpose: CodePurpose,
  code: string,
): Promise<User> {
  // An unknown email gets the same answer as a wrong code.
  const result = user ? await app.codes.check(user.id, purpose, code) : 'invalid'
  if (result === 'invalid' || !user) throw invalidCode()
  if (result === 'exhausted') {
    throw new HttpError(429, 'Demasiados intentos fallidos. Solicita un código nuevo.', 'CODE_ATTEMPTS_EXCEEDED')
  }
  return user
}

/**
 * Background work that mails a code after the answer has gone: if it fails (the database went away), the code-mail
 * cooldown reserved for it is given back, so asking again does not wait a minute for a mail that never left.
 */
export function releasingCooldown(app: FastifyInstance, email: string, purpose: CodePurpose, work: () => Promise<void>) {
  return async () => {
    try {
      await work()
    } catch (error) {
      await app.limits.releaseCodeMail(email, purpose).catch(() => {})
      throw error
    }
  }
}
