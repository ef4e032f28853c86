import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { eq } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import { roles, users } from '../../db/schema.js';
import { forbidden, HttpError } from '../../lib/errors.js';
import { editedPhone } from '../../lib/phone.js';
import { signedIn } from '../../plugins/app/authentication.js';
import { EditUserBody, UpdatePresentationBody, UpdateUserBody, UserEnvelope } from '../../schemas/auth.js';
import { commonErrors, ErrorRef, IdParams } from '../../schemas/common.js';
import { checkAccountChange, endsSessions, keepOneAdministrator } from '../admin/accounts.js';
import { recordAudit } from '../admin/audit.js';
import { activateUser, currentUserView, findUserById } from './queries.js';

const bearerAuth = [{ bearerAuth: [] }];
const userNotFound = () => new HttpError(404, 'Usuario no encontrado', 'USER_NOT_FOUND');

/**
 * 403 unless the session is the user `id` or may administer: `requireAdmin`, so an administrator's edit of someone
 * else passes the same gate as the admin panel (issue 20: a session that proved a second factor when required).
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
        summary: 'Actualiza nombre y teléfono (el propio usuario o un administrador)',
        tags: ['auth'],
        security: bearerAuth,
        body: UpdateUserBody,
        response: { 200: UserEnvelope, ...errors },
      },
    },
    async (request, reply) => {
      const { idUsuario, name, phone } = request.body;
      const actor = signedIn(request);
      await selfOrAdmin(app, request, reply, idUsuario);
      const updated = await app.db.transaction(async (tx) => {
        const [current] = await tx
          .select({ phone: users.phone })
          .from(users)
          .where(eq(users.id, idUsuario))
          .for('update');
        if (!current) throw userNotFound();
        const changes = {
          name: name.trim(),
          ...(phone === undefined ? {} : { phone: editedPhone(phone, current.phone) }),
        };
        const [row] = await tx.update(users).set(changes).where(eq(users.id, idUsuario)).returning();
        // An administrator editing someone else is on record; people editing themselves are not admin actions.
        if (row && actor.user.id !== idUsuario) {
          await recordAudit(tx, actor, [
            { action: 'user.edit', target: { type: 'user', id: idUsuario }, details: changes },
          ]);
        }
        return row;
      });
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
      const session = actor.user;
      const { id } = request.params;
      await selfOrAdmin(app, request, reply, id);
      const { role, status, ...profile } = request.body;
      // Role and status are the administrators' to change, their own too: through the admin gate.
      if (role !== undefined || status !== undefined) await app.requireAdmin(request, reply);

      const updated = await app.db.transaction(async (tx) => {
        const [current] = await tx.select().from(users).where(eq(users.id, id)).for('update');
        if (!current) throw userNotFound();
        checkAccountChange(session.id, current, { status, role });
        const sessionsEnd = endsSessions(current, { status, role });
        if (current.role === roles.admin && Object.keys(sessionsEnd).length > 0) await keepOneAdministrator(tx, id);
        const changes: PgUpdateSetSource<typeof users> = {};
        for (const field of ['name', 'lastName'] as const) {
          const value = profile[field];
          if (value !== undefined) changes[field] = value.trim();
        }
        if (profile.phone !== undefined) changes.phone = editedPhone(profile.phone, current.phone);
        if (profile.picture !== undefined) changes.picture = profile.picture;
        if (role !== undefined) changes.role = role;
        // Verifying by hand does what the emailed code does: activation with the free plans.
        if (status === 'active' && current.status === 'pending_verification') await activateUser(tx, id);
        else if (status !== undefined) changes.status = status;
        Object.assign(changes, sessionsEnd);
        if (Object.keys(changes).length > 0) await tx.update(users).set(changes).where(eq(users.id, id));
        if (session.id !== id) {
          const { tokenVersion: _tokenVersion, ...recorded } = changes;
          await recordAudit(tx, actor, [
            {
              action: 'user.edit',
              target: { type: 'user', id },
              details: { ...recorded, ...(status ? { status } : {}) },
            },
          ]);
        }
        return findUserById(tx, id);
      });
      if (!updated) throw userNotFound();
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
      const [updated] = await app.db
        .update(users)
        .set({ presentacion: false })
        .where(eq(users.id, session.id))
        .returning();
      if (!updated) throw userNotFound();
      return { user: await currentUserView(app.db, updated) };
    },
  );
};

export default routes;
