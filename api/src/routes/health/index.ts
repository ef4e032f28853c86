import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { sql } from 'drizzle-orm'
import { Type } from 'typebox'
import { serviceUnavailable } from '../../lib/errors.js'
import { ErrorRef } from '../../schemas/common.js'

const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/health', {
    schema: {
      summary: 'Estado del servicio y de su base de datos (para balanceadores y monitoreo)',
      tags: ['sistema'],
      response: {
        200: Type.Object({ status: Type.Literal('ok'), database: Type.Literal('ok') }, { additionalProperties: false }),
        503: ErrorRef,
      },
    },
  }, async (request) => {
    try {
      await app.db.execute(sql`select 1`)
    } catch (error) {
      request.log.error({ err: error }, 'health check: database unavailable')
      throw serviceUnavailable()
    }
    return { status: 'ok' as const, database: 'ok' as const }
  })
}

export default routes
