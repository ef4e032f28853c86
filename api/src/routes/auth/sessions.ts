import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { signedIn } from '../../plugins/app/authentication.js';
import { removeTrustedDevices } from '../../domain/second-factor/trusted-devices.js';
import { endOtherSessions, endSession, listSessions, sessionNotFound } from '../../domain/sessions/sessions.js';
import { restrictsAnything, rulesBinding } from '../../domain/sign-in-limits/company-rules.js';
import { commonErrors, ErrorRef } from '../../schemas/common.js';
import { RulesOfMyCompanies } from '../../schemas/companies.js';
import { Session, SessionId, SessionsEnded } from '../../schemas/sessions.js';

const security = [{ bearerAuth: [] }];

/** The signed-in person's own sessions: list them, end one, end all the others; the company rules that bind them. */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/reglas-empresa',
    {
      onRequest: app.authenticate,
      schema: {
        summary:
          'Las reglas de mis empresas que se aplican a mi inicio de sesión y a mis sesiones (redes, métodos, duración, inactividad)',
        tags: ['auth'],
        security,
        response: { 200: RulesOfMyCompanies, 401: ErrorRef, ...commonErrors },
      },
    },
    async (request) => {
      const bound = await rulesBinding(app.db, signedIn(request).user.id);
      return {
        data: bound
          .filter(({ reglas }) => restrictsAnything(reglas))
          .map(({ id, nombre, reglas }) => ({ empresa: { id, nombre }, ...reglas })),
      };
    },
  );

  app.get(
    '/sessions',
    {
      onRequest: app.authenticate,
      schema: {
        summary: 'Mis sesiones abiertas; `current` marca la de este token',
        tags: ['auth'],
        security,
        response: { 200: Type.Array(Session), 401: ErrorRef, ...commonErrors },
      },
    },
    async (request) => {
      const { user, sessionId } = signedIn(request);
      return listSessions(app.db, user.id, sessionId);
    },
  );

  app.delete(
    '/sessions/:id',
    {
      onRequest: app.authenticate,
      schema: {
        summary: 'Cierra una de mis sesiones (404 si no es mía o ya está cerrada)',
        tags: ['auth'],
        security,
        params: Type.Object({ id: SessionId }),
        response: { 204: Type.Null({ description: 'Sesión cerrada' }), 401: ErrorRef, 404: ErrorRef, ...commonErrors },
      },
    },
    async (request, reply) => {
      const { user } = signedIn(request);
      if (!(await endSession(app.db, user.id, request.params.id))) throw sessionNotFound();
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/sessions/cerrar-otras',
    {
      onRequest: app.authenticate,
      schema: {
        summary: 'Cierra todas mis sesiones salvo la de este token, y quita mis dispositivos de confianza',
        tags: ['auth'],
        security,
        response: { 200: SessionsEnded, 401: ErrorRef, ...commonErrors },
      },
    },
    async (request) => {
      const { user, sessionId } = signedIn(request);
      // Whoever else was in also loses the devices trusted for the second step (decision 0143).
      return app.db.transaction(async (tx) => {
        await removeTrustedDevices(tx, user.id, 'sesiones_cerradas');
        return { ended: await endOtherSessions(tx, user.id, sessionId) };
      });
    },
  );
};

export default routes;
