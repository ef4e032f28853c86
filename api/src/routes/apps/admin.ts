import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { signedIn, adminOnly } from '../../plugins/app/authentication.js';
import { createApp, updateApp } from '../../domain/apps-and-plans/catalogue.js';
import { App } from '../../schemas/apps.js';
import { ErrorRef, IdParams, adminErrors, bearerSecurity as security } from '../../schemas/common.js';
import { CreateAppBody, UpdateAppBody } from '../../schemas/admin.js';

/** Creating and editing apps of the catalogue (administrators only), registered under /apps. */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  adminOnly(app);

  app.post(
    '/register',
    {
      schema: {
        summary: 'Crea una app del catálogo',
        tags: ['apps'],
        security,
        body: CreateAppBody,
        response: { 201: App, ...adminErrors },
      },
    },
    async (request, reply) => {
      const created = await app.db.transaction((tx) => createApp(tx, signedIn(request), request.body));
      return reply.code(201).send(created);
    },
  );

  app.put(
    '/update/:id',
    {
      schema: {
        summary: 'Modifica los campos enviados de una app (las etiquetas, si se envían, se reemplazan)',
        tags: ['apps'],
        security,
        params: IdParams,
        body: UpdateAppBody,
        response: { 200: App, 404: ErrorRef, ...adminErrors },
      },
    },
    async (request) => app.db.transaction((tx) => updateApp(tx, signedIn(request), request.params.id, request.body)),
  );
};

export default routes;
