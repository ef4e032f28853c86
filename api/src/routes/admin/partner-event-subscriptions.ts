import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import {
  createSubscription,
  deleteSubscription,
  listSubscriptions,
  rotateSubscriptionSecret,
} from '../../domain/partner-events/subscriptions.js';
import { signedIn } from '../../plugins/app/authentication.js';
import { adminErrors, bearerSecurity as security, ErrorRef } from '../../schemas/common.js';
import { ClientIdParams } from '../../schemas/identity-provider.js';
import {
  SubscriptionBody,
  SubscriptionCreated,
  SubscriptionList,
  SubscriptionParams,
  SubscriptionSecret,
} from '../../schemas/partner-event-subscriptions.js';

const tags = ['admin'];

/**
 * A client's event subscriptions, under /admin/clientes-oidc/:clientId/suscripciones (platform administrators only,
 * from the parent scope; OpenID Connect clients belong to no company): each change audited, a secret answered once.
 */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  const deps = () => app.partnerEvents.subscriptions;

  app.get(
    '/:clientId/suscripciones',
    {
      schema: {
        summary: 'Las suscripciones a eventos de un cliente (nunca sus secretos)',
        tags,
        security,
        params: ClientIdParams,
        response: { 200: SubscriptionList, 404: ErrorRef, ...adminErrors },
      },
    },
    async (request) => ({ data: await listSubscriptions(deps(), request.params.clientId) }),
  );

  app.post(
    '/:clientId/suscripciones',
    {
      // The address typed receives the client's events (plugins/app/outbound-limits.ts).
      preHandler: app.outboundLimit((request) => `cliente:${(request.params as { clientId: string }).clientId}`),
      schema: {
        summary:
          'Suscribe una dirección https a eventos de las personas y los planes de la aplicación del cliente; el ' +
          'secreto de firma (whsec_…) se muestra solo en esta respuesta',
        tags,
        security,
        params: ClientIdParams,
        body: SubscriptionBody,
        response: { 201: SubscriptionCreated, 404: ErrorRef, 409: ErrorRef, ...adminErrors },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await createSubscription(deps(), signedIn(request), request.params.clientId, request.body)),
  );

  app.post(
    '/:clientId/suscripciones/:id/secreto',
    {
      schema: {
        summary:
          'Un secreto de firma nuevo, que se muestra solo en esta respuesta; el anterior sigue firmando junto a él ' +
          'durante 24 horas, para que el receptor cambie sin perder eventos',
        tags,
        security,
        params: SubscriptionParams,
        response: { 200: SubscriptionSecret, 404: ErrorRef, ...adminErrors },
      },
    },
    async (request) => rotateSubscriptionSecret(deps(), signedIn(request), request.params.clientId, request.params.id),
  );

  app.delete(
    '/:clientId/suscripciones/:id',
    {
      schema: {
        summary: 'Elimina una suscripción con sus entregas: no se le envía nada más',
        tags,
        security,
        params: SubscriptionParams,
        response: { 204: Type.Null({ description: 'Suscripción eliminada' }), 404: ErrorRef, ...adminErrors },
      },
    },
    async (request, reply) => {
      await deleteSubscription(deps(), signedIn(request), request.params.clientId, request.params.id);
      return reply.code(204).send(null);
    },
  );
};

export default routes;
