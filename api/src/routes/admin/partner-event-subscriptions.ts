import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import {
  createSubscription,
  deleteSubscription,
  listSubscriptions,
  rotateSubscriptionSecret,
  type SubscriptionOwner,
} from '../../domain/partner-events/subscriptions.js';
import { signedIn } from '../../plugins/app/authentication.js';
import { adminErrors, bearerSecurity as security, ErrorRef } from '../../schemas/common.js';
import { ClientIdParams } from '../../schemas/identity-provider.js';
import {
  AppSubscriptionParams,
  ConnectedAppParams,
  SubscriptionBody,
  SubscriptionCreated,
  SubscriptionList,
  SubscriptionParams,
  SubscriptionSecret,
} from '../../schemas/partner-event-subscriptions.js';

const tags = ['admin'];

/** How a path names the connected app whose subscriptions it manages: its OpenID Connect client, or its registry id. */
export const subscriptionPaths = {
  cliente: {
    key: ':clientId',
    params: ClientIdParams,
    subscriptionParams: SubscriptionParams,
    owner: (params: unknown): SubscriptionOwner => ({ clientId: (params as { clientId: string }).clientId }),
    limitKey: (params: unknown) => `cliente:${(params as { clientId: string }).clientId}`,
  },
  aplicacion: {
    key: ':idApp',
    params: ConnectedAppParams,
    subscriptionParams: AppSubscriptionParams,
    owner: (params: unknown): SubscriptionOwner => ({ connectedAppId: (params as { idApp: number }).idApp }),
    limitKey: (params: unknown) => `aplicacion:${(params as { idApp: number }).idApp}`,
  },
} as const;

/**
 * A connected app's event subscriptions, under /admin/aplicaciones-conectadas/:idApp/suscripciones (any protocol) and,
 * for an OpenID Connect client, /admin/clientes-oidc/:clientId/suscripciones (platform administrators only, from the
 * parent scope; partner apps belong to no company): each change audited, a secret answered once.
 */
const routes: FastifyPluginAsyncTypebox<{ by: keyof typeof subscriptionPaths }> = async (app, { by }) => {
  const deps = () => app.partnerEvents.subscriptions;
  const {
    key,
    params: ClientIdParams,
    subscriptionParams: SubscriptionParams,
    owner,
    limitKey,
  } = subscriptionPaths[by];

  app.get(
    `/${key}/suscripciones`,
    {
      schema: {
        summary: 'Las suscripciones a eventos de un cliente (nunca sus secretos)',
        tags,
        security,
        params: ClientIdParams,
        response: { 200: SubscriptionList, 404: ErrorRef, ...adminErrors },
      },
    },
    async (request) => ({ data: await listSubscriptions(deps(), owner(request.params)) }),
  );

  app.post(
    `/${key}/suscripciones`,
    {
      // The address typed receives the app's events (plugins/app/outbound-limits.ts).
      preHandler: app.outboundLimit((request) => limitKey(request.params)),
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
      reply.code(201).send(await createSubscription(deps(), signedIn(request), owner(request.params), request.body)),
  );

  app.post(
    `/${key}/suscripciones/:id/secreto`,
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
    async (request) => rotateSubscriptionSecret(deps(), signedIn(request), owner(request.params), request.params.id),
  );

  app.delete(
    `/${key}/suscripciones/:id`,
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
      await deleteSubscription(deps(), signedIn(request), owner(request.params), request.params.id);
      return reply.code(204).send(null);
    },
  );
};

export default routes;
