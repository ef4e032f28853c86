import { adminErrors, bearerSecurity as security } from '../../schemas/common.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { signedIn, adminOnly } from '../../plugins/app/authentication.js';
import { recordAudit } from '../../domain/audit/log.js';
import { listUsers, userStats } from '../../domain/user-directory/queries.js';
import { verifyPendingUsers } from '../../domain/registration/activation.js';
import { UserListQuery, UserPage, UserStats, VerifyEmailsBody, VerifyEmailsResponse } from '../../schemas/users.js';

/** The admin's user management (spec §2 'User management'); every route is for administrators only. */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  adminOnly(app);

  app.get(
    '/listar',
    {
      schema: {
        summary: 'Lista paginada de usuarios, los más recientes primero, con filtros por nombre, email y estado',
        tags: ['admin'],
        security,
        querystring: UserListQuery,
        response: { 200: UserPage, ...adminErrors },
      },
    },
    async (request) => listUsers(app.db, request.query),
  );

  app.post(
    '/verify-emails',
    {
      schema: {
        summary:
          'Activa a los usuarios pendientes de verificación indicados y les envía «Tu cuenta está activa» con el modo de elegir su contraseña; los demás no cambian',
        tags: ['admin'],
        security,
        body: VerifyEmailsBody,
        response: { 200: VerifyEmailsResponse, ...adminErrors },
      },
    },
    async (request) => {
      const answer = await app.db.transaction(async (tx) => {
        const userIds = await verifyPendingUsers(app, tx, request.body.userIds);
        await recordAudit(
          tx,
          signedIn(request),
          userIds.map((id) => ({
            action: 'user.verify' as const,
            target: { type: 'user' as const, id },
            details: { from: 'pending_verification', to: 'active' },
          })),
        );
        return { verified: userIds.length, userIds };
      });
      if (answer.verified > 0) app.mailer.wake();
      return answer;
    },
  );

  app.get(
    '/stats',
    {
      schema: {
        summary: 'Cifras de las tarjetas de la gestión de usuarios',
        tags: ['admin'],
        security,
        response: { 200: UserStats, ...adminErrors },
      },
    },
    async () => userStats(app.db),
  );
};

export default routes;
