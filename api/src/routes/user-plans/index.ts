import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { HttpError } from '../../lib/errors.js';
import { signedIn } from '../../plugins/app/authentication.js';
import { commonErrors, ErrorRef } from '../../schemas/common.js';
import { changeUserPlan, userAppPlans } from '../../domain/accounts/plans.js';
import { userExists } from '../../domain/accounts/queries.js';
import { ChangePlanBody, UserAppPlanInfo, UserAppPlansBody } from '../../schemas/user-plans.js';
import { accountMessages } from '../../domain/accounts/messages.js';

const security = [{ bearerAuth: [] }];
const userNotFound = () => new HttpError(404, accountMessages.userNotFound, 'USER_NOT_FOUND');

/** Plans per user and app (spec §2 'Planes del Usuario'). */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook('onRequest', app.authenticate);

  app.post(
    '/user-app-plans',
    {
      // Read-only: a partner app may read the plans of its token's own user, never anyone else's.
      config: { partnerToken: true },
      schema: {
        summary:
          'El plan actual del usuario en cada app con planes, y los planes de esa app (el propio usuario o un administrador)',
        tags: ['planes'],
        security,
        body: UserAppPlansBody,
        response: { 200: Type.Array(UserAppPlanInfo), 401: ErrorRef, 403: ErrorRef, 404: ErrorRef, ...commonErrors },
      },
    },
    async (request, reply) => {
      const { user } = signedIn(request);
      const { idUsuario } = request.body;
      // Someone else's plans: an administrator's portal session only, through the admin gate.
      if (user.id !== idUsuario) await app.requireAdmin(request, reply);
      if (!(await userExists(app.db, idUsuario))) throw userNotFound();
      return userAppPlans(app.db, idUsuario);
    },
  );

  app.post(
    '/cambiar-plan-app',
    {
      onRequest: app.requireAdmin,
      schema: {
        summary: 'Asigna al usuario un plan de la app con su fecha de vencimiento (solo administradores)',
        tags: ['planes'],
        security,
        body: ChangePlanBody,
        response: { 200: UserAppPlanInfo, 401: ErrorRef, 403: ErrorRef, 404: ErrorRef, ...commonErrors },
      },
    },
    async (request) => {
      return changeUserPlan(app.db, signedIn(request), request.body);
    },
  );
};

export default routes;
