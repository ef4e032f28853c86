import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { HttpError } from '../../lib/errors.js';
import { signedIn, adminOnly } from '../../plugins/app/authentication.js';
import { endSession, listSessions, sessionNotFound } from '../../domain/sessions/sessions.js';
import { Page, adminErrors, bearerSecurity as security } from '../../schemas/common.js';
import { Session, SessionId } from '../../schemas/sessions.js';
import { listAudit, recordAudit } from '../../domain/audit/log.js';
import { userExists } from '../../domain/accounts/queries.js';
import { dashboard } from '../../domain/dashboard/figures.js';
import { createStripe, paidSubscriptionCharges, withProvider } from '../../domain/billing/stripe.js';
import { AuditEntry, AuditQuery, Dashboard } from '../../schemas/admin.js';
import { accountMessages } from '../../domain/accounts/messages.js';
import appRoleRoutes from './app-roles.js';
import companyRoutes from './companies.js';
import connectedAppRoutes from './connected-apps.js';
import oidcClientRoutes from './oidc-clients.js';
import partnerEventDeliveryRoutes from './partner-event-deliveries.js';
import partnerEventSubscriptionRoutes from './partner-event-subscriptions.js';
import samlAppRoutes from './saml-apps.js';

/**
 * The admin panel's own calls, under /admin: the dashboard's figures, the audit log, people's sessions and the OpenID
 * Connect clients (administrators only).
 */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  adminOnly(app);
  app.register(oidcClientRoutes, { prefix: '/clientes-oidc' });
  app.register(partnerEventDeliveryRoutes, { prefix: '/clientes-oidc', by: 'cliente' });
  app.register(partnerEventSubscriptionRoutes, { prefix: '/clientes-oidc', by: 'cliente' });
  app.register(connectedAppRoutes, { prefix: '/aplicaciones-conectadas' });
  app.register(partnerEventDeliveryRoutes, { prefix: '/aplicaciones-conectadas', by: 'aplicacion' });
  app.register(partnerEventSubscriptionRoutes, { prefix: '/aplicaciones-conectadas', by: 'aplicacion' });
  app.register(companyRoutes, { prefix: '/empresas' });
  app.register(samlAppRoutes, { prefix: '/aplicaciones-saml' });
  app.register(appRoleRoutes);

  const stripe = app.config.billing ? createStripe(app.config.billing) : undefined;
  const paidInvoices = stripe
    ? (since: number) => withProvider(app.log, () => paidSubscriptionCharges(stripe, since))
    : undefined;

  app.get(
    '/dashboard',
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
    '/auditoria',
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

  const userNotFound = () => new HttpError(404, accountMessages.userNotFound, 'USER_NOT_FOUND');
  const UserParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }) });

  app.get(
    '/users/:id/sessions',
    {
      schema: {
        summary: 'Las sesiones abiertas de un usuario',
        tags: ['admin'],
        security,
        params: UserParams,
        response: { 200: Type.Array(Session), 404: adminErrors[401], ...adminErrors },
      },
    },
    async (request) => {
      const { id } = request.params;
      if (!(await userExists(app.db, id))) throw userNotFound();
      return listSessions(app.db, id, signedIn(request).sessionId);
    },
  );

  app.delete(
    '/users/:id/sessions/:sessionId',
    {
      schema: {
        summary: 'Cierra una sesión de un usuario; queda en el registro de auditoría',
        tags: ['admin'],
        security,
        params: Type.Object({ id: UserParams.properties.id, sessionId: SessionId }),
        response: { 204: Type.Null({ description: 'Sesión cerrada' }), 404: adminErrors[401], ...adminErrors },
      },
    },
    async (request, reply) => {
      const actor = signedIn(request);
      await app.db.transaction(async (tx) => {
        const ended = await endSession(tx, request.params.id, request.params.sessionId);
        if (!ended) throw sessionNotFound();
        await recordAudit(tx, actor, [
          {
            action: 'user.session_end',
            target: { type: 'user', id: request.params.id },
            details: { device: ended.device, browser: ended.browser, os: ended.os, address: ended.address },
          },
        ]);
      });
      return reply.code(204).send(null);
    },
  );
};

export default routes;
