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
