import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { HttpError } from '../../lib/errors.js';
import { adminErrors, adminOnly, bearerSecurity as security } from '../../plugins/app/admin-only.js';
import { signedIn } from '../../plugins/app/authentication.js';
import { ErrorRef, IdParams } from '../../schemas/common.js';
import { changeUserStatus } from '../admin/accounts.js';
import { userListItem } from './queries.js';
import { UserListItem } from '../users/schemas.js';

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
