import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { eq } from 'drizzle-orm';
import { Type } from 'typebox';
import { apps, users } from '../../db/schema.js';
import { HttpError, present } from '../../lib/errors.js';
import { signedIn } from '../../plugins/app/authentication.js';
import { commonErrors, ErrorRef } from '../../schemas/common.js';
import { recordAudit } from '../admin/audit.js';
import { currentPlan, findPlanOfApp, setPlan, userAppPlans } from './queries.js';
import { ChangePlanBody, UserAppPlanInfo, UserAppPlansBody } from './schemas.js';

const security = [{ bearerAuth: [] }];
const userNotFound = () => new HttpError(404, 'Usuario no encontrado', 'USER_NOT_FOUND');

/** Plans per user and app (spec §2 'Planes del Usuario'). */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook('onRequest', app.authenticate);

  const userExists = async (id: number) =>
    (await app.db.select({ id: users.id }).from(users).where(eq(users.id, id))).length > 0;

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
      // Someone else's plans: an administrator's portal session only, through the admin gate (issue 20).
      if (user.id !== idUsuario) await app.requireAdmin(request, reply);
      if (!(await userExists(idUsuario))) throw userNotFound();
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
      const { idUsuario, idApp, idPlan, fechaVencimiento } = request.body;
      if (idPlan === 0) {
        throw new HttpError(400, 'Selecciona un plan: no se puede guardar sin plan asignado', 'PLAN_REQUIRED');
      }
      const expiry = new Date(fechaVencimiento);
      if (Number.isNaN(expiry.getTime())) {
        throw new HttpError(400, "Datos inválidos: 'fechaVencimiento' no tiene un formato válido", 'VALIDATION_ERROR');
      }
      if (!(await userExists(idUsuario))) throw userNotFound();
      const [appRow] = await app.db.select({ id: apps.id }).from(apps).where(eq(apps.id, idApp));
      if (!appRow) throw new HttpError(404, 'App no encontrada', 'APP_NOT_FOUND');
      if (!(await findPlanOfApp(app.db, idPlan, idApp))) {
        throw new HttpError(400, 'El plan elegido no pertenece a esta aplicación', 'PLAN_NOT_IN_APP');
      }

      return app.db.transaction(async (tx) => {
        const before = await currentPlan(tx, idUsuario, idApp);
        await setPlan(tx, idUsuario, idApp, idPlan, expiry, before?.planId !== idPlan);
        const [row] = await userAppPlans(tx, idUsuario, idApp);
        const info = present(row, 'the plans of the app');
        const planName = (id: number | undefined) => info.planesApp.find((plan) => plan.id === id)?.nombre ?? null;
        await recordAudit(tx, signedIn(request), [
          {
            action: 'user.plan_change',
            target: { type: 'user', id: idUsuario },
            details: {
              appId: idApp,
              app: info.app.nombre,
              fromPlanId: before?.planId ?? null,
              fromPlan: planName(before?.planId),
              toPlanId: idPlan,
              toPlan: planName(idPlan),
              fromFechaVencimiento: before?.fechaVencimiento?.toISOString() ?? null,
              toFechaVencimiento: expiry.toISOString(),
            },
          },
        ]);
        return info;
      });
    },
  );
};

export default routes;
