import helmet from '@fastify/helmet'
import fp from 'fastify-plugin'

export default fp(async (app) => {
  await app.register(helmet, {
    // The API only answers JSON: nothing it returns may load resources or be framed. /docs sets its own policy.
    contentSecurityPolicy: {
      useDefaults: false,
      directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] },
    },
    referrerPolicy: { policy: 'no-referrer' },
  })
}, { name: 'helmet' })
