import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isAllowedPicture, PICTURE_NOT_ALLOWED_MESSAGE } from '@portal/contracts/users/picture';
import type { Db } from '../../db/client.js';
import { forbidden, HttpError } from '../../lib/errors.js';
import { signedIn } from '../../plugins/app/authentication.js';
import { EditUserBody, UpdatePresentationBody, UpdateUserBody, UserEnvelope } from '../../schemas/auth.js';
import { commonErrors, ErrorRef, IdParams } from '../../schemas/common.js';
import { editUser, markPresentationSeen, updateProfile } from '../../domain/accounts/profile.js';
import { currentUserView } from '../../domain/accounts/queries.js';
import { activateByAdministrator } from '../../domain/registration/activation.js';
import { accountMessages } from '../../domain/accounts/messages.js';

const bearerAuth = [{ bearerAuth: [] }];
const userNotFound = () => new HttpError(404, accountMessages.userNotFound, 'USER_NOT_FOUND');

/**
 * 403 unless the session is the user `id` or may administer: `requireAdmin`, so an administrator's edit of someone
 * else passes the same gate as the admin panel (a session that proved a second factor when required).
 */
async function selfOrAdmin(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply, id: number) {
  if (signedIn(request).user.id !== id) await app.requireAdmin(request, reply);
}

const routes: FastifyPluginAsyncTypebox = async (app) => {
  const errors = { 401: ErrorRef, 403: ErrorRef, 404: ErrorRef, ...commonErrors };

  app.post(
    '/update-user',
    {
      onRequest: app.authenticate,
      schema: {
        summary: 'Actualiza nombre, apellido y teléfono (el propio usuario o un administrador)',
        tags: ['auth'],
        security: bearerAuth,
        body: UpdateUserBody,
        response: { 200: UserEnvelope, ...errors },
      },
    },
    async (request, reply) => {
      const { idUsuario, name, lastName, phone } = request.body;
      const actor = signedIn(request);
      await selfOrAdmin(app, request, reply, idUsuario);
      const updated = await app.db.transaction((tx) => updateProfile(tx, actor, idUsuario, { name, lastName, phone }));
      if (!updated) throw userNotFound();
      return { user: await currentUserView(app.db, updated) };
    },
  );

  app.put(
    '/editar/:id',
    {
      onRequest: app.authenticate,
      schema: {
        summary: 'Edita el perfil de un usuario (el propio o, para administradores, cualquiera, también rol y estado)',
        tags: ['auth'],
        security: bearerAuth,
        params: IdParams,
        body: EditUserBody,
        response: { 200: UserEnvelope, ...errors },
      },
    },
    async (request, reply) => {
      const actor = signedIn(request);
      const { id } = request.params;
      await selfOrAdmin(app, request, reply, id);
      const { role, status, picture } = request.body;
      // Administrators' browsers fetch every listed picture: only the identity providers' avatar hosts (shared rule).
      if (picture != null && !isAllowedPicture(picture)) {
        throw new HttpError(400, PICTURE_NOT_ALLOWED_MESSAGE, 'PICTURE_NOT_ALLOWED');
      }
      // Role and status are the administrators' to change, their own too: through the admin gate.
      if (role !== undefined || status !== undefined) await app.requireAdmin(request, reply);

      const verification = { activate: (tx: Db, userId: number) => activateByAdministrator(app, tx, userId) };
      const updated = await app.db.transaction((tx) => editUser(verification, tx, actor, id, request.body));
      if (!updated) throw userNotFound();
      // A hand verification queued its mail in the transaction.
      if (status === 'active') app.mailer.wake();
      return { user: await currentUserView(app.db, updated) };
    },
  );

  app.post(
    '/update-presentacion',
    {
      onRequest: app.authenticate,
      schema: {
        summary: 'Marca la presentación como vista (solo el propio usuario)',
        tags: ['auth'],
        security: bearerAuth,
        body: UpdatePresentationBody,
        response: { 200: UserEnvelope, ...errors },
      },
    },
    async (request) => {
      const session = signedIn(request).user;
      if (session.id !== request.body.userId) throw forbidden();
      const updated = await markPresentationSeen(app.db, session.id);
      if (!updated) throw userNotFound();
      return { user: await currentUserView(app.db, updated) };
    },
  );
};

export default routes;
