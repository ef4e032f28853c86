import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { eq } from 'drizzle-orm'
import { Type } from 'typebox'
import { users } from '../../db/schema.js'
import { HttpError } from '../../lib/errors.js'
import { signedIn } from '../../plugins/app/authentication.js'
import { commonErrors, ErrorRef, IdParams, Page } from '../../schemas/common.js'
import { userListItem } from '../users/queries.js'
import { UserListItem } from '../users/schemas.js'
import { checkAccountChange, endsSessions } from '../auth/account-changes.js'
import { listAudit, recordAudit } from './audit.js'
import { dashboard } from './dashboard.js'
import { createStripe, paidSubscriptionCharges, withProvider } from '../billing/stripe.js'
import { AuditEntry, AuditQuery, Dashboard } from './schemas.js'

const adminErrors = { 401: ErrorRef, 403: ErrorRef, ...commonErrors }
const security = [{ bearerAuth: [] }]

/**
 * Administrator-only calls that are not a resource of their own: the dashboard's figures, the audit log and the
 * status toggle (whose path the spec puts under /auth). Registered without a prefix.
 */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook('onRequest', app.authenticate)
  app.addHook('onRequest', app.requireAdmin)

  const stripe = app.config.billing ? createStripe(app.config.billing) : undefined
  const paidInvoices = stripe
    ? (since: number) => withProvider(app.log, () => paidSubscriptionCharges(stripe, since))
    : undefined

  app.get('/admin/dashboard', {
    schema: {
      summary: 'Cifras del dashboard de administración, calculadas de la base de datos (UTC)',
      tags: ['admin'],
      security,
      response: { 200: Dashboard, ...adminErrors },
    },
  }, async () => dashboard(app.db, new Date(), paidInvoices))

  app.get('/admin/auditoria', {
    schema: {
      summary: 'Registro de auditoría: quién hizo qué a quién y cuándo, lo más reciente primero',
      tags: ['admin'],
      security,
      querystring: AuditQuery,
      response: { 200: Page(AuditEntry), ...adminErrors },
    },
  }, async (request) => listAudit(app.db, request.query))

  app.put('/auth/cambiar-estado/:id', {
    schema: {
      summary: 'Alterna el estado del usuario entre activo y suspendido; suspender cierra todas sus sesiones',
      tags: ['admin'],
      security,
      params: IdParams,
      response: {
        200: Type.Object({ user: UserListItem }, { additionalProperties: false }),
        404: ErrorRef,
        409: ErrorRef,
        ...adminErrors,
      },
    },
  }, async (request) => {
    const actor = signedIn(request)
    const { id } = request.params
    return app.db.transaction(async (tx) => {
      const [user] = await tx.select().from(users).where(eq(users.id, id)).for('update')
      if (!user) throw new HttpError(404, 'Usuario no encontrado', 'USER_NOT_FOUND')
      if (user.status === 'pending_verification') {
        throw new HttpError(409, 'El usuario aún no ha verificado su email: verifícalo antes de suspenderlo', 'USER_PENDING')
      }
      const next = user.status === 'active' ? 'suspended' : 'active'
      checkAccountChange(actor.user.id, user, { status: next })
      const [updated] = await tx.update(users)
        .set({ status: next, ...endsSessions(user, next) })
        .where(eq(users.id, id))
        .returning()
      await recordAudit(tx, actor, [{
        action: 'user.status_change',
        target: { type: 'user', id },
        details: { from: user.status, to: next },
      }])
      return { user: userListItem(updated!) }
    })
  })
}

export default routes
