import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { HttpError } from '../../lib/errors.js';
import { signedIn, adminOnly } from '../../plugins/app/authentication.js';
import { ErrorRef, IdParams, adminErrors, bearerSecurity as security } from '../../schemas/common.js';
import { changeUserStatus } from '../../domain/accounts/status.js';
import { userListItem } from '../../domain/accounts/queries.js';
import { UserListItem } from '../../schemas/users.js';
import { accountMessages } from '../../domain/accounts/messages.js';

/** `PUT /auth/cambiar-estado/{id}` (spec §7: under /auth, for administrators only): the admin panel's status toggle. */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  adminOnly(app);

  app.put(
    '/cambiar-estado/:id',
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
        throw new HttpError(409, accountMessages.cannotChangeOwnStatus, 'CANNOT_CHANGE_OWN_STATUS');
      }
      return app.db.transaction(async (tx) => {
        const { after } = await changeUserStatus(tx, actor, id);
        return { user: userListItem(after) };
      });
    },
  );
};

export default routes;
