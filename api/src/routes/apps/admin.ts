import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { appLinksProblem } from '@portal/shared/apps/links';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { appTags, apps } from '../../db/schema.js';
import { HttpError, present } from '../../lib/errors.js';
import { signedIn } from '../../plugins/app/authentication.js';
import { App } from '../../schemas/apps.js';
import { ErrorRef, IdParams } from '../../schemas/common.js';
import { adminErrors, adminOnly, bearerSecurity as security } from '../../plugins/app/admin-only.js';
import { findApp } from './queries.js';
import { recordAudit } from '../admin/audit.js';
import { CreateAppBody, UpdateAppBody } from '../admin/schemas.js';

/** Issue 13 item 7: links a browser would run or send elsewhere are refused, naming the form's label. */
function checkLinks(links: Parameters<typeof appLinksProblem>[0]) {
  const problem = appLinksProblem(links);
  if (problem) throw new HttpError(400, problem, 'INVALID_APP_LINK');
}

async function replaceTags(db: Db, appId: number, tags: { descripcion: string }[]) {
  await db.delete(appTags).where(eq(appTags.appId, appId));
  if (tags.length > 0)
    await db.insert(appTags).values(tags.map(({ descripcion }) => ({ appId, descripcion: descripcion.trim() })));
}

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
      const { tags = [], ...fields } = request.body;
      checkLinks(fields);
      const created = await app.db.transaction(async (tx) => {
        const [row] = await tx
          .insert(apps)
          .values({ ...fields, nombre: fields.nombre.trim() })
          .returning({ id: apps.id });
        const { id } = present(row, 'the new app');
        await replaceTags(tx, id, tags);
        await recordAudit(tx, signedIn(request), [
          {
            action: 'app.create',
            target: { type: 'app', id },
            details: { nombre: fields.nombre.trim() },
          },
        ]);
        return present(await findApp(tx, id), 'the new app');
      });
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
    async (request) => {
      const { id } = request.params;
      const { tags, ...fields } = request.body;
      checkLinks(fields);
      return app.db.transaction(async (tx) => {
        const before = await findApp(tx, id);
        if (!before) throw new HttpError(404, 'App no encontrada', 'APP_NOT_FOUND');
        if (Object.keys(fields).length > 0) {
          await tx
            .update(apps)
            .set(fields.nombre ? { ...fields, nombre: fields.nombre.trim() } : fields)
            .where(eq(apps.id, id));
        }
        if (tags) await replaceTags(tx, id, tags);
        const after = present(await findApp(tx, id), 'the updated app');
        const changed = (Object.keys(request.body) as (keyof typeof request.body)[]).filter(
          (key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]),
        );
        await recordAudit(tx, signedIn(request), [
          {
            action: 'app.update',
            target: { type: 'app', id },
            details: { fields: changed, before: Object.fromEntries(changed.map((key) => [key, before[key]])) },
          },
        ]);
        return after;
      });
    },
  );
};

export default routes;
