import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { HttpError } from '../../lib/errors.js';
import { signedIn } from '../../plugins/app/authentication.js';
import { commonErrors, ErrorRef, IdParams, Page } from '../../schemas/common.js';
import { userListItem } from '../users/queries.js';
import { UserListItem } from '../users/schemas.js';
import { changeUserStatus } from './accounts.js';
import { listAudit } from './audit.js';
import { dashboard } from './dashboard.js';
import { createStripe, paidSubscriptionCharges, withProvider } from '../billing/stripe.js';
import { AuditEntry, AuditQuery, Dashboard } from './schemas.js';

const adminErrors = { 401: ErrorRef, 403: ErrorRef, ...commonErrors };
const security = [{ bearerAuth: [] }];

/**
 * Administrator-only calls that are not a resource of their own: the dashboard's figures, the audit log and the
 * status toggle (whose path the spec puts under /auth). Registered without a prefix.
 */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook('onRequest', app.authenticate);
  app.addHook('onRequest', app.requireAdmin);

  const stripe = app.config.billing ? createStripe(app.config.billing) : undefined;
  const paidInvoices = stripe
    ? (since: number) => withProvider(app.log, () => paidSubscriptionCharges(stripe, since))
    : undefined;

  app.get(
    '/admin/dashboard',
    {
      schema: {
        summary: 'Cifras del dashboard de administración, calculadas de la base de datos (UTC)',
        tags: ['admin'],
        security,
        response: { 200: Dashboard, ...adminErrors },
      },
    },
    async () => dashboard(app.db, new Date(), paidInvoices),
  );

  app.get(
    '/admin/auditoria',
    {
      schema: {
        summary: 'Registro de auditoría: quién hizo qué a quién y cuándo, lo más reciente primero',
        tags: ['admin'],
        security,
        querystring: AuditQuery,
        response: { 200: Page(AuditEntry), ...adminErrors },
      },
    },
    async (request) => listAudit(app.db, request.query),
  );

  app.put(
    '/auth/cambiar-estado/:id',
    {
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
    },
    async (request) => {
      const actor = signedIn(request);
      const { id } = request.params;
      if (id === actor.user.id) {
        throw new HttpError(409, 'No puedes cambiar el estado de tu propia cuenta', 'CANNOT_CHANGE_OWN_STATUS');
      }
      return app.db.transaction(async (tx) => {
        const { after } = await changeUserStatus(tx, actor, id);
        return { user: userListItem(after) };
      });
    },
  );
};

export default routes;
