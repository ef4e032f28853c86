import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { listAuthorizedApps, revokeAuthorizedApp } from '../../domain/identity-provider/consents.js';
import { signedIn } from '../../plugins/app/authentication.js';
import { commonErrors, ErrorRef } from '../../schemas/common.js';
import { AuthorizedApp, ClientIdParams } from '../../schemas/identity-provider.js';

const security = [{ bearerAuth: [] }];

/** The third-party apps the signed-in person allowed to use their account (/perfil): list them, take one back. */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/aplicaciones',
    {
      onRequest: app.authenticate,
      schema: {
        summary: 'Las apps de terceros a las que permití acceder a mi cuenta',
        tags: ['auth'],
        security,
        response: { 200: Type.Object({ data: Type.Array(AuthorizedApp) }), 401: ErrorRef, ...commonErrors },
      },
    },
    async (request) => ({ data: await listAuthorizedApps(app.db, signedIn(request).user.id) }),
  );

  app.delete(
    '/aplicaciones/:clientId',
    {
      onRequest: app.authenticate,
      schema: {
        summary: 'Quita el acceso de una app: sus tokens dejan de valer y se le avisa de cada sesión',
        tags: ['auth'],
        security,
        params: ClientIdParams,
        response: { 204: Type.Null({ description: 'Acceso quitado' }), 401: ErrorRef, 404: ErrorRef, ...commonErrors },
      },
    },
    async (request, reply) => {
      await revokeAuthorizedApp(app.db, signedIn(request).user.id, request.params.clientId);
      app.identityProvider.logouts.wake();
      return reply.code(204).send(null);
    },
  );
};

export default routes;
