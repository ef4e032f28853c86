import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { HttpError } from '../../lib/errors.js';
import { App } from '../../schemas/apps.js';
import { commonErrors, ErrorRef, IdParams, Page, PageQuery } from '../../schemas/common.js';
import { findApp, listApps } from '../../domain/apps-and-plans/apps.js';
import { AppWithPlans, listAppsWithPlans } from '../../domain/apps-and-plans/with-plans.js';
import { appMessages } from '../../domain/apps-and-plans/messages.js';

const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/listar',
    {
      schema: {
        summary: 'Lista paginada de apps con sus etiquetas, por id',
        tags: ['apps'],
        querystring: PageQuery,
        response: { 200: Page(App), ...commonErrors },
      },
    },
    async (request) => listApps(app.db, request.query.page, request.query.limit, app.config.oidcIssuer),
  );

  app.get(
    '/obtener-por-id/:id',
    {
      schema: {
        summary: 'Una app con sus etiquetas',
        tags: ['apps'],
        params: IdParams,
        response: { 200: App, 404: ErrorRef, ...commonErrors },
      },
    },
    async (request) => {
      const found = await findApp(app.db, request.params.id, app.config.oidcIssuer);
      if (!found) throw new HttpError(404, appMessages.appNotFound, 'APP_NOT_FOUND');
      return found;
    },
  );

  app.get(
    '/listar-con-planes',
    {
      schema: {
        summary: 'Todas las apps, por id, con sus planes (características y precios)',
        tags: ['apps'],
        response: { 200: Type.Array(AppWithPlans), ...commonErrors },
      },
    },
    async () => listAppsWithPlans(app.db),
  );
};

export default routes;
