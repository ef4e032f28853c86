import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { listConnectedApps } from '../../domain/identity-provider/connected-apps.js';
import { adminErrors, bearerSecurity as security } from '../../schemas/common.js';
import { ConnectedApp } from '../../schemas/connected-apps.js';

/**
 * The registry of partner apps, under /admin/aplicaciones-conectadas (administrators only, from the parent scope):
 * one list whatever the protocol. Each protocol's connection is still changed under its own path
 * (/admin/clientes-oidc, /admin/aplicaciones-saml); event subscriptions go under the app's registry id.
 */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '',
    {
      schema: {
        summary: 'Las aplicaciones conectadas, con su protocolo (OpenID Connect o SAML), por nombre',
        tags: ['admin'],
        security,
        response: { 200: Type.Object({ data: Type.Array(ConnectedApp) }), ...adminErrors },
      },
    },
    async () => ({ data: await listConnectedApps(app.db) }),
  );
};

export default routes;
