import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { listDeliveries, resendDelivery } from '../../domain/partner-events/delivery-history.js';
import { signedIn } from '../../plugins/app/authentication.js';
import { subscriptionPaths } from './partner-event-subscriptions.js';
import { adminErrors, bearerSecurity as security, ErrorRef } from '../../schemas/common.js';
import {
  AppDeliveriesParams,
  AppDeliveryParams,
  DeliveriesParams,
  DeliveriesQuery,
  DeliveryParams,
  PartnerDelivery,
  PartnerDeliveryPage,
} from '../../schemas/partner-event-deliveries.js';

const tags = ['admin'];

const paths = {
  cliente: { params: DeliveriesParams, deliveryParams: DeliveryParams },
  aplicacion: { params: AppDeliveriesParams, deliveryParams: AppDeliveryParams },
} as const;

/**
 * A subscription's deliveries, under …/suscripciones/:id/entregas of a connected app's subscriptions (by registry id
 * or by OpenID Connect client, as partner-event-subscriptions.ts; administrators only, from the parent scope): what
 * the portal sent to a partner app's receiver and how it went, and 'Reenviar'.
 */
const routes: FastifyPluginAsyncTypebox<{ by: keyof typeof subscriptionPaths }> = async (app, { by }) => {
  const { key, owner, limitKey } = subscriptionPaths[by];
  const { params: DeliveriesParams, deliveryParams: DeliveryParams } = paths[by];
  app.get(
    `/${key}/suscripciones/:id/entregas`,
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
    async (request) => listDeliveries(app.db, owner(request.params), request.params.id, request.query),
  );

  app.post(
    `/${key}/suscripciones/:id/entregas/:entregaId/reenviar`,
    {
      preHandler: app.outboundLimit((request) => limitKey(request.params)),
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
      const { id, entregaId } = request.params;
      const queued = await resendDelivery(app.db, signedIn(request), owner(request.params), id, entregaId);
      // Sent now rather than at the next poll (another instance's worker finds it at its own).
      app.partnerEvents.worker.wake();
      return queued;
    },
  );
};

export default routes;
