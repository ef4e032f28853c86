import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import {
  clientNotFound,
  clientView,
  createClient,
  deleteClient,
  findClient,
  libraryCheck,
  listClients,
  rotateClientSecret,
  updateClient,
} from '../../domain/identity-provider/oidc/clients.js';
import { signedIn } from '../../plugins/app/authentication.js';
import { adminErrors, bearerSecurity as security, ErrorRef } from '../../schemas/common.js';
import {
  ClientIdParams,
  OidcClient,
  OidcClientBody,
  OidcClientCreated,
  OidcClientSecret,
} from '../../schemas/identity-provider.js';

const tags = ['admin'];

/**
 * The OpenID Connect clients, under /admin/clientes-oidc (administrators only, from the parent scope): every change
 * is audited with the change, and a secret is answered once (created, made confidential, rotated).
 */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  /** The library's own check of a client's settings; a refusal is logged with the request's id. */
  const check = (request: FastifyRequest) => libraryCheck(app.identityProvider.provider, request.log);

  app.get(
    '',
    {
      schema: {
        summary: 'Los clientes OpenID Connect registrados',
        tags,
        security,
        response: { 200: Type.Object({ data: Type.Array(OidcClient) }), ...adminErrors },
      },
    },
    async () => ({ data: await listClients(app.db) }),
  );

  app.get(
    '/:clientId',
    {
      schema: {
        summary: 'Un cliente OpenID Connect',
        tags,
        security,
        params: ClientIdParams,
        response: { 200: OidcClient, 404: ErrorRef, ...adminErrors },
      },
    },
    async (request) => {
      const row = await findClient(app.db, request.params.clientId);
      if (!row) throw clientNotFound();
      return clientView(row);
    },
  );

  app.post(
    '',
    {
      schema: {
        summary: 'Registra un cliente; el secreto (clientes confidenciales) se muestra solo en esta respuesta',
        tags,
        security,
        body: OidcClientBody,
        response: { 201: OidcClientCreated, 409: ErrorRef, ...adminErrors },
      },
    },
    async (request, reply) => {
      const created = await createClient(app.db, signedIn(request), request.body, check(request));
      return reply.code(201).send({
        clientId: created.client.clientId,
        ...(created.clientSecret ? { clientSecret: created.clientSecret } : {}),
      });
    },
  );

  app.put(
    '/:clientId',
    {
      schema: {
        summary: 'Cambia un cliente (todos sus campos); si pasa a confidencial, la respuesta trae su secreto',
        tags,
        security,
        params: ClientIdParams,
        body: OidcClientBody,
        response: {
          200: Type.Intersect([OidcClient, Type.Object({ clientSecret: Type.Optional(Type.String()) })]),
          404: ErrorRef,
          409: ErrorRef,
          ...adminErrors,
        },
      },
    },
    async (request) => {
      const updated = await updateClient(
        app.db,
        signedIn(request),
        request.params.clientId,
        request.body,
        check(request),
      );
      return { ...updated.client, ...(updated.clientSecret ? { clientSecret: updated.clientSecret } : {}) };
    },
  );

  app.post(
    '/:clientId/secreto',
    {
      schema: {
        summary: 'Un secreto nuevo para un cliente confidencial; el anterior deja de valer al instante',
        tags,
        security,
        params: ClientIdParams,
        response: { 200: OidcClientSecret, 404: ErrorRef, 409: ErrorRef, ...adminErrors },
      },
    },
    async (request) => rotateClientSecret(app.db, signedIn(request), request.params.clientId),
  );

  app.delete(
    '/:clientId',
    {
      schema: {
        summary: 'Elimina un cliente con todos sus tokens',
        tags,
        security,
        params: ClientIdParams,
        response: { 204: Type.Null({ description: 'Cliente eliminado' }), 404: ErrorRef, ...adminErrors },
      },
    },
    async (request, reply) => {
      await deleteClient(app.db, signedIn(request), request.params.clientId);
      return reply.code(204).send(null);
    },
  );
};

export default routes;
