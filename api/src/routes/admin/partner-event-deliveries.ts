import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { listDeliveries, resendDelivery } from '../../domain/partner-events/delivery-history.js';
import { signedIn } from '../../plugins/app/authentication.js';
import { adminErrors, bearerSecurity as security, ErrorRef } from '../../schemas/common.js';
import {
  DeliveriesParams,
  DeliveriesQuery,
  DeliveryParams,
  PartnerDelivery,
  PartnerDeliveryPage,
} from '../../schemas/partner-event-deliveries.js';

const tags = ['admin'];

/**
 * A subscription's deliveries, under /admin/clientes-oidc/:clientId/suscripciones/:id/entregas (administrators only,
 * from the parent scope): what the portal sent to a partner app's receiver and how it went, and 'Reenviar'.
 */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/:clientId/suscripciones/:id/entregas',
    {
      schema: {
        summary:
          'Las entregas recientes de una suscripción, la más reciente primero, por páginas con cursor: evento, ' +
          'número de orden, estado, intentos, próximo intento, último error en español y código de respuesta',
        tags,
        security,
        params: DeliveriesParams,
        querystring: DeliveriesQuery,
        response: { 200: PartnerDeliveryPage, 404: ErrorRef, ...adminErrors },
      },
    },
    async (request) => listDeliveries(app.db, request.params.clientId, request.params.id, request.query),
  );

  app.post(
    '/:clientId/suscripciones/:id/entregas/:entregaId/reenviar',
    {
      preHandler: app.outboundLimit((request) => `cliente:${(request.params as { clientId: string }).clientId}`),
      schema: {
        summary:
          'Vuelve a poner en cola una entrega entregada, fallida o cancelada, con el mismo webhook-id y el mismo ' +
          'número de orden (sale antes que las posteriores que esperan) y una tanda nueva de reintentos; queda en ' +
          'el registro de auditoría. 409 si aún está en cola o la suscripción está desactivada',
        tags,
        security,
        params: DeliveryParams,
        response: { 200: PartnerDelivery, 404: ErrorRef, 409: ErrorRef, ...adminErrors },
      },
    },
    async (request) => {
      const { clientId, id, entregaId } = request.params;
      const queued = await resendDelivery(app.db, signedIn(request), clientId, id, entregaId);
      // Sent now rather than at the next poll (another instance's worker finds it at its own).
      app.partnerEvents.worker.wake();
      return queued;
    },
  );
};

export default routes;
