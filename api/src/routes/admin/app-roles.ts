import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import {
  createAppRole,
  deleteAppRole,
  listAppRoles,
  setOwnPlanRoles,
  updateAppRole,
} from '../../domain/apps-and-plans/app-roles.js';
import { signedIn } from '../../plugins/app/authentication.js';
import {
  AppRole,
  AppRoleList,
  AppRoleParams,
  AppRolesParams,
  CreateAppRoleBody,
  HeldRoles,
  RolesBody,
  UpdateAppRoleBody,
  UserAppRolesParams,
} from '../../schemas/app-roles.js';
import { adminErrors, ErrorRef, bearerSecurity as security } from '../../schemas/common.js';

const errors = { ...adminErrors, 404: ErrorRef, 409: ErrorRef };

/**
 * An app's roles under /admin/apps/:idApp/roles, and the roles of people who hold an app by their own plan under
 * /admin/users/:id/roles-app (administrators only, from the parent scope).
 */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/apps/:idApp/roles',
    {
      schema: {
        summary: 'Los roles de una app del catálogo, por clave',
        tags: ['admin'],
        security,
        params: AppRolesParams,
        response: { 200: AppRoleList, ...errors },
      },
    },
    async (request) => ({ data: await listAppRoles(app.db, request.params.idApp) }),
  );

  app.post(
    '/apps/:idApp/roles',
    {
      schema: {
        summary: 'Define un rol de una app del catálogo; 409 ROL_EXISTE si ya tiene esa clave',
        tags: ['admin'],
        security,
        params: AppRolesParams,
        body: CreateAppRoleBody,
        response: { 201: AppRole, ...errors },
      },
    },
    async (request, reply) => {
      const created = await app.db.transaction((tx) =>
        createAppRole(tx, signedIn(request), request.params.idApp, request.body),
      );
      return reply.code(201).send(created);
    },
  );

  app.patch(
    '/apps/:idApp/roles/:clave',
    {
      schema: {
        summary: 'Cambia el nombre, la descripción o si es el rol por defecto (uno como mucho por app)',
        tags: ['admin'],
        security,
        params: AppRoleParams,
        body: UpdateAppRoleBody,
        response: { 200: AppRole, ...errors },
      },
    },
    async (request) =>
      app.db.transaction((tx) =>
        updateAppRole(tx, signedIn(request), request.params.idApp, request.params.clave, request.body),
      ),
  );

  app.delete(
    '/apps/:idApp/roles/:clave',
    {
      schema: {
        summary: 'Elimina un rol: se retira a todos los que lo tenían (auditado, avisando a las apps)',
        tags: ['admin'],
        security,
        params: AppRoleParams,
        response: { 204: Type.Null({ description: 'Rol eliminado' }), ...errors },
      },
    },
    async (request, reply) => {
      await app.db.transaction((tx) =>
        deleteAppRole(tx, signedIn(request), request.params.idApp, request.params.clave),
      );
      return reply.code(204).send(null);
    },
  );

  app.put(
    '/users/:id/roles-app/:idApp',
    {
      schema: {
        summary:
          'Los roles de una app para quien la tiene con su plan propio; 409 SIN_PLAN sin plan propio de esa app, 400 ROL_DESCONOCIDO',
        tags: ['admin'],
        security,
        params: UserAppRolesParams,
        body: RolesBody,
        response: { 200: HeldRoles, ...errors },
      },
    },
    async (request) =>
      app.db.transaction((tx) =>
        setOwnPlanRoles(tx, signedIn(request), request.params.id, request.params.idApp, request.body.roles),
      ),
  );
};

export default routes;
