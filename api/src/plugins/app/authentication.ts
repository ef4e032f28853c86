import type { FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { roles } from '../../db/schema.js'
import { accountSuspended, forbidden, unauthenticated } from '../../lib/errors.js'
import type { VerifiedToken } from './tokens.js'

declare module 'fastify' {
  interface FastifyInstance {
    /** onRequest hook: 401 unless the request carries a valid bearer token; sets `request.auth`. Runs before the body is parsed or validated, so an anonymous caller learns nothing of a route's schema. */
    authenticate(request: FastifyRequest, reply: FastifyReply): Promise<void>
    /** onRequest hook, after `authenticate`: 403 unless the user is an administrator (before validation too). */
    requireAdmin(request: FastifyRequest, reply: FastifyReply): Promise<void>
  }
  interface FastifyRequest {
    auth: VerifiedToken | null
  }
}

/** The signed-in session of a route that runs `authenticate`. */
export function signedIn(request: FastifyRequest): VerifiedToken {
  if (!request.auth) throw unauthenticated()
  return request.auth
}

const bearer = /^Bearer +([A-Za-z0-9_.~+/-]+=*)$/i

export default fp(async (app) => {
  app.decorateRequest('auth', null)

  app.decorate('authenticate', async (request: FastifyRequest, reply: FastifyReply) => {
    const token = bearer.exec(request.headers.authorization ?? '')?.[1]
    const verified = token && token.length <= 4096 ? await app.tokens.verify(token) : null
    // The session of an account suspended meanwhile: 403 USER_SUSPENDED, so the person learns why (the client ends
    // the session as it does on a 401, README "Suspended sessions").
    if (verified === 'suspended') throw accountSuspended()
    if (!verified) {
      reply.header('www-authenticate', 'Bearer')
      throw unauthenticated()
    }
    request.auth = verified
  })

  app.decorate('requireAdmin', async (request: FastifyRequest) => {
    if (signedIn(request).user.role !== roles.admin) throw forbidden()
  })
}, { name: 'authentication' })
